import { sql } from "drizzle-orm";
import { rowsOf } from "~/db/rows";
import { ts, type ReportContext } from "./report-context.server";
import type { MembersMonth, SalesMonth } from "./report-types";

/**
 * The sales section: each month's leads, intro calls, walk-thrus booked and not canceled (ADR
 * 061), membership offers sent (issue 27), beside the month's new members.
 */
export async function salesSection(
  context: ReportContext,
  members: Promise<{ months: MembersMonth[] }>,
): Promise<{ months: SalesMonth[] }> {
  const { database, from, until, monthNumber, monthAt } = context;
  const inPeriod = sql`created_at >= ${ts(from)} and created_at < ${ts(until)}`;
  const month = monthNumber(sql`created_at`);
  const [rows, { months: memberMonths }] = await Promise.all([
    database.execute(sql`
      select 'lead' as what, ${month} as month, count(*)::int as n
        from lead_entries where ${inPeriod} group by 2
      union all
      select 'call', ${month}, count(*)::int
        from intro_calls where ${inPeriod} group by 2
      union all
      select 'walk-thru', ${month}, count(*)::int
        from appointments where kind = 'walk_thru' and status <> 'canceled'
          and ${inPeriod} group by 2
      union all
      select 'offer', ${month}, count(*)::int
        from membership_offers where ${inPeriod} group by 2`),
    members,
  ]);
  const sales = rowsOf<{ what: string; month: number; n: number }>(rows).map((r) => ({
    ...r,
    month: monthAt(r.month),
  }));
  const count = (what: string, month: string) =>
    sales.find((r) => r.what === what && r.month === month)?.n ?? 0;
  return {
    months: context.months.map((b, i) => ({
      month: b.month,
      leads: count("lead", b.month),
      introCalls: count("call", b.month),
      walkThrus: count("walk-thru", b.month),
      offers: count("offer", b.month),
      newMembers: memberMonths[i].newMembers,
    })),
  };
}
