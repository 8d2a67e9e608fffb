import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  appointments,
  employeeTimeOff,
  membershipMoneyLedger,
  memberships,
  outbox,
} from "~/db/schema";
import {
  chargeSecondHandyman,
  recordPayment,
  reverseSecondHandyman,
  secondHandymanFeeNet,
} from "~/features/memberships/index.server";
import { membershipPage } from "~/features/memberships/page.server";
import { reportTables } from "~/features/reports";
import { ownerReport } from "~/features/reports/index.server";
import { settlementLineText } from "~/features/memberships/settlement";
import { moveStrandedVisits, strandedVisits } from "~/features/visits/closures.server";
import { staffMoveMemberVisit } from "~/features/visits/member-visits.server";
import { BookAnywayNeededError, unlessBookedAnyway } from "~/features/visits/overrides.server";
import { secondHandymanWarnings } from "~/features/visits/second-handyman.server";
import { progressOwnVisit } from "~/features/visits/today.server";
import { business } from "~/lib/business.server";
import { resetEnvForTests } from "~/lib/env.server";
import type { MailMessage } from "~/lib/mail.server";
import { cancelMembership, previewCancellation } from "~/workflows/cancel-membership.server";
import { createMemberVisit, createUser } from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";
import { twoHandymenWorld } from "../support/two-handymen";

/*
 * Two handymen on one visit (issue 46; ADR 091, 099), where a visit ends or cannot stay, on
 * PGlite and on PostgreSQL (TEST_DB=postgres): the second handyman's time off strands the
 * visit as the first one's does; staff moving it are warned about his time off; a
 * membership's cancel takes back the fee of every upcoming visit it ends, once, to the cent;
 * 'On my way' names both handymen.
 */

