import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appointments } from "~/db/schema";
import {
  AppointmentRejectedError,
  createAppointment,
} from "~/features/visits/staff-booking.server";
import { DOUBLE_BOOKING_MESSAGE } from "~/features/availability/double-booking";
import { createHome, createUser } from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * One handyman never holds two overlapping visits: the database refuses the second
 * (appointments_no_double_booking), however the bookings arrive.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase({ poolSize: 24 });
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox cascade`);
});

let seq = 0;
async function people(customers = 1) {
  seq++;
  const staff = await createUser(database.db, {
    email: `handyman${seq}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Reyes",
    isEmployee: true,
  });
  const other = await createUser(database.db, {
    email: `handyman${seq}b@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Ortiz",
    isEmployee: true,
  });
  const members = [];
  for (let i = 0; i < customers; i++) {
    const account = await createUser(database.db, {
      email: `member${seq}-${i}@example.com`,
      password: "x",
      firstName: "Maria",
      lastName: `Member ${i}`,
    });
    const home = await createHome(database.db, account.id, { address: `${100 + i} Oak St` });
    members.push({ account, home });
  }
  return { staff, other, members };
}

function visit(
  member: { account: { id: string }; home: { id: string } },
  employeeId: string,
  startTime: string,
  endTime: string,
) {
  return {
    customerId: member.account.id,
    homeId: member.home.id,
    assignedEmployeeId: employeeId,
    scheduledDate: "2030-12-02",
    startTime,
    endTime,
    tasks: [{ description: "Fix the gate" }],
  };
}

describe("no double booking", () => {
  it("refuses an overlapping visit for the same handyman with a clear message", async () => {
    const { staff, other, members } = await people(2);
    const [a, b] = members;
    await createAppointment(visit(a, staff.id, "09:00", "12:30"), staff.id);
    await expect(createAppointment(visit(b, staff.id, "12:00", "13:45"), staff.id)).rejects.toThrow(
      new AppointmentRejectedError(DOUBLE_BOOKING_MESSAGE),
    );
    // Back to back is fine, and so is another handyman at the same time.
    await createAppointment(visit(b, staff.id, "12:30", "14:15"), staff.id);
    await createAppointment(visit(b, other.id, "09:00", "12:30"), staff.id);
    // Unassigned visits are not anyone's double booking.
    await createAppointment(
      { ...visit(a, staff.id, "09:00", "12:30"), assignedEmployeeId: undefined },
      staff.id,
    );
    const rows = await database.db
      .select()
      .from(appointments)
      .where(eq(appointments.assignedEmployeeId, staff.id));
    expect(rows).toHaveLength(2);
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "20 parallel bookings of one slot give exactly one visit",
    async () => {
      const { staff, members } = await people(20);
      const results = await Promise.allSettled(
        members.map((m) => createAppointment(visit(m, staff.id, "13:00", "16:30"), staff.id)),
      );
      const booked = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter(
        (r) =>
          r.status === "rejected" &&
          r.reason instanceof AppointmentRejectedError &&
          r.reason.message === DOUBLE_BOOKING_MESSAGE,
      );
      expect(booked).toHaveLength(1);
      expect(refused).toHaveLength(19);
      const rows = await database.db
        .select()
        .from(appointments)
        .where(eq(appointments.assignedEmployeeId, staff.id));
      expect(rows).toHaveLength(1);
    },
  );
});
