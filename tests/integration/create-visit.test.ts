import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appointments, appointmentTasks, homes, serviceRequests } from "~/db/schema";
import { createAppointment } from "~/features/visits/staff-booking.server";
import { bookVisit, REQUEST_BOOKED_MESSAGE } from "~/features/visits/visits.server";
import {
  createHome,
  createMembership,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * ADR 094: staff's Create Appointment, the member's booking and the walk-thru are one
 * createVisit, and every booking takes its home's lock first.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, action_keys cascade`);
});

// Thursday 3 December 2026; "now" is the Friday before.
const DAY = "2026-12-03";
const BEFORE = new Date("2026-11-27T10:00:00-05:00");

let n = 0;
async function world() {
  n++;
  const dana = await createUser(database.db, {
    email: `dana${n}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
    staffRole: "handyman",
  });
  const office = await createUser(database.db, {
    email: `office${n}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Office",
    isEmployee: true,
  });
  const member = await createUser(database.db, {
    email: `maria${n}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Alvarez",
  });
  const home = await createHome(database.db, member.id);
  await createMembership(database.db, member.id, {
    plan: "complete",
    billing: "annual",
    startDate: "2026-11-20",
    staffId: office.id,
    today: "2026-11-20",
  });
  const gate = await createServiceRequest(database.db, home, {
    title: "Fix the gate",
    status: "reviewed",
    priority: "next",
  });
  return { dana, office, member, home, gate };
}

describe(`one createVisit (${testDatabaseKind()})`, () => {
  it("staff and the member booking the same request at once: one visit holds it, the other is refused", async () => {
    const w = await world();
    const results = await Promise.allSettled([
      createAppointment(
        {
          customerId: w.member.id,
          homeId: w.home.id,
          scheduledDate: DAY,
          startTime: "09:00",
          endTime: "10:45",
          tasks: [{ description: "Fix the gate", serviceRequestId: w.gate.id }],
        },
        w.office.id,
      ),
      bookVisit(
        w.member.id,
        { block: 105, date: DAY, startMinute: 13 * 60, requestIds: [w.gate.id] },
        { now: BEFORE },
      ),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected");
    expect((refused as PromiseRejectedResult).reason.message).toBe(REQUEST_BOOKED_MESSAGE);
    const held = await database.db
      .select({ id: appointmentTasks.id })
      .from(appointmentTasks)
      .where(eq(appointmentTasks.serviceRequestId, w.gate.id));
    expect(held).toHaveLength(1);
    const [gate] = await database.db
      .select({ status: serviceRequests.status })
      .from(serviceRequests)
      .where(eq(serviceRequests.id, w.gate.id));
    expect(gate.status).toBe("scheduled");
  });

  // One connection on PGlite: another transaction holding the row cannot be shown there.
  it.skipIf(testDatabaseKind() !== "postgres")(
    "staff's Create Appointment waits for the home's lock, as the member's booking does",
    async () => {
      const w = await world();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      // NO KEY UPDATE: the appointment's foreign key alone would not wait for it; the lock does.
      const holder = database.db.transaction(async (tx) => {
        await tx.select().from(homes).where(eq(homes.id, w.home.id)).for("no key update");
        holding();
        await released;
      });
      await held;
      let done = false;
      const booking = createAppointment(
        {
          customerId: w.member.id,
          homeId: w.home.id,
          scheduledDate: DAY,
          startTime: "09:00",
          endTime: "10:45",
          tasks: [{ description: "Fix the gate", serviceRequestId: w.gate.id }],
        },
        w.office.id,
      ).then((visit) => {
        done = true;
        return visit;
      });
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(done).toBe(false);
      release();
      await holder;
      const visit = await booking;
      const [row] = await database.db
        .select({ id: appointments.id })
        .from(appointments)
        .where(eq(appointments.id, visit.id));
      expect(row).toBeDefined();
    },
  );
});
