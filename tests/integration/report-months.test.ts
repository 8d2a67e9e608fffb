import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appointments, memberships, profiles } from "~/db/schema";
import { periodFrom } from "~/features/reports";
import { foldLedgerDeltas, ownerReport, type OwnerReport } from "~/features/reports/reports.server";
import {
  membershipStatement,
  recordPayment,
  startMembership,
  type StatementEntry,
} from "~/features/memberships/index.server";
import { cancelMembership } from "~/workflows/cancel-membership.server";
import { markRefundPaid, refundsToPay } from "~/features/payments/index.server";
import { businessToday, zonedInstant, type IsoDate, businessNow } from "~/lib/business-calendar";
import { resetEnvForTests } from "~/lib/env.server";
import { seedDemo } from "../../server/seed/demo";
import { createHome, createMemberVisit, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Issue 39, item 5: the reports count every entry in the month the member's statement shows it
 * (ADR 082), never the month it was posted in. The demo (made on Nov 27, 2026) charges Maria's
 * August, September, October and November periods and completes her October visit all on the
 * day it is made; on top of it, entries posted late and back-dated: a correction of her
 * October visit's time typed in August's clock, a money correction a minute before midnight in
 * New York on September 30 (already October in UTC), a visit booked for September 30 and moved
 * to October 1, an annual member canceled on October 20 whose credit and hours refund are
 * written on the test's real day, and the refund paid out by check. Then every month of the
 * report (whole months, single months and cut ranges) against the statements grouped by the
 * day each entry shows, kind by kind; and the demo's figures by hand.
 */

const DEMO_DAY: IsoDate = "2026-11-27";
let database: TestDatabase;
let dataDir: string;
let maria: string;
let ben: string;
let lastDay: IsoDate;

const month = (day: string) => `${day.slice(0, 7)}-01`;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "report-months-"));
  Object.assign(process.env, { DATA_DIR: dataDir, BUSINESS_EMAIL: "office@example.com" });
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  resetEnvForTests();
  database = await useTestDatabase();
  await seedDemo(database.db, DEMO_DAY);
  const [m] = await database.db.select().from(memberships);
  maria = m.id;
  const [staff] = await database.db
    .select({ id: profiles.userId })
    .from(profiles)
    .where(eq(profiles.isEmployee, true))
    .limit(1);

  // Back-dated: a correction of the October visit's time (+15 minutes worked) written with an
  // August clock, and a money correction at 11:59 PM on September 30 in New York.
  const [october] = await database.db
    .execute(
      sql`
    select a.id from appointments a join membership_visits v on v.appointment_id = a.id
    where v.status = 'completed' limit 1`,
    )
    .then((r) => (r as unknown as { rows: { id: string }[] }).rows);
  await database.db.execute(sql`
    insert into membership_minutes_ledger (membership_id, kind, minutes, balance_after, appointment_id, note, created_at)
    values (${maria}, 'correction', -15, 0, ${october.id}, 'Time worked corrected', '2026-08-05T15:00:00Z')`);
  await database.db.execute(sql`
    insert into membership_money_ledger (membership_id, kind, amount_cents, balance_after, description, created_at)
    values (${maria}, 'correction', 1234, 0, 'Adjustment', ${zonedInstant("2026-09-30", 23 * 60 + 59).toISOString()}::timestamptz)`);

  // A visit booked for September 30, then moved to October 1: its block belongs to October.
  const mariaHome = await database.db.execute(sql`select id, customer_id as "customerId" from homes
    where customer_id = (select customer_id from memberships where id = ${maria})`);
  const home = (mariaHome as unknown as { rows: { id: string; customerId: string }[] }).rows[0];
  const moved = await createMemberVisit(database.db, home, {
    today: "2026-09-01",
    scheduledDate: "2026-09-30",
    startTime: "13:00",
    endTime: "14:45",
    createdBy: staff.id,
    tasks: ["Hang a shelf"],
  });
  await database.db
    .update(appointments)
    .set({ scheduledDate: "2026-10-01" })
    .where(eq(appointments.id, moved.appointment.id));

  // Ben: Essential, annual, from September 3, canceled on October 20 inside the guarantee; the
  // cancel's entries are written today (the test's real clock), dated October 20; the refund
  // is then paid out by check, on the day it is paid.
  const benUser = await createUser(database.db, {
    email: "ben-months@example.com",
    password: "Member-pass-2026!",
    firstName: "Ben",
    lastName: "Late",
  });
  await createHome(database.db, benUser.id);
  const started = await startMembership(
    { customerId: benUser.id, plan: "essential", billing: "annual", startDate: "2026-09-03" },
    staff.id,
    { today: "2026-09-03", notify: false },
  );
  ben = started.id;
  await recordPayment(
    { membershipId: ben, amountCents: 210_000, method: "check", reference: "Check 11" },
    staff.id,
  );
  await cancelMembership(
    { membershipId: ben },
    { id: staff.id, isEmployee: true },
    businessNow(zonedInstant("2026-10-20", 16 * 60)),
  );
  const [owed] = await refundsToPay();
  await markRefundPaid({ refundId: owed.id, method: "check", reference: "Check 12" }, staff.id);

  const today = businessToday();
  lastDay = today > "2026-11-30" ? today : "2026-11-30";
}, 120_000);

