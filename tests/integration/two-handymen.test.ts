import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appointments, membershipMoneyLedger, memberships } from "~/db/schema";
import { isDoubleBooking } from "~/features/availability/double-booking";
import {
  chargeSecondHandyman,
  reverseSecondHandyman,
  secondHandymanFeeNet,
} from "~/features/memberships/index.server";
import { resetEnvForTests } from "~/lib/env.server";
import {
  createHome,
  createMemberVisit,
  createMembership,
  createUser,
} from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Two handymen on one visit (issue 46, ADR 091), on PGlite and on PostgreSQL (TEST_DB=postgres):
 * the second handyman's fee is charged once however often it is asked for at once, reversed
 * once, charged again by a correction; the database refuses a second handyman who is busy.
 */

let database: TestDatabase;
beforeAll(async () => {
  process.env.SECOND_HANDYMAN_FEE = "95";
  resetEnvForTests();
  database = await useTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  delete process.env.SECOND_HANDYMAN_FEE;
  resetEnvForTests();
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox cascade`);
});

let seq = 0;
async function world() {
  seq++;
  const dana = await createUser(database.db, {
    email: `dana${seq}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
  });
  const sam = await createUser(database.db, {
    email: `sam${seq}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Okafor",
    isEmployee: true,
  });
  const member = await createUser(database.db, {
    email: `ada${seq}@example.com`,
    password: "x",
    firstName: "Ada",
    lastName: "Lovelace",
  });
  const home = await createHome(database.db, member.id);
  const membership = await createMembership(database.db, member.id, {
    startDate: "2030-12-01",
    today: "2030-12-01",
  });
  const { appointment } = await createMemberVisit(
    database.db,
    { id: home.id, customerId: member.id },
    {
      scheduledDate: "2030-12-03",
      startTime: "09:00",
      endTime: "10:45",
      assignedEmployeeId: dana.id,
      tasks: ["Hang the heavy mirror"],
      today: "2030-12-01",
    },
  );
  return { dana, sam, member, home, membership, appointment };
}

async function feeRows(appointmentId: string) {
  return database.db
    .select()
    .from(membershipMoneyLedger)
    .where(eq(membershipMoneyLedger.appointmentId, appointmentId))
    .orderBy(membershipMoneyLedger.seq);
}

async function balance(membershipId: string) {
  const [m] = await database.db
    .select({ balanceCents: memberships.balanceCents })
    .from(memberships)
    .where(eq(memberships.id, membershipId));
  return m.balanceCents;
}

describe("the second handyman's fee", () => {
  it("is charged once under ten concurrent charges, as the setting says", async () => {
    const { appointment, membership } = await world();
    const before = await balance(membership.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        database.db.transaction((tx) => chargeSecondHandyman(tx, appointment.id, null)),
      ),
    );
    expect(results.filter((c) => c > 0)).toEqual([9_500]);
    const rows = await feeRows(appointment.id);
    expect(rows.map((r) => [r.kind, r.amountCents])).toEqual([["second_handyman", 9_500]]);
    expect(rows[0].description).toContain("Second handyman: $95.00");
    expect(await balance(membership.id)).toBe(before + 9_500);
  });

  it("is reversed once on cancel, and charged again by a correction", async () => {
    const { appointment, membership } = await world();
    const before = await balance(membership.id);
    await database.db.transaction((tx) => chargeSecondHandyman(tx, appointment.id, null));
    const reversed = await Promise.all(
      Array.from({ length: 5 }, () =>
        database.db.transaction((tx) =>
          reverseSecondHandyman(tx, appointment.id, null, "one handyman"),
        ),
      ),
    );
    expect(reversed.filter((c) => c > 0)).toEqual([9_500]);
    expect(await secondHandymanFeeNet(database.db, appointment.id)).toEqual({
      charged: true,
      netCents: 0,
    });
    expect(await balance(membership.id)).toBe(before);
    await database.db.transaction((tx) => chargeSecondHandyman(tx, appointment.id, null));
    const rows = await feeRows(appointment.id);
    expect(rows.map((r) => [r.kind, r.amountCents])).toEqual([
      ["second_handyman", 9_500],
      ["correction", -9_500],
      ["correction", 9_500],
    ]);
    expect(await balance(membership.id)).toBe(before + 9_500);
  });

  it("the database holds one charge of the fee per visit", async () => {
    const { appointment, membership } = await world();
    const row = {
      membershipId: membership.id,
      kind: "second_handyman" as const,
      amountCents: 9_500,
      balanceAfter: 0,
      description: "Second handyman: $95.00",
      appointmentId: appointment.id,
    };
    await database.db.insert(membershipMoneyLedger).values(row);
    await expect(database.db.insert(membershipMoneyLedger).values(row)).rejects.toThrow();
  });
});

describe("the second handyman's time", () => {
  it("is never the first handyman, and never two visits at once", async () => {
    const { appointment, dana, sam, home, member } = await world();
    await expect(
      database.db
        .update(appointments)
        .set({ secondHandymanId: dana.id })
        .where(eq(appointments.id, appointment.id)),
    ).rejects.toThrow();
    await database.db
      .update(appointments)
      .set({ secondHandymanId: sam.id })
      .where(eq(appointments.id, appointment.id));
    // Sam, second on Dana's visit, cannot be first on another at an overlapping time.
    const overlapping = database.db.insert(appointments).values({
      customerId: member.id,
      homeId: home.id,
      assignedEmployeeId: sam.id,
      scheduledDate: "2030-12-03",
      startTime: "10:00",
      endTime: "11:45",
    });
    const error = await overlapping.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDoubleBooking(error)).toBe(true);
    // After Dana's visit he is free; canceled, the visit frees him.
    await database.db.insert(appointments).values({
      customerId: member.id,
      homeId: home.id,
      assignedEmployeeId: sam.id,
      scheduledDate: "2030-12-03",
      startTime: "10:45",
      endTime: "12:30",
    });
    await database.db
      .update(appointments)
      .set({ status: "canceled" })
      .where(and(eq(appointments.id, appointment.id)));
  });

  it("two bookings at once never give one handyman two overlapping visits", async () => {
    const { dana, sam, home, member } = await world();
    const tries = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        database.db.insert(appointments).values({
          customerId: member.id,
          homeId: home.id,
          // Half have Sam first, half have him second beside Dana.
          assignedEmployeeId: i % 2 ? sam.id : dana.id,
          secondHandymanId: i % 2 ? null : sam.id,
          scheduledDate: "2030-12-04",
          startTime: "13:00",
          endTime: "14:45",
        }),
      ),
    );
    expect(tries.filter((t) => t.status === "fulfilled")).toHaveLength(1);
  });
});
