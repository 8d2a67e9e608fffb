import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodFrom } from "~/features/reports";
import { foldLedgerDeltas, ownerReport } from "~/features/reports/reports.server";
import { addDays, zonedInstant, type IsoDate } from "~/lib/business-calendar";
import { seedBench } from "../../server/seed/bench";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../support/test-database";

/*
 * The ledgers' daily summaries (ADR 070, ADR 082) against a recomputation from the ledgers
 * themselves, each entry on the day its statement shows (a billing period's first day, the
 * k-th charge's period for the k-th accrual, the visit's day, the cancel's day for its credit,
 * else the business day it was written), after a mixed history: two years of members joining,
 * paying, booking, canceling visits and memberships with refunds (the bench seed at a small
 * size, its entries back-dated in bulk inserts), then corrections and refunds posted across
 * month ends in single statements, around the business time zone's midnight, visits moved to
 * other days and cancels' days changed after their entries. Also the migration's backfill, and
 * the hours owed at past days read from the ledger since that day against the whole ledger up
 * to it.
 */

const TODAY: IsoDate = "2026-11-20";
const NOW = zonedInstant(TODAY, 14 * 60);
let database: TestDatabase;

type Row = Record<string, unknown>;
const rows = async (query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: Row[] }).rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, typeof v === "object" ? v : String(v)]),
    ),
  );

/** The summaries as the page reads them: the days and the deltas not yet moved into them. */
const summaries = () =>
  Promise.all([
    rows(sql`select day::text as day, kind::text as kind, sum(cents)::bigint as total,
        sum(entries)::int as n
      from (select day, kind, cents, entries from report_money_days
            union all select day, kind, cents, entries from report_money_day_deltas) s
      group by 1, 2 having sum(entries) <> 0 or sum(cents) <> 0 order by 1, 2`),
    rows(sql`select day::text as day, kind::text as kind, sum(minutes)::bigint as total,
        sum(entries)::int as n
      from (select day, kind, minutes, entries from report_hours_days
            union all select day, kind, minutes, entries from report_hours_day_deltas) s
      group by 1, 2 having sum(entries) <> 0 or sum(minutes) <> 0 order by 1, 2`),
  ]);

const deltaCount = async () => {
  const [row] = await rows(sql`select (select count(*) from report_money_day_deltas)
    + (select count(*) from report_hours_day_deltas) as n`);
  return Number(row.n);
};

/** Each ledger entry with the day its statement shows (membershipStatement's rule). */
const moneyDays = sql`(select l.*, coalesce(l.period_start, a.scheduled_date,
    case when l.kind = 'refund' then m.canceled_on end,
    (l.created_at at time zone 'America/New_York')::date) as day
  from membership_money_ledger l
  left join appointments a on a.id = l.appointment_id
  left join memberships m on m.id = l.membership_id)`;
const hoursDays = sql`(select l.*, coalesce(c.period_start, a.scheduled_date,
    case when l.kind = 'refund' then m.canceled_on end,
    (l.created_at at time zone 'America/New_York')::date) as day
  from membership_minutes_ledger l
  left join (select id, membership_id, row_number() over (partition by membership_id order by seq) k
    from membership_minutes_ledger where kind = 'accrual') r on r.id = l.id
  left join (select membership_id, period_start, row_number() over (partition by membership_id order by seq) k
    from membership_money_ledger where kind = 'membership_charge') c
    on c.membership_id = r.membership_id and c.k = r.k
  left join appointments a on a.id = l.appointment_id
  left join memberships m on m.id = l.membership_id)`;

const recomputed = () =>
  Promise.all([
    rows(sql`select day::text as day, kind::text as kind, sum(amount_cents)::bigint as total,
        count(*)::int as n
      from ${moneyDays} l group by 1, 2 order by 1, 2`),
    rows(sql`select day::text as day, kind::text as kind, sum(minutes)::bigint as total,
        count(*)::int as n
      from ${hoursDays} l group by 1, 2 order by 1, 2`),
  ]);