let database: TestDatabase;
beforeAll(async () => {
  process.env.SECOND_HANDYMAN_FEE = "95";
  resetEnvForTests();
  database = await useTestDatabase();
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
/** The world with Sam as the visit's second handyman, his fee charged. */
async function twoHandymenVisit() {
  const w = await twoHandymenWorld(database.db, ++seq);
  await withSecond(w.appointment.id, w.sam.id);
  return w;
}

async function withSecond(appointmentId: string, secondId: string) {
  await database.db.transaction(async (tx) => {
    await tx
      .update(appointments)
      .set({ secondHandymanId: secondId })
      .where(eq(appointments.id, appointmentId));
    await chargeSecondHandyman(tx, appointmentId, null);
  });
}

async function visit(id: string) {
  const [row] = await database.db.select().from(appointments).where(eq(appointments.id, id));
  return row;
}

describe(`a two-handymen visit in a closure (${testDatabaseKind()})`, () => {
  it("the second handyman's time off lists it as stranded, with another handyman in his place", async () => {
    const { dana, sam, appointment } = await twoHandymenVisit();
    const lee = await createUser(database.db, {
      email: `lee${seq}@example.com`,
      password: "x",
      firstName: "Lee",
      lastName: "Park",
      isEmployee: true,
    });
    const office = { id: dana.id, isEmployee: true };
    const samOff = {
      kind: "time-off" as const,
      employeeId: sam.id,
      startDate: "2030-12-03",
      endDate: "2030-12-03",
    };
    const [stranded] = await strandedVisits(office, samOff);
    expect(stranded).toMatchObject({
      id: appointment.id,
      employeeId: dana.id,
      handymanName: "Dana Whitfield",
      secondHandymanId: sam.id,
      secondHandymanName: "Sam Okafor",
      freeHandyman: { id: lee.id, name: "Lee Park", replaces: "second" },
    });
    // The first handyman's time off strands it too; Lee would come in Dana's place.
    const danaOff = { ...samOff, employeeId: dana.id };
    expect((await strandedVisits(office, danaOff)).map((v) => v.freeHandyman)).toEqual([
      { id: lee.id, name: "Lee Park", replaces: "first" },
    ]);
    // Another handyman's time off does not.
    expect(await strandedVisits(office, { ...samOff, employeeId: lee.id })).toEqual([]);

    // Kept with Sam, the move is refused: he is inside the closure.
    const keep = { date: "2030-12-03" as const, startMinute: 9 * 60, employeeId: dana.id };
    await expect(
      moveStrandedVisits(office, samOff, { [appointment.id]: keep }, { bookAnyway: false }),
    ).rejects.toThrow(/inside the closure/);
    // With Lee in Sam's place: moved, the fee stands once.
    const moved = await moveStrandedVisits(
      office,
      samOff,
      { [appointment.id]: { ...keep, secondHandymanId: lee.id } },
      { bookAnyway: false },
    );
    expect(moved).toBe(1);
    expect(await visit(appointment.id)).toMatchObject({
      assignedEmployeeId: dana.id,
      secondHandymanId: lee.id,
    });
    expect((await secondHandymanFeeNet(database.db, appointment.id)).netCents).toBe(9_500);
    expect(await strandedVisits(office, samOff)).toEqual([]);
  });

  it("staff moving it are warned about the second handyman's time off; 'Book anyway' moves it", async () => {
    const { dana, sam, appointment } = await twoHandymenVisit();
    await database.db
      .insert(employeeTimeOff)
      .values({ employeeId: sam.id, startDate: "2030-12-05", endDate: "2030-12-05" });
    const office = { id: dana.id, isEmployee: true };
    const to = { date: "2030-12-05" as const, startMinute: 9 * 60, employeeId: dana.id };
    const refused = await staffMoveMemberVisit(office, appointment.id, to).catch((e) => e);
    expect(refused).toBeInstanceOf(BookAnywayNeededError);
    expect((refused as BookAnywayNeededError).warnings).toEqual([
      "Sam Okafor has time off on Thursday, December 5, 2030.",
    ]);
    expect((await visit(appointment.id)).scheduledDate).toBe("2030-12-03");
    // Staff's Create Appointment hears the same of him, beside the first handyman's warnings.
    const asked = { scheduledDate: "2030-12-05", startTime: "09:00", endTime: "10:45" };
    expect(await secondHandymanWarnings({ ...asked, secondHandymanId: sam.id })).toEqual([
      "Sam Okafor has time off on Thursday, December 5, 2030.",
    ]);
    expect(await secondHandymanWarnings({ ...asked, secondHandymanId: null })).toEqual([]);
    expect(() => unlessBookedAnyway(["Sam Okafor has time off."], {})).toThrow(
      BookAnywayNeededError,
    );
    expect(unlessBookedAnyway(["Sam Okafor has time off."], { bookAnyway: true })).toHaveLength(1);
    await staffMoveMemberVisit(office, appointment.id, to, {
      override: { bookAnyway: true, reason: "Sam comes in for this one" },
    });
    expect(await visit(appointment.id)).toMatchObject({
      scheduledDate: "2030-12-05",
      secondHandymanId: sam.id,
    });
    // The same handyman twice is refused, not written.
    await expect(
      staffMoveMemberVisit(office, appointment.id, { ...to, secondHandymanId: dana.id }),
    ).rejects.toThrow("The second handyman must be another than the first.");
  });
});

describe(`a membership's cancel and the second handyman's fee (${testDatabaseKind()})`, () => {
  // Sunday, December 1, 2030, 8 AM: both visits are upcoming.
  const now = { date: "2030-12-01", time: "08:00:00" };

  async function feeEntries(appointmentId: string) {
    return database.db
      .select({
        kind: membershipMoneyLedger.kind,
        amountCents: membershipMoneyLedger.amountCents,
        description: membershipMoneyLedger.description,
      })
      .from(membershipMoneyLedger)
      .where(
        and(
          eq(membershipMoneyLedger.appointmentId, appointmentId),
          sql`${membershipMoneyLedger.description} like 'Second handyman%'`,
        ),
      )
      .orderBy(membershipMoneyLedger.seq);
  }

  it("reverses the fee of every upcoming visit it ends, once, and the settlement is the balance to the cent", async () => {
    const { dana, sam, member, home, membership, appointment } = await twoHandymenVisit();
    // A second visit whose fee was taken back and charged again: it stands once.
    const { appointment: later } = await createMemberVisit(
      database.db,
      { id: home.id, customerId: member.id },
      {
        scheduledDate: "2030-12-04",
        startTime: "09:00",
        endTime: "10:45",
        assignedEmployeeId: dana.id,
        tasks: ["Carry the drywall"],
        today: "2030-12-01",
      },
    );
    await withSecond(later.id, sam.id);
    await database.db.transaction((tx) =>
      reverseSecondHandyman(tx, later.id, null, "one handyman"),
    );
    await database.db.transaction((tx) => chargeSecondHandyman(tx, later.id, null));
    // The member paid part of what she owes: what was paid of a fee comes back.
    await recordPayment(
      { membershipId: membership.id, amountCents: 5_000, method: "check", reference: "1042" },
      dana.id,
    );

    const preview = (await previewCancellation(membership.id, now))!;
    const page = await membershipPage(member.id, 1, 50, now);
    expect(page?.cancel?.settlement).toEqual(preview.settlement);
    const lines = preview.settlement.lines.map((l, i) => settlementLineText(l, i === 0));
    expect(lines.join("\n")).not.toMatch(/Unpaid second handyman/);

    const staff = { id: dana.id, isEmployee: true };
    const result = await cancelMembership(
      { membershipId: membership.id, key: `cancel-two-handymen-${seq}` },
      staff,
      now,
    );
    expect(result?.settlement).toEqual(preview.settlement);
    expect(result?.visitsCanceled).toBe(2);
    const [after] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membership.id));
    expect(after.balanceCents).toBe(-preview.settlement.resultCents);
    for (const id of [appointment.id, later.id]) {
      expect((await secondHandymanFeeNet(database.db, id)).netCents).toBe(0);
      const entries = await feeEntries(id);
      expect(entries.reduce((sum, e) => sum + e.amountCents, 0)).toBe(0);
      expect(entries.filter((e) => /the visit was canceled/.test(e.description))).toEqual([
        expect.objectContaining({ kind: "correction", amountCents: -9_500 }),
      ]);
    }

    // Sent again: nothing more is written; asked again, the fee has nothing left to reverse.
    const again = await cancelMembership(
      { membershipId: membership.id, key: `cancel-two-handymen-${seq}` },
      staff,
      now,
    );
    expect(again).toBeNull();
    expect(
      await database.db.transaction((tx) =>
        reverseSecondHandyman(tx, appointment.id, null, "canceled"),
      ),
    ).toBe(0);
    expect((await feeEntries(appointment.id)).length).toBe(2);
  });

  it("ten cancels at once (one key sent five times, five keys of their own) reverse the fee once", async () => {
    const { dana, membership, appointment } = await twoHandymenVisit();
    // Part of the fee paid, so the settlement comes back with money.
    await recordPayment(
      { membershipId: membership.id, amountCents: 5_000, method: "check", reference: "1043" },
      dana.id,
    );
    const preview = (await previewCancellation(membership.id, now))!;
    expect(preview.settlement.resultCents).not.toBe(0);
    const staff = { id: dana.id, isEmployee: true };
    const key = `cancel-at-once-${seq}`;
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        cancelMembership(
          { membershipId: membership.id, key: i < 5 ? key : `${key}-${i}` },
          staff,
          now,
        ),
      ),
    );
    // One cancel acted; the others found it done (nothing, or a refusal), none failed otherwise.
    const acted = results.filter((r) => r.status === "fulfilled" && r.value);
    expect(acted).toHaveLength(1);
    const [after] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membership.id));
    expect(after.status).toBe("canceled");
    expect(after.balanceCents).toBe(-preview.settlement.resultCents);
    const entries = await feeEntries(appointment.id);
    expect(entries.reduce((sum, e) => sum + e.amountCents, 0)).toBe(0);
    expect(entries.filter((e) => /the visit was canceled/.test(e.description))).toHaveLength(1);
    expect((await visit(appointment.id)).status).toBe("canceled");
  });
});