afterAll(async () => {
  delete process.env.DATA_DIR;
  delete process.env.BUSINESS_EMAIL;
  resetEnvForTests();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The statements' entries, each in the month of the day it shows, summed by kind. */
async function statementMonths(from: IsoDate, to: IsoDate) {
  const entries: StatementEntry[] = [
    ...(await membershipStatement(maria)),
    ...(await membershipStatement(ben)),
  ].filter((e) => e.on >= from && e.on <= to);
  const sums = new Map<string, number>();
  for (const e of entries) {
    const key = `${month(e.on)} ${e.ledger} ${e.kind}`;
    sums.set(key, (sums.get(key) ?? 0) + (e.amountCents ?? e.minutes ?? 0));
  }
  return (m: IsoDate, ledger: "money" | "hours", kind: string) =>
    sums.get(`${m} ${ledger} ${kind}`) ?? 0;
}

/** The completed visits' days and time worked as recorded at completion. */
async function completedVisits(from: IsoDate, to: IsoDate) {
  const result = await database.db.execute(sql`
    select a.scheduled_date::text as day, v.is_extra as extra,
      v.minutes_worked as worked
    from membership_visits v join appointments a on a.id = v.appointment_id
    where v.status = 'completed' and a.scheduled_date between ${from}::date and ${to}::date`);
  return (result as unknown as { rows: { day: string; extra: boolean; worked: number }[] }).rows;
}

async function compare(report: OwnerReport) {
  const { from, to } = report.period;
  const of = await statementMonths(from, to);
  const visits = await completedVisits(from, to);
  for (const r of report.members.revenue) {
    expect(r.membershipCents).toBe(of(r.month, "money", "membership_charge"));
    expect(r.extraVisitCents).toBe(of(r.month, "money", "extra_visit"));
    expect(r.partsCents).toBe(of(r.month, "money", "part"));
    expect(r.shoppingFeeCents).toBe(of(r.month, "money", "shopping_fee"));
    expect(r.correctionCents).toBe(of(r.month, "money", "correction"));
    expect(r.creditCents).toBe(0 - of(r.month, "money", "refund"));
    expect(r.paymentCents).toBe(0 - of(r.month, "money", "payment"));
    expect(r.refundCents).toBe(of(r.month, "money", "refund_paid"));
  }
  for (const h of report.hours.months) {
    const worked = visits
      .filter((v) => month(v.day) === h.month && !v.extra)
      .reduce((t, v) => t + Number(v.worked), 0);
    expect(h.soldMinutes).toBe(of(h.month, "hours", "accrual"));
    expect(h.refundedMinutes).toBe(0 - of(h.month, "hours", "refund"));
    expect(h.reservedMinutes).toBe(
      0 - of(h.month, "hours", "reserve") - of(h.month, "hours", "release"),
    );
    // Worked on the month's visits as recorded at completion, less the corrections the
    // statement shows in the month (a visit's with the visit, whenever written).
    expect(h.usedMinutes).toBe(worked - of(h.month, "hours", "correction"));
  }
  expect(report.hours.completedVisits).toBe(visits.length);
}

describe("the reports' months are the statement's (issue 39, item 5)", () => {
  it("puts the demo member's August-October charges, hours and visit in August-October", async () => {
    const statement = await membershipStatement(maria);
    expect(
      statement
        .filter((e) => e.kind === "membership_charge")
        .map((e) => e.on)
        .sort(),
    ).toEqual(["2026-08-19", "2026-09-19", "2026-10-19", "2026-11-19"]);
    const period = periodFrom(
      new URLSearchParams({ period: "custom", from: "2026-08-01", to: "2026-11-30" }),
      DEMO_DAY,
    );
    const report = await ownerReport(period, { now: zonedInstant(DEMO_DAY, 14 * 60) });
    const rev = Object.fromEntries(report.members.revenue.map((r) => [r.month, r]));
    for (const m of ["2026-08-01", "2026-10-01", "2026-11-01"]) {
      expect(rev[m].membershipCents).toBe(29_500);
    }
    const hours = Object.fromEntries(report.hours.months.map((h) => [h.month, h]));
    // Complete Home Care: 2,520 minutes a year, 210 a month, each with its period; Ben's
    // annual 1,050 minutes in September.
    expect(hours["2026-08-01"].soldMinutes).toBe(210);
    expect(hours["2026-09-01"].soldMinutes).toBe(210 + 1_050);
    expect(hours["2026-10-01"].soldMinutes).toBe(210);
    // The October visit (Oct 28 on her statement): 90 minutes worked, +15 by the correction.
    expect(hours["2026-10-01"].usedMinutes).toBe(105);
    expect(hours["2026-11-01"].usedMinutes).toBe(0);
    // Its part and fee with it in October, not in November when they were written.
    expect(rev["2026-10-01"].partsCents).toBe(2_450);
    expect(rev["2026-10-01"].shoppingFeeCents).toBe(1_000);
    // The correction at 11:59 PM on September 30 in New York: September.
    expect(rev["2026-09-01"].correctionCents).toBe(1_234);
    // Ben's cancel on October 20: the credit netted then is October's, shown apart from the
    // refund paid out (on the day it was paid); his $2,100 charge is September's.
    expect(rev["2026-09-01"].membershipCents).toBe(29_500 + 210_000);
    expect(rev["2026-10-01"].creditCents).toBe(210_000);
    // The refund was paid out today (the test's real day): in this range's report when today is
    // in it, otherwise in the report of today's month (the moved-clock runs).
    const payDay = businessToday();
    const paidReport =
      payDay <= "2026-11-30"
        ? report
        : await ownerReport(
            periodFrom(
              new URLSearchParams({
                period: "custom",
                from: `${payDay.slice(0, 8)}01`,
                to: payDay,
              }),
              payDay,
            ),
          );
    const paidOut = paidReport.members.revenueTotal.refundCents;
    expect(paidOut).toBeGreaterThan(0);
    expect(paidOut).toBeLessThanOrEqual(210_000);
    const oct = await ownerReport(
      periodFrom(
        new URLSearchParams({ period: "custom", from: "2026-10-01", to: "2026-10-31" }),
        DEMO_DAY,
      ),
      { now: zonedInstant(DEMO_DAY, 14 * 60) },
    );
    expect(oct.hours.completedVisits).toBe(1);
    // The moved visit's 105-minute block: October's, none left in September.
    expect(oct.hours.months[0].reservedMinutes).toBeGreaterThanOrEqual(105);
    const sep = await ownerReport(
      periodFrom(
        new URLSearchParams({ period: "custom", from: "2026-09-01", to: "2026-09-30" }),
        DEMO_DAY,
      ),
      { now: zonedInstant(DEMO_DAY, 14 * 60) },
    );
    expect(sep.hours.months[0].reservedMinutes).toBe(0);
  });

  it("agrees with the statements month by month and kind by kind, for any range", async () => {
    const now = new Date();
    const ranges: [IsoDate, IsoDate][] = [
      ["2026-08-01", lastDay],
      ["2026-08-19", "2026-08-19"],
      ["2026-09-15", "2026-10-20"],
      ["2026-10-01", "2026-10-31"],
      ["2026-11-01", lastDay],
    ];
    for (const [from, to] of ranges) {
      const period = periodFrom(new URLSearchParams({ period: "custom", from, to }), lastDay);
      await compare(await ownerReport(period, { now }));
    }
    // The same once the deltas are moved into the daily summaries, and again when nothing moved.
    await foldLedgerDeltas(database.db);
    await foldLedgerDeltas(database.db);
    for (const [from, to] of ranges) {
      const period = periodFrom(new URLSearchParams({ period: "custom", from, to }), lastDay);
      await compare(await ownerReport(period, { now }));
    }
  });
});