beforeAll(async () => {
  database = await createTestDatabase();
  await seedBench(database.db, { today: TODAY, members: 60, handymen: 3, years: 2, seed: 7 });
  // Corrections and refunds in single statements spanning months, back-dated to a minute either
  // side of midnight in New York on the first of a month (05:00 UTC in winter, 04:00 in summer).
  await database.db.execute(sql`
    insert into membership_minutes_ledger (membership_id, kind, minutes, balance_after, appointment_id, note, created_at)
    select v.membership_id, 'correction', case when n % 2 = 0 then 15 else -30 end, 0, v.appointment_id,
      'Time worked corrected',
      case n % 4
        when 0 then '2026-03-01T04:59:00Z'::timestamptz
        when 1 then '2026-03-01T05:01:00Z'::timestamptz
        when 2 then '2026-07-01T03:59:00Z'::timestamptz
        else '2026-07-01T04:01:00Z'::timestamptz end
    from (select appointment_id, membership_id, row_number() over (order by appointment_id) as n
          from membership_visits where status = 'completed' limit 12) v`);
  // The banks follow their ledger, as every writer of the ledger keeps them (ADR 012).
  await database.db.execute(sql`
    update memberships m set minutes_available = m.minutes_available + c.minutes
    from (select membership_id, sum(minutes)::int as minutes from membership_minutes_ledger
          where kind = 'correction' group by 1) c
    where c.membership_id = m.id`);
  await database.db.execute(sql`
    insert into membership_money_ledger (membership_id, kind, amount_cents, balance_after, description, created_at)
    select id, k.kind::membership_money_kind, k.cents, 0, 'Adjustment', k.at
    from (select id from memberships order by id limit 5) m,
      (values ('refund', -1234, '2025-12-01T04:59:59Z'::timestamptz),
              ('refund', -66, '2025-12-01T05:00:00Z'::timestamptz),
              ('correction', 999, '2026-10-31T23:30:00Z'::timestamptz),
              ('correction', -1, '2026-11-01T03:59:00Z'::timestamptz)) k(kind, cents, at)`);
  // Booked visits moved to another day after their reservations were written (their entries
  // move with them; a completed visit cannot move), one of them twice.
  await database.db.execute(sql`
    update appointments a set scheduled_date = '2027-12-31'::date + t.n
    from (select appointment_id, (row_number() over (order by appointment_id))::int * 3 as n
          from membership_visits where status = 'reserved' order by appointment_id limit 10) t
    where a.id = t.appointment_id and a.status = 'booked'`);
  await database.db.execute(sql`
    update appointments set scheduled_date = scheduled_date - 40
    where status = 'booked' and id = (select appointment_id from membership_visits
                 where status = 'reserved' order by appointment_id limit 1)`);
  // Cancels' days changed after their credits were written.
  await database.db.execute(sql`
    update memberships set canceled_on = canceled_on + 9
    where id in (select membership_id from membership_money_ledger where kind = 'refund'
                 and period_start is null order by membership_id limit 4)
      and canceled_on is not null`);
}, 120_000);

afterAll(async () => {
  await database?.drop();
});

