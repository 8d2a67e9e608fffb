import { and, eq, sql } from "drizzle-orm";
import { outbox } from "~/db/schema";
import { offerVisits } from "~/features/availability/availability.server";
import {
  bookMemberVisit,
  cancelMemberVisit,
  moveMemberVisit,
} from "~/features/visits/member-visits.server";
import { setSecondHandyman } from "~/features/visits/second-handyman-office.server";
import { handymanVisits, progressOwnVisit } from "~/features/visits/today.server";
import type { MailMessage } from "~/lib/mail.server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appointments, membershipMoneyLedger, memberships } from "~/db/schema";
import { isDoubleBooking } from "~/features/availability/double-booking";
import {
  chargeSecondHandyman,
  reverseSecondHandyman,
  secondHandymanFeeNet,
} from "~/features/memberships/index.server";
import { resetEnvForTests } from "~/lib/env.server";
import { createServiceRequest } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";
import { twoHandymenWorld } from "../support/two-handymen";

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
function world() {
  return twoHandymenWorld(database.db, ++seq);
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

describe("booking with two handymen", () => {
  // Tuesday 24 November 2026, 10:10 AM in Atlanta.
  const now = new Date("2026-11-24T15:10:00Z");

  async function booking() {
    const { dana, sam, member, home } = await world();
    await database.db.execute(
      sql`update profiles set dedicated_handyman_id = ${dana.id} where user_id = ${member.id}`,
    );
    const requests = [];
    for (const title of ["Hang the heavy mirror", "Carry the drywall"])
      requests.push(await createServiceRequest(database.db, home, { title, priority: "next" }));
    return { dana, sam, member, home, requests };
  }

  async function mails(to: string) {
    const rows = await database.db.select().from(outbox).orderBy(outbox.createdAt);
    return rows
      .map((r) => r.payload as MailMessage)
      .filter((m) => m.to === to && !m.subject.startsWith("Reminder"));
  }

  it("offers only starts where two are free, books both, charges once, takes the block once", async () => {
    const { dana, sam, member, requests } = await booking();
    // Sam is busy on Monday morning: two handymen are free only from 12:30 on.
    await database.db.insert(appointments).values({
      customerId: member.id,
      homeId: (await database.db.select().from(appointments).limit(1))[0].homeId,
      assignedEmployeeId: sam.id,
      scheduledDate: "2026-11-30",
      startTime: "08:00",
      endTime: "12:30",
    });
    const { days } = await offerVisits({
      customerId: member.id,
      block: 105,
      now,
      onlyDate: "2026-11-30",
      handymenNeeded: 2,
    });
    expect(days[0].slots[0]).toMatchObject({ startMinute: 12 * 60 + 30 });
    expect(days[0].slots[0].handymen.map((h) => h.id)).toEqual([dana.id, sam.id]);
    const [before] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.customerId, member.id));
    const visit = await bookMemberVisit(
      member.id,
      {
        block: 105,
        date: "2026-11-30",
        startMinute: 9 * 60,
        requestIds: [requests[0].id],
        twoHandymen: true,
      },
      { now },
    ).catch((e: Error) => e);
    expect((visit as Error).message).toMatch(/not available/);
    const booked = await bookMemberVisit(
      member.id,
      {
        block: 105,
        date: "2026-11-30",
        startMinute: 13 * 60,
        requestIds: [requests[0].id],
        twoHandymen: true,
      },
      { now },
    );
    expect(booked).toMatchObject({ assignedEmployeeId: dana.id, secondHandymanId: sam.id });
    const [after] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.customerId, member.id));
    // The block once, and the fee once.
    expect(before.minutesAvailable - after.minutesAvailable).toBe(105);
    expect(after.balanceCents - before.balanceCents).toBe(9_500);
    const [mail] = await mails(`ada${seq}@example.com`);
    expect(mail.text).toContain("Your handymen: Dana Whitfield and Sam Okafor");
    expect(mail.text).toContain("Second handyman: $95.00, charged to your membership.");
    const ics = String((mail.attachments?.[0] as { content: string }).content);
    expect(ics.replace(/\r\n /g, "")).toContain("Handymen: Dana Whitfield and Sam Okafor");

    // Moved: both must be free at the new time; the fee stays once.
    await moveMemberVisit(
      { id: member.id, isEmployee: false },
      booked.id,
      { date: "2026-12-01", startMinute: 9 * 60 },
      { now },
    );
    const [moved] = await database.db
      .select()
      .from(appointments)
      .where(eq(appointments.id, booked.id));
    expect(moved.secondHandymanId).toBe(sam.id);
    expect((await secondHandymanFeeNet(database.db, booked.id)).netCents).toBe(9_500);

    // Canceled: the fee is reversed, the hours back.
    await cancelMemberVisit({ id: member.id, isEmployee: false }, booked.id, { now });
    const [end] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.customerId, member.id));
    expect(end.balanceCents).toBe(before.balanceCents);
    expect(end.minutesAvailable).toBe(before.minutesAvailable);
  });

  it("the office adds and removes the second handyman once per form, the member told", async () => {
    const { dana, sam, member, requests } = await booking();
    const booked = await bookMemberVisit(
      member.id,
      { block: 105, date: "2026-11-30", startMinute: 9 * 60, requestIds: [requests[0].id] },
      { now },
    );
    expect(booked.assignedEmployeeId).toBe(dana.id);
    const office = { id: dana.id, isEmployee: true };
    const tries = await Promise.all(
      Array.from({ length: 10 }, () =>
        setSecondHandyman(office, booked.id, sam.id, "key-add-second-handyman-1", { now }),
      ),
    );
    expect(tries.filter((t) => t === "added")).toHaveLength(1);
    expect(tries.filter((t) => t === "already done")).toHaveLength(9);
    expect((await secondHandymanFeeNet(database.db, booked.id)).netCents).toBe(9_500);
    await setSecondHandyman(office, booked.id, null, "key-remove-second-handyman-1", { now });
    expect((await secondHandymanFeeNet(database.db, booked.id)).netCents).toBe(0);
    const subjects = (await mails(`ada${seq}@example.com`)).map((m) => m.subject);
    expect(subjects.filter((s) => s.startsWith("Your visit's handymen have changed"))).toHaveLength(
      2,
    );
  });

  it("is on both handymen's 'Today', and either one works it", async () => {
    const { dana, sam, member, requests } = await booking();
    const booked = await bookMemberVisit(
      member.id,
      {
        block: 105,
        date: "2026-11-30",
        startMinute: 9 * 60,
        requestIds: [requests[0].id],
        twoHandymen: true,
      },
      { now },
    );
    const [danaDay] = await handymanVisits(dana.id, "today", "2026-11-30");
    const [samDay] = await handymanVisits(sam.id, "today", "2026-11-30");
    expect(danaDay).toMatchObject({ id: booked.id, withHandyman: "Sam Okafor" });
    expect(samDay).toMatchObject({ id: booked.id, withHandyman: "Dana Whitfield" });
    const monday = new Date("2026-11-30T13:30:00Z");
    await progressOwnVisit(
      { id: sam.id },
      { appointmentId: booked.id, to: "on_the_way", key: "key-sam-on-my-way-1" },
      { now: monday },
    );
    await progressOwnVisit(
      { id: dana.id },
      { appointmentId: booked.id, to: "in_progress", key: "key-dana-start-1" },
      { now: monday },
    );
    const [row] = await database.db
      .select({ status: appointments.status })
      .from(appointments)
      .where(eq(appointments.id, booked.id));
    expect(row.status).toBe("in_progress");
  });
});
