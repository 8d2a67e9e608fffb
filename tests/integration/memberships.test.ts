import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  appointments,
  membershipMinutesLedger,
  membershipMoneyLedger,
  memberships,
  membershipVisits,
  outbox,
} from "~/db/schema";
import { refundForUnusedMinutes } from "~/features/memberships/settlement";
import {
  addDays as addIsoDays,
  businessToday,
  closedDays,
  defaultClosedDays,
  isBusinessDay,
  minuteOfDay,
  weekday,
  addDays,
  addMonths,
  businessNow,
  plainDate,
} from "~/lib/business-calendar";
import { addPart, decidePart, markPartBought } from "~/features/memberships/parts.server";
import {
  ALREADY_MEMBER,
  MembershipRejectedError,
  VisitSpendRefusedError,
} from "~/features/memberships/errors.server";
import { cancelMembership, previewCancellation } from "~/workflows/cancel-membership.server";
import { memberBankSummary, visitSpend } from "~/features/memberships/summary.server";
import { membershipCounters } from "~/features/memberships/counters.server";
import { membershipStatement } from "~/features/memberships/statement.server";
import { recordPayment } from "~/features/memberships/money.server";
import {
  releaseVisitMinutes,
  reserveVisitMinutes,
} from "~/features/memberships/visit-minutes.server";
import { startMembership } from "~/features/memberships/start.server";
import type { OutboxPayloads } from "~/lib/outbox.server";
import { completeVisit, visitTasks } from "~/features/visits/visit-life.server";
import { VisitRejectedError } from "~/features/visits/visits.server";
import { createAppointment, createHome, createUser } from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox cascade`);
});

const today = businessNow().date;
let seq = 0;

async function people() {
  seq++;
  const staff = await createUser(database.db, {
    email: `staff${seq}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
  });
  const member = await createUser(database.db, {
    email: `member${seq}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Alvarez",
  });
  const home = await createHome(database.db, member.id);
  return { staff, member, home };
}

/** Books an appointment and reserves its minutes in one transaction, as the booking does. */
async function book(
  home: { id: string; customerId: string },
  input: { date: string; start: string; end: string; asExtra?: boolean },
) {
  return database.db.transaction(async (tx) => {
    const appointment = await createAppointment(tx, home, {
      scheduledDate: input.date,
      startTime: input.start,
      endTime: input.end,
      tasks: ["Fix the faucet"],
    });
    const reserved = await reserveVisitMinutes(tx, appointment.id, { asExtra: input.asExtra });
    return { appointment, reserved };
  });
}

/** Staff finish a visit with every task done (the visits feature's completeVisit). */
async function finish(staffId: string, appointmentId: string, minutesWorked: number) {
  const tasks = await visitTasks(appointmentId);
  return completeVisit({ id: staffId, isEmployee: true }, appointmentId, {
    minutesWorked,
    outcomes: Object.fromEntries(tasks.map((t) => [t.id, "done" as const])),
  });
}

async function mails() {
  const rows = await database.db.select().from(outbox).orderBy(asc(outbox.createdAt));
  return rows.map((r) => r.payload as OutboxPayloads["email"]);
}

describe("starting a membership", () => {
  it("copies the plan's terms, charges the first month and fills the bank", async () => {
    const { staff, member } = await people();
    const m = await startMembership(
      { customerId: member.id, plan: "complete", billing: "monthly", startDate: today },
      staff.id,
    );
    expect(m).toMatchObject({
      planName: "Complete Home Care",
      monthlyPriceCents: 29_500,
      minutesPerYear: 2_520,
      visitsPerYear: 24,
      minutesAvailable: 210,
      balanceCents: 29_500,
      periodsCharged: 1,
    });
    const summary = await memberBankSummary(member.id);
    // The meter says what is paid, what is left and what comes next, when (ADR 057).
    expect(summary?.meterLabel).toBe(
      `3 h 30 min paid, 3 h 30 min left now; 3 h 30 min more on ${plainDate(addMonths(today, 1), { today: today })}`,
    );
    expect(summary?.visitsLeftThisMonth).toBe(2);
    expect((await mails()).map((m) => m.subject)).toEqual([
      expect.stringContaining("Complete Home Care membership"),
    ]);
  });

  it("charges every month begun since the start, once, however often it is read", async () => {
    const { staff, member } = await people();
    const start = addDays(today, -95);
    await startMembership(
      { customerId: member.id, plan: "complete", billing: "monthly", startDate: start },
      staff.id,
    );
    await Promise.all([memberBankSummary(member.id), memberBankSummary(member.id)]);
    const summary = await memberBankSummary(member.id);
    const charges = await database.db
      .select()
      .from(membershipMoneyLedger)
      .where(eq(membershipMoneyLedger.kind, "membership_charge"));
    // 95 days covers the start month and three more (4 charges) or four more at month ends.
    expect(charges.length).toBeGreaterThanOrEqual(4);
    expect(summary?.minutesLeft).toBe(210 * charges.length);
  });

  it("annual billing charges 12 months upfront and adds the year's hours", async () => {
    const { staff, member } = await people();
    const m = await startMembership(
      { customerId: member.id, plan: "total", billing: "annual", startDate: today },
      staff.id,
    );
    expect(m.minutesAvailable).toBe(84 * 60);
    expect(m.balanceCents).toBe(55_000 * 12);
  });

  it("allows one active membership per home", async () => {
    const { staff, member } = await people();
    const input = {
      customerId: member.id,
      plan: "complete" as const,
      billing: "monthly" as const,
      startDate: today,
    };
    await startMembership(input, staff.id);
    await expect(startMembership(input, staff.id)).rejects.toThrow(ALREADY_MEMBER);
    expect(await database.db.$count(memberships)).toBe(1);
  });
});

describe("the database keeps the bank honest", () => {
  it("refuses a bank more than a year's hours below zero (booking ahead, ADR 057)", async () => {
    const { staff, member } = await people();
    const m = await startMembership(
      { customerId: member.id, plan: "complete", billing: "monthly", startDate: today },
      staff.id,
    );
    await expect(
      database.db.execute(sql`update memberships set minutes_available = -2521 where id = ${m.id}`),
    ).rejects.toThrow();
    await database.db.execute(
      sql`update memberships set minutes_available = -18 where id = ${m.id}`,
    );
  });

  it("refuses to edit or delete ledger rows", async () => {
    const { staff, member } = await people();
    await startMembership(
      { customerId: member.id, plan: "complete", billing: "monthly", startDate: today },
      staff.id,
    );
    for (const statement of [
      sql`update membership_money_ledger set amount_cents = 1`,
      sql`delete from membership_money_ledger`,
      sql`update membership_minutes_ledger set minutes = 1`,
      sql`delete from membership_minutes_ledger`,
    ]) {
      const error = await database.db.execute(statement).then(
        () => null,
        (e: { cause?: Error }) => e,
      );
      expect(error?.cause?.message).toMatch(/append-only/);
    }
    expect(await database.db.$count(membershipMoneyLedger)).toBe(1);
  });
});

describe("visits", () => {
  it("reserves the block, completes it with the time worked and returns the rest", async () => {
    const { staff, member, home } = await people();
    await startMembership(
      { customerId: member.id, plan: "complete", billing: "monthly", startDate: today },
      staff.id,
    );
    expect((await visitSpend(member.id, { date: today, block: 105 }))?.label).toBe(
      "Uses 1 h 45 min of 3 h 30 min left",
    );
    const { appointment, reserved } = await book(home, {
      date: today,
      start: "09:00",
      end: "10:45",
    });
    expect(reserved).toMatchObject({ decision: { kind: "bank", minutes: 105 }, minutesLeft: 105 });

    await expect(finish(staff.id, appointment.id, 100)).rejects.toThrow(VisitRejectedError);
    const done = await finish(staff.id, appointment.id, 90);
    expect(done).toMatchObject({ minutesBack: 15, minutesLeft: 120 });
    await expect(finish(staff.id, appointment.id, 90)).rejects.toThrow(
      "This visit is completed and cannot be changed.",
    );
    const last = (await mails()).at(-1)!;
    expect(last.text).toContain("Time used: 1 h 30 min");
    // In the Plan tab's meter words (issue 39, item 11).
    expect(last.text).toContain(
      `Your hours: 3 h 30 min paid, 2 h left now; 3 h 30 min more on ${plainDate(addMonths(today, 1), { today: today })}.`,
    );
  });

  it("books the first week ahead of payment, refuses what even that cannot hold, and staff can book an extra visit", async () => {
    const { staff, member, home } = await people();
    await startMembership(
      { customerId: member.id, plan: "essential", billing: "monthly", startDate: today },
      staff.id,
    );
    // Essential's first month buys 87 minutes and the next 88 (ADR 057): 2 h 55 min can be
    // booked this month, not 3 h 30 min.
    await expect(book(home, { date: today, start: "09:00", end: "12:30" })).rejects.toThrow(
      VisitSpendRefusedError,
    );
    expect(await database.db.$count(appointments)).toBe(0);
    // The summary says which hours are paid by the visit's day (issue 40, item 7): the next
    // month's hours are charged after a visit this week, so they are booked ahead of payment.
    const week = addDays(today, 6);
    expect((await visitSpend(member.id, { date: week, block: 105 }))?.label).toBe(
      `Uses 1 h 45 min: 1 h 27 min left now and 18 min booked ahead of payment (its hours are charged on ${plainDate(addMonths(today, 1), { today: week })}, after the visit)`,
    );
    const first = await book(home, { date: today, start: "09:00", end: "10:45" });
    expect(first.reserved?.decision).toEqual({ kind: "bank", minutes: 105 });
    const [ahead] = await database.db.select().from(memberships);
    expect(ahead.minutesAvailable).toBe(87 - 105);
    const { reserved } = await book(home, {
      date: addDays(today, 1),
      start: "09:00",
      end: "10:45",
      asExtra: true,
    });
    expect(reserved?.decision).toMatchObject({ kind: "extra", chargeCents: 15_000 });
    const [m] = await database.db.select().from(memberships);
    expect(m.minutesAvailable).toBe(-18);
    expect(m.balanceCents).toBe(17_500 + 15_000);
  });

  it("makes a visit beyond the month's allowance an extra visit, and releases on cancel", async () => {
    const { staff, member, home } = await people();
    await startMembership(
      { customerId: member.id, plan: "total", billing: "annual", startDate: today },
      staff.id,
    );
    const date = addDays(today, 1);
    const month = date.slice(0, 7);
    const sameMonth = [1, 2, 3, 4, 5]
      .map((n) => addDays(date, n))
      .filter((d) => d.startsWith(month));
    const dates = [date, ...sameMonth];
    const results: Awaited<ReturnType<typeof book>>[] = [];
    for (const d of dates)
      results.push(await book(home, { date: d, start: "09:00", end: "10:45" }));
    const kinds = results.map((r) => r.reserved!.decision.kind);
    // Total's allowance is 4 a month.
    expect(kinds.slice(0, 4).every((k) => k === "bank")).toBe(true);
    if (dates.length > 4) expect(kinds[4]).toBe("extra");

    const released = await database.db.transaction((tx) =>
      releaseVisitMinutes(tx, results[0].appointment.id),
    );
    expect(released).toBe(105);
    const again = await database.db.transaction((tx) =>
      releaseVisitMinutes(tx, results[0].appointment.id),
    );
    expect(again).toBe(0);
    const [visit] = await database.db
      .select()
      .from(membershipVisits)
      .where(eq(membershipVisits.appointmentId, results[0].appointment.id));
    expect(visit.status).toBe("released");
  });

  it("does nothing for a customer without a membership", async () => {
    const { home } = await people();
    const { reserved } = await book(home, { date: today, start: "09:00", end: "10:45" });
    expect(reserved).toBeNull();
  });
});

describe("parts and money", () => {
  it("a part over $100 waits for the member; one $10 fee per visit however many parts", async () => {
    const { staff, member, home } = await people();
    const other = await people();
    const m = await startMembership(
      { customerId: member.id, plan: "complete", billing: "monthly", startDate: today },
      staff.id,
    );
    const { appointment } = await book(home, { date: today, start: "09:00", end: "10:45" });
    const valve = await addPart(
      { appointmentId: appointment.id, description: "Water heater valve", costCents: 14_000 },
      staff.id,
    );
    expect(valve.status).toBe("pending_approval");
    expect((await membershipCounters()).partsAwaitingApproval).toBe(1);
    expect((await mails()).at(-1)?.subject).toContain("Parts approval needed");
    await expect(markPartBought(valve.id, staff.id)).rejects.toThrow("Only an approved part");
    await expect(decidePart(other.member.id, valve.id, "approve")).rejects.toThrow(
      MembershipRejectedError,
    );
    await decidePart(member.id, valve.id, "approve");
    // The office is told who approved what, with a staff link (never a customer URL).
    const alert = (await mails()).find((m) => m.to === "hello@peachtree-handyman.example")!;
    expect(alert.subject).toBe("Maria Alvarez approved a part: Water heater valve ($140.00)");
    expect(alert.text).toContain(`/employee/customers/${member.id}/membership`);
    expect(alert.text).not.toContain("/dashboard");
    expect(alert.text).not.toContain("Questions? Call us");
    const washer = await addPart(
      { appointmentId: appointment.id, description: "Washers", costCents: 350 },
      staff.id,
    );
    expect(washer.status).toBe("approved");
    await markPartBought(valve.id, staff.id);
    await markPartBought(washer.id, staff.id);
    await expect(markPartBought(washer.id, staff.id)).rejects.toThrow("already");
    await recordPayment(
      { membershipId: m.id, amountCents: 29_500, method: "check", reference: "1042" },
      staff.id,
    );

    const statement = await membershipStatement(m.id);
    const money = statement.filter((e) => e.ledger === "money");
    expect(money.map((e) => [e.kind, e.amountCents])).toEqual([
      ["payment", -29_500],
      ["part", 350],
      ["shopping_fee", 1_000],
      ["part", 14_000],
      ["membership_charge", 29_500],
    ]);
    expect(money[0].balanceCents).toBe(14_000 + 1_000 + 350);
    expect(money.filter((e) => e.kind === "shopping_fee")).toHaveLength(1);
  });
});

describe("canceling", () => {
  it("within the guarantee refunds every membership charge; future visits are withdrawn", async () => {
    const { staff, member, home } = await people();
    const m = await startMembership(
      {
        customerId: member.id,
        plan: "complete",
        billing: "monthly",
        startDate: addDays(today, -60),
      },
      staff.id,
    );
    const future = await book(home, { date: addDays(today, 2), start: "09:00", end: "10:45" });
    const preview = await previewCancellation(m.id);
    expect(preview).toMatchObject({ rule: "guarantee", futureVisitCount: 1 });
    const charges = await database.db
      .select({ total: sql<number>`sum(amount_cents)::int` })
      .from(membershipMoneyLedger)
      .where(eq(membershipMoneyLedger.kind, "membership_charge"));
    expect(preview?.refundCents).toBe(charges[0].total);

    await cancelMembership(
      { membershipId: m.id, customerId: member.id },
      { id: member.id, isEmployee: false },
    );
    const [refund] = await database.db
      .select()
      .from(membershipMoneyLedger)
      .where(eq(membershipMoneyLedger.kind, "refund"));
    expect(-refund.amountCents).toBe(preview!.refundCents);
    const [after] = await database.db.select().from(memberships);
    expect(after).toMatchObject({ status: "canceled", minutesAvailable: 0 });
    const [visit] = await database.db
      .select()
      .from(appointments)
      .where(eq(appointments.id, future.appointment.id));
    expect(visit.status).toBe("canceled");
    const cancelMail = (await mails()).find((mail) => mail.attachments?.length);
    expect(cancelMail?.attachments?.[0].content).toContain("METHOD:CANCEL");
    const canceledMail = (await mails()).find((mail) =>
      mail.subject.includes("membership is canceled"),
    );
    // The e-mail says the dialog's lines (ADR 058).
    expect(canceledMail?.text).toContain(
      `60-day guarantee, membership charges refunded: $${(preview!.refundCents / 100).toFixed(2)}`,
    );
    expect(canceledMail?.text).toContain(preview!.settlement.resultLabel);
    expect(cancelMail?.attachments?.[0].content).toContain(
      `UID:appointment-${future.appointment.id}@peachtree-handyman`,
    );
    await expect(
      cancelMembership({ membershipId: m.id }, { id: staff.id, isEmployee: true }),
    ).rejects.toThrow("already canceled");
  });

  it("after the guarantee refunds unused paid hours at the hourly rate, rounded down", async () => {
    const { staff, member, home } = await people();
    const m = await startMembership(
      {
        customerId: member.id,
        plan: "complete",
        billing: "annual",
        startDate: addDays(today, -61),
      },
      staff.id,
    );
    const { appointment } = await book(home, { date: today, start: "00:00", end: "01:45" });
    await finish(staff.id, appointment.id, 60);
    const preview = await previewCancellation(m.id);
    expect(preview).toMatchObject({ rule: "unused_hours", minutesRefunded: 2_520 - 60 });
    expect(preview?.refundCents).toBe(refundForUnusedMinutes(m, 2_460));
    // A member cannot cancel someone else's membership.
    const stranger = await people();
    await expect(
      cancelMembership(
        { membershipId: m.id, customerId: stranger.member.id },
        { id: stranger.member.id, isEmployee: false },
      ),
    ).rejects.toThrow("not found");
    await cancelMembership({ membershipId: m.id }, { id: staff.id, isEmployee: true });
    const ledger = await database.db
      .select()
      .from(membershipMinutesLedger)
      .where(
        and(
          eq(membershipMinutesLedger.membershipId, m.id),
          eq(membershipMinutesLedger.kind, "refund"),
        ),
      );
    expect(ledger[0].minutes).toBe(-2_460);
    const [refund] = await database.db
      .select()
      .from(membershipMoneyLedger)
      .where(eq(membershipMoneyLedger.kind, "refund"));
    expect(-refund.amountCents).toBe(preview!.refundCents);
  });
});

// PGlite is single-user: concurrency is proven on PostgreSQL (TEST_DB=postgres).
describe.runIf(testDatabaseKind() === "postgres")("concurrency (PostgreSQL)", () => {
  it("20 parallel bookings against a bank with room for 3: exactly 3 succeed", async () => {
    const { staff, member, home } = await people();
    const m = await startMembership(
      { customerId: member.id, plan: "total", billing: "monthly", startDate: today },
      staff.id,
    );
    // Total's first month buys 420 minutes, and a visit this month may book a month ahead
    // (ADR 057): 840. Visits next month take 525, leaving room for three 1 h 45 min visits
    // this month, within the allowance of 4 a month.
    await book(home, { date: addDays(today, 40), start: "09:00", end: "12:30" });
    await book(home, { date: addDays(today, 41), start: "09:00", end: "12:30" });
    await book(home, { date: addDays(today, 42), start: "09:00", end: "10:45" });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => book(home, { date: today, start: "13:00", end: "14:45" })),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter(
      (r) => r.status === "rejected" && r.reason instanceof VisitSpendRefusedError,
    );
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(17);
    const [after] = await database.db.select().from(memberships).where(eq(memberships.id, m.id));
    expect(after.minutesAvailable).toBe(-420);
    expect(await database.db.$count(appointments)).toBe(6);
    const ledger = await database.db
      .select()
      .from(membershipMinutesLedger)
      .where(eq(membershipMinutesLedger.kind, "reserve"));
    expect(ledger.map((e) => e.balanceAfter).sort((a, b) => a - b)).toEqual([
      -420, -315, -210, -105, 0, 210,
    ]);
  });
});

describe("demo data", () => {
  it("puts the demo visits on business days inside working hours, whatever day it is made on (issue 32)", async () => {
    const { seedDemo } = await import("../../server/seed/demo");
    const { workingWeek } = await import("~/features/availability/staff-availability.server");
    const calendar = closedDays();
    // Each day of the coming week, and the eve of the next Thanksgiving (its +3 is a Saturday
    // after two closed days).
    const today = businessToday();
    const year = Number(today.slice(0, 4));
    const thanksgiving = [year, year + 1]
      .flatMap((y) => defaultClosedDays(y))
      .find((d) => d.name === "Thanksgiving Day" && d.date >= today)!.date;
    const days = [...Array.from({ length: 7 }, (_, i) => addIsoDays(today, i))];
    days.push(addIsoDays(thanksgiving, -1));
    for (const day of days) {
      await database.db.execute(sql`truncate "user", outbox cascade`);
      await seedDemo(database.db, day);
      const visits = await database.db.execute<{
        scheduled_date: string;
        start_time: string;
        end_time: string;
        assigned_employee_id: string;
      }>(
        sql`select scheduled_date::text, start_time::text, end_time::text, assigned_employee_id from appointments order by scheduled_date`,
      );
      // The past visit, then the handyman's: on the day made (or the next business day) and after
      // (four visits and a lead's walk-thru).
      expect(visits.rows).toHaveLength(6);
      const [past, ...coming] = visits.rows;
      expect(past.scheduled_date < day).toBe(true);
      expect(coming.every((v) => v.scheduled_date >= day)).toBe(true);
      expect(coming[0].scheduled_date).toBe(
        isBusinessDay(day, calendar) ? day : coming[0].scheduled_date,
      );
      for (const visit of visits.rows) {
        const where = `${visit.scheduled_date} (demo made on ${day})`;
        expect(isBusinessDay(visit.scheduled_date, calendar), where).toBe(true);
        const hours = (await workingWeek(visit.assigned_employee_id))[
          weekday(visit.scheduled_date)
        ];
        expect(hours, where).not.toBeNull();
        expect(minuteOfDay(visit.start_time)).toBeGreaterThanOrEqual(hours!.start);
        expect(minuteOfDay(visit.end_time)).toBeLessThanOrEqual(hours!.end);
      }
    }
  }, 120_000);

  it("Maria is an active Complete member with hours used, a part to approve and a statement", async () => {
    const { seedDemo, DEMO_LOGINS } = await import("../../server/seed/demo");
    await seedDemo(database.db);
    const [maria] = await database.db
      .execute<{ id: string }>(sql`select id from "user" where email = ${DEMO_LOGINS[1].email}`)
      .then((r) => r.rows);
    const [james] = await database.db
      .execute<{ id: string }>(sql`select id from "user" where email = ${DEMO_LOGINS[2].email}`)
      .then((r) => r.rows);
    const summary = await memberBankSummary(maria.id);
    expect(summary).toMatchObject({ status: "active", planName: "Complete Home Care" });
    // Four months charged (840 min), 1 h 30 min used, 3 h 30 min reserved for the coming visit.
    expect(summary!.minutesLeft).toBeLessThan(summary!.minutesPerYear);
    expect((await membershipCounters()).partsAwaitingApproval).toBe(1);
    const statement = await membershipStatement(summary!.membershipId);
    expect(statement.some((e) => e.kind === "payment")).toBe(true);
    expect(statement.some((e) => e.kind === "shopping_fee")).toBe(true);
    expect(await memberBankSummary(james.id)).toBeNull();
  });
});
