import { sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import type { Period } from "./period";
import { reportContext } from "./report-context.server";
import { membersSection } from "./members.server";
import { readMoney, revenueSection } from "./money.server";
import { hoursSection, readCompletedVisits } from "./hours.server";
import { utilizationSection } from "./utilization.server";
import { salesSection } from "./sales.server";
import { partsSection } from "./parts.server";
import { twoHandymenSection } from "./two-handymen.server";
import type { OwnerReport } from "./report-types";
import { careTables } from "./care.server";
import { keptWhileUnchanged } from "./report-cache.server";
import { businessToday } from "~/lib/business-calendar";

export type * from "./report-types";

/*
 * The owner's numbers (issue 30), read from the ledgers: the memberships' start and cancel
 * days, the money ledger (charges, refunds, corrections), the hours ledger (accruals,
 * reservations, returns, refunds, corrections), the visits, parts, leads and intro calls. Every
 * figure is an integer of cents or minutes until the page formats it; "to the cent and the
 * minute" (tests/integration/reports.test.ts builds a known history and checks each).
 *
 * A ledger entry counts on the day the member's statement shows it (ADR 082): a charge, a
 * payment and the hours bought on their billing period's first day, a visit's entries (its
 * reservation, time, extra charge, parts, fee) and the visit itself on the visit's day, a
 * cancel's credit on the cancel's day, a refund paid out on the day it was paid, never the day
 * an entry happened to be posted.
 *
 * One query function per section, each in its own module (members, churn and recurring revenue;
 * revenue, payments and refunds; prepaid hours; utilization; sales; parts; two handymen), all
 * started at once:
 * on PostgreSQL they run side by side on the pool's connections, on PGlite in turn on its one
 * session. The two reads that feed two sections (the money ledger's months, the completed
 * visits) are read once and handed to both.
 */

/**
 * Moves what the ledgers' triggers added since the last time (report_*_day_deltas, ADR 070 and
 * 082) into the daily summaries: each move deletes the rows it adds, so two at once add each row once,
 * and takes the summary rows in (month, kind) order, so they never deadlock. Ledger writers
 * only insert deltas and never wait for this; the page reads days and deltas together, so a
 * move that fails or has not happened yet changes no figure.
 */
export async function foldLedgerDeltas(database: DbOrTx) {
  await database.execute(sql`
    with moved as (delete from report_money_day_deltas returning day, kind, cents, entries)
    insert into report_money_days as s (day, kind, cents, entries)
    select day, kind, sum(cents), sum(entries) from moved group by 1, 2 order by 1, 2
    on conflict (day, kind) do update
    set cents = s.cents + excluded.cents, entries = s.entries + excluded.entries`);
  await database.execute(sql`
    with moved as (delete from report_hours_day_deltas returning day, kind, minutes, entries)
    insert into report_hours_days as s (day, kind, minutes, entries)
    select day, kind, sum(minutes), sum(entries) from moved group by 1, 2 order by 1, 2
    on conflict (day, kind) do update
    set minutes = s.minutes + excluded.minutes, entries = s.entries + excluded.entries`);
}

/** The owner's report for a period, as the reports page and its CSV files show it. */
export async function ownerReport(
  period: Pick<Period, "from" | "to">,
  options: { now?: Date; database?: DbOrTx } = {},
): Promise<OwnerReport> {
  const context = reportContext(period, options.database ?? db(), options.now ?? new Date());
  await foldLedgerDeltas(context.database);
  const money = readMoney(context);
  const visits = readCompletedVisits(context);
  const members = membersSection(context);
  // Every section's promise is awaited together, so one that fails fails the report at once
  // rather than leaving the others' rejections unhandled.
  const [memberFigures, revenue, hours, handymen, sales, parts, twoHandymen] = await Promise.all([
    members,
    money.then((rows) => revenueSection(context, rows)),
    hoursSection(context, visits),
    utilizationSection(context, visits),
    salesSection(context, members),
    partsSection(context, money),
    twoHandymenSection(context, money),
  ]);
  return {
    period: { from: period.from, to: period.to },
    asOf: context.asOf,
    members: { ...memberFigures, ...revenue },
    hours,
    handymen,
    sales,
    parts,
    twoHandymen,
  };
}

/**
 * What the reports page shows for a period: the owner's report and the care tables (ADR 088),
 * computed together and kept while the database is unchanged (report-cache.server.ts, ADR 092).
 */
export async function reportsPageFigures(
  period: Period,
  options: { now?: Date; database?: DbOrTx } = {},
) {
  const database = options.database ?? db();
  const now = options.now ?? new Date();
  const key = `${period.from}..${period.to} as of ${businessToday(now)}`;
  return keptWhileUnchanged(database, key, async () => {
    const [report, care] = await Promise.all([
      ownerReport(period, { now, database }),
      careTables(period, database),
    ]);
    return { report, care };
  });
}
