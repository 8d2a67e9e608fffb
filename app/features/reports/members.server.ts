import { sql } from "drizzle-orm";
import { rowsOf } from "~/db/rows";
import { PLANS, type PlanId } from "~/content/plans";
import { dateArray, type ReportContext } from "./report-context.server";
import type { MembersMonth, OwnerReport, PlanBilling } from "./report-types";

type MemberRow = {
  what: "month" | "plan";
  i: number | null;
  plan: PlanId | null;
  planName: string | null;
  billing: "monthly" | "annual" | null;
  activeAtStart: number;
  newMembers: number | null;
  canceled: number | null;
  cents: string | number;
};

/**
 * The members, their churn and the recurring revenue, counted by the database: a row per month
 * and one per plan and billing (a read of every membership, 2,000 rows on the bench data, cost
 * the page more CPU than the rest of it: ADR 077). A membership is active on a day from its
 * start until the day it was canceled on.
 */
async function readMembers({ database, period, months, asOf }: ReportContext) {
  return rowsOf<MemberRow>(
    await database.execute(sql`
      with m as (select * from memberships where start_date <= ${period.to}::date),
      b as (
        select * from unnest(
          ${dateArray(months.map((b) => b.first))},
          ${dateArray(months.map((b) => b.last))},
          ${dateArray(months.map((b) => (b.last < asOf ? b.last : asOf)))}
        ) with ordinality as b(first, last, end_day, i)
      )
      select 'month' as what, b.i::int as i, null as plan, null as "planName", null as billing,
        count(m.id) filter (where m.start_date < b.first
          and (m.canceled_on is null or m.canceled_on >= b.first))::int as "activeAtStart",
        count(m.id) filter (where m.start_date >= b.first and m.start_date <= b.last)::int
          as "newMembers",
        count(m.id) filter (where m.canceled_on >= b.first and m.canceled_on <= b.last)::int
          as canceled,
        coalesce(sum(m.monthly_price_cents) filter (where b.first <= ${asOf}::date
          and m.start_date <= b.end_day
          and (m.canceled_on is null or m.canceled_on > b.end_day)), 0)::bigint as cents
      from b left join m on true
      group by b.i
      union all
      select 'plan', null, plan, min(plan_name), billing, count(*)::int, null, null,
        sum(monthly_price_cents)::bigint
      from m
      where start_date <= ${asOf}::date and (canceled_on is null or canceled_on > ${asOf}::date)
      group by plan, billing`),
  );
}

/** Active members by plan and billing at the as-of day, every plan and billing listed. */
function activeByPlan(rows: MemberRow[]) {
  const activeMap = new Map<string, PlanBilling & { count: number; mrrCents: number }>();
  for (const plan of PLANS) {
    for (const billing of ["monthly", "annual"] as const) {
      activeMap.set(`${plan.id}/${billing}`, {
        plan: plan.id,
        planName: plan.name,
        billing,
        count: 0,
        mrrCents: 0,
      });
    }
  }
  for (const r of rows) {
    if (r.what !== "plan") continue;
    const key = `${r.plan}/${r.billing}`;
    const row = activeMap.get(key) ?? {
      plan: r.plan!,
      planName: r.planName!,
      billing: r.billing!,
      count: 0,
      mrrCents: 0,
    };
    row.count += r.activeAtStart;
    row.mrrCents += Number(r.cents);
    activeMap.set(key, row);
  }
  return [...activeMap.values()];
}

/** The members section: who is active, and each month's members, churn and recurring revenue. */
export async function membersSection(
  context: ReportContext,
): Promise<Pick<OwnerReport["members"], "active" | "activeTotal" | "mrrCents" | "months">> {
  const rows = await readMembers(context);
  const active = activeByPlan(rows);
  const months: MembersMonth[] = context.months.map((b, index) => {
    const r = rows.find((row) => row.what === "month" && row.i === index + 1);
    const activeAtStart = r?.activeAtStart ?? 0;
    const canceled = r?.canceled ?? 0;
    return {
      month: b.month,
      activeAtStart,
      newMembers: r?.newMembers ?? 0,
      canceled,
      churnBasisPoints: activeAtStart ? Math.round((canceled * 10_000) / activeAtStart) : null,
      mrrCents: Number(r?.cents ?? 0),
    };
  });
  return {
    active,
    activeTotal: active.reduce((t, r) => t + r.count, 0),
    mrrCents: active.reduce((t, r) => t + r.mrrCents, 0),
    months,
  };
}