describe(`the reports' monthly summaries (${testDatabaseKind()})`, () => {
  it("equal the ledgers grouped by statement day and kind, to the cent and the minute", async () => {
    const [money, hours] = await summaries();
    const [moneyFromLedger, hoursFromLedger] = await recomputed();
    expect(moneyFromLedger.length).toBeGreaterThan(40);
    expect(hoursFromLedger.some((r) => r.kind === "correction")).toBe(true);
    expect(moneyFromLedger.some((r) => r.kind === "refund")).toBe(true);
    expect(money).toEqual(moneyFromLedger);
    expect(hours).toEqual(hoursFromLedger);
    // The page moves the deltas into the months; the sums stay the ledgers'.
    expect(await deltaCount()).toBeGreaterThan(0);
    await foldLedgerDeltas(database.db);
    await foldLedgerDeltas(database.db);
    expect(await deltaCount()).toBe(0);
    expect(await summaries()).toEqual([moneyFromLedger, hoursFromLedger]);
    // The minute before midnight in New York (04:59 UTC on Nov 1 is 11:59 PM on Oct 31)
    // belongs to the day before, for an entry dated by when it was written.
    const [edge] = await rows(sql`select cents::bigint as total from report_money_days
      where day = '2026-10-31' and kind = 'correction'`);
    expect(Number(edge.total)).toBe(5 * (999 - 1));
  });

  it("are filled from the existing ledgers by the migration", async () => {
    const migration = fs
      .readdirSync(path.resolve("drizzle"))
      .find((f) => f.endsWith("_report_months.sql"))!;
    const backfill = fs
      .readFileSync(path.resolve("drizzle", migration), "utf8")
      .split("--> statement-breakpoint")
      .filter((s) => /^\s*INSERT INTO "report_(money|hours)_days"/m.test(s) && !/FUNCTION/.test(s));
    expect(backfill).toHaveLength(2);
    for (const table of [
      "report_money_days",
      "report_money_day_deltas",
      "report_hours_days",
      "report_hours_day_deltas",
    ]) {
      await database.db.execute(sql.raw(`delete from ${table}`));
    }
    for (const statement of backfill) await database.db.execute(sql.raw(statement));
    expect(await summaries()).toEqual(await recomputed());
  });

  it("give the page the ledgers' figures for cut months, and the hours owed at past days", async () => {
    for (const [from, to] of [
      ["2025-02-14", "2026-11-20"],
      ["2026-02-28", "2026-07-01"],
      ["2026-10-01", "2026-10-31"],
      ["2025-12-01", "2025-12-01"],
    ] as const) {
      const period = periodFrom(new URLSearchParams({ period: "custom", from, to }), TODAY);
      const report = await ownerReport(period, { now: NOW, database: database.db });
      const end = zonedInstant(addDays(to, 1), 0).toISOString();
      const [money] = await rows(sql`select
          coalesce(sum(amount_cents) filter (where kind not in ('payment', 'refund_paid')), 0)::bigint as net,
          coalesce(sum(amount_cents) filter (where kind = 'refund'), 0)::bigint as credits,
          coalesce(sum(amount_cents) filter (where kind = 'payment'), 0)::bigint as payments,
          coalesce(sum(amount_cents) filter (where kind = 'refund_paid'), 0)::bigint as paid_out
        from ${moneyDays} l where day >= ${from}::date and day <= ${to}::date`);
      const total = report.members.revenueTotal;
      expect(String(total.creditCents)).toBe(String(-Number(money.credits)));
      expect(String(total.netCents)).toBe(String(money.net));
      expect(String(total.paymentCents)).toBe(String(-Number(money.payments)));
      expect(String(total.refundCents)).toBe(String(money.paid_out));
      const [hours] = await rows(sql`select
          coalesce(sum(minutes) filter (where kind = 'accrual'), 0)::bigint as sold,
          coalesce(sum(minutes) filter (where kind = 'refund'), 0)::bigint as refunded
        from ${hoursDays} l where day >= ${from}::date and day <= ${to}::date`);
      const months = report.hours.months;
      expect(String(months.reduce((t, m) => t + m.soldMinutes, 0))).toBe(String(hours.sold));
      expect(String(months.reduce((t, m) => t + m.refundedMinutes, 0))).toBe(
        String(-Number(hours.refunded)),
      );
      // The hours owed at the end of the period (now, for one running to today), by ADR 063's
      // definition over the whole ledger up to that instant.
      const at = to < TODAY ? end : NOW.toISOString();
      const owed = await rows(sql`select m.plan, sum(l.minutes)::bigint as minutes,
          round(sum(l.minutes::numeric * m.monthly_price_cents * 12 / m.minutes_per_year))::bigint as cents
        from membership_minutes_ledger l
        join memberships m on m.id = l.membership_id
        left join membership_visits v on v.appointment_id = l.appointment_id
        where l.created_at < ${at}::timestamptz
          and (l.appointment_id is null or v.completed_at < ${at}::timestamptz)
        group by m.plan`);
      for (const plan of report.hours.owed) {
        const row = owed.find((r) => r.plan === plan.plan);
        expect([plan.plan, plan.minutes, plan.valueCents]).toEqual([
          plan.plan,
          Number(row?.minutes ?? 0),
          Number(row?.cents ?? 0),
        ]);
      }
      expect(report.hours.owedMinutes).toBeGreaterThan(0);
    }
  });
  it("are emptied with their ledger (a reset truncating the users and what hangs on them)", async () => {
    await database.db.execute(sql`truncate "user" cascade`);
    expect(await summaries()).toEqual([[], []]);
    expect(await recomputed()).toEqual([[], []]);
  });
});