describe(`the owner's report with two handymen (${testDatabaseKind()})`, () => {
  it("counts the two-handymen visits and their fees, and both handymen's booked time", async () => {
    const { dana, sam, member, home } = await twoHandymenVisit();
    // A second visit goes back to one handyman: its fee charged, then reversed.
    const { appointment: later } = await createMemberVisit(
      database.db,
      { id: home.id, customerId: member.id },
      {
        scheduledDate: "2030-12-04",
        startTime: "09:00",
        endTime: "12:30",
        assignedEmployeeId: dana.id,
        tasks: ["Carry the drywall"],
        today: "2030-12-01",
      },
    );
    await withSecond(later.id, sam.id);
    await database.db.transaction(async (tx) => {
      await tx
        .update(appointments)
        .set({ secondHandymanId: null })
        .where(eq(appointments.id, later.id));
      await reverseSecondHandyman(tx, later.id, null, "one handyman");
    });
    const report = await ownerReport(
      { from: "2030-12-01", to: "2030-12-31" },
      { now: new Date("2030-12-31T17:00:00Z"), database: database.db },
    );
    expect(report.twoHandymen).toEqual({
      visits: 1,
      feesCharged: 2,
      feesChargedCents: 19_000,
      correctionCents: -9_500,
      feeCents: 9_500,
    });
    expect(report.members.revenueTotal).toMatchObject({
      secondHandymanCents: 19_000,
      correctionCents: -9_500,
    });
    // Dana: 1 h 45 min and 3 h 30 min; Sam: the two-handymen visit's 1 h 45 min.
    const booked = Object.fromEntries(report.handymen.people.map((p) => [p.id, p.bookedMinutes]));
    expect(booked).toMatchObject({ [dana.id]: 315, [sam.id]: 105 });
    const table = reportTables(report).find((t) => t.id === "two-handymen")!;
    expect(table.rows).toEqual([
      ["Two-handymen visits", "1"],
      ["Second handyman fees charged", "2 for $190.00"],
      ["Reversed, less charged again", "-$95.00"],
      ["Second handyman fees", "$95.00"],
    ]);
  });
});

describe(`'On my way' with two handymen (${testDatabaseKind()})`, () => {
  it("names both handymen, whichever of them presses it", async () => {
    const { sam, appointment } = await twoHandymenVisit();
    await progressOwnVisit(
      { id: sam.id },
      { appointmentId: appointment.id, to: "on_the_way", key: `on-my-way-${seq}` },
      { now: new Date("2030-12-03T13:30:00Z") },
    );
    const mails = (await database.db.select().from(outbox))
      .map((r) => r.payload as MailMessage)
      .filter((m) => m.subject?.includes("on the way"));
    const who = `Dana Whitfield and Sam Okafor from ${business().name}`;
    expect(mails.map((m) => m.subject)).toEqual([`${who} are on the way`]);
    expect(mails[0].text).toContain(`${who} are on the way to your home now.`);
  });
});
