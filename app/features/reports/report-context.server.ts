import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import {
  addDays,
  addMonths,
  businessToday,
  calendarMonth,
  zonedInstant,
  type IsoDate,
} from "~/lib/business-calendar";
import type { Period } from "./period";

/*
 * What every section of the owner's report reads by: the period, the day and instant its "as of"
 * figures are taken at, and the period's months. Days are business days (America/New_York); a
 * month is a calendar month, cut to the period at its ends. "As of" figures (active members,
 * hours owed, approvals pending) are at the end of the period, or now when the period runs on
 * past today.
 */

export type Bucket = { month: IsoDate; first: IsoDate; last: IsoDate };

export type ReportContext = {
  database: DbOrTx;
  period: Pick<Period, "from" | "to">;
  now: Date;
  /** The day the "as of" figures are for. */
  asOf: IsoDate;
  /** The period's first instant, and the instant after its last day. */
  from: Date;
  until: Date;
  /** The instant the "as of" figures are taken at: the end of the as-of day, or now. */
  asOfInstant: Date;
  asOfIsNow: boolean;
  months: Bucket[];
  /** The month of an instant, as the index of its month in `months` plus one. */
  monthNumber: (column: SQL) => SQL;
  /** The month of a business day, the same way. */
  monthOfDay: (column: SQL) => SQL;
  /** The month a summary day belongs to, as the page names months (their first day). */
  monthOf: SQL;
  /** The month of an index that monthNumber or monthOfDay gave. */
  monthAt: (n: number | string) => IsoDate | undefined;
};

function buckets(period: Pick<Period, "from" | "to">): Bucket[] {
  const list: Bucket[] = [];
  for (let m = calendarMonth(period.from).first; m <= period.to; m = addMonths(m, 1)) {
    const { last } = calendarMonth(m);
    list.push({
      month: m,
      first: m < period.from ? period.from : m,
      last: last > period.to ? period.to : last,
    });
  }
  return list;
}

export const startOf = (date: IsoDate) => zonedInstant(date, 0);
export const dateArray = (dates: IsoDate[]) =>
  sql`array[${sql.join(
    dates.map((d) => sql`${d}`),
    sql`, `,
  )}]::date[]`;
export const ts = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;

export function reportContext(
  period: Pick<Period, "from" | "to">,
  database: DbOrTx,
  now: Date,
): ReportContext {
  const today = businessToday(now);
  const until = startOf(addDays(period.to, 1));
  const months = buckets(period);
  // A search in the months' first instants (midnight in New York) rather than a time zone
  // conversion per row; days the same way, in the months' first days.
  const monthStarts = sql`array[${sql.join(
    months.map((b) => ts(startOf(b.month))),
    sql`, `,
  )}]::timestamptz[]`;
  const monthDays = dateArray(months.map((b) => b.month));
  return {
    database,
    period,
    now,
    asOf: period.to < today ? period.to : today,
    from: startOf(period.from),
    until,
    asOfInstant: period.to < today ? until : now,
    asOfIsNow: !(period.to < today),
    months,
    monthNumber: (column) => sql`width_bucket(${column}, ${monthStarts})`,
    monthOfDay: (column) => sql`width_bucket(${column}, ${monthDays})`,
    monthOf: sql`to_char(date_trunc('month', day), 'YYYY-MM-DD')`,
    monthAt: (n) => months[Number(n) - 1]?.month,
  };
}
