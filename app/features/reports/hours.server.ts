import { sql } from "drizzle-orm";
import { rowsOf } from "~/db/rows";
import { PLANS, type PlanId } from "~/content/plans";
import type { IsoDate } from "~/lib/business-calendar";
import { ts, type ReportContext } from "./report-context.server";
import type { HoursMonth, OwedByPlan, OwnerReport } from "./report-types";

/** The period's completed visits, summed by month, handyman and whether the visit was extra. */
export type VisitSums = {
  month: IsoDate | undefined;
  employeeId: string | null;
  extra: boolean;
  n: number;
  worked: string;
  workedAtCompletion: string;
  block: string;
};

/**
 * The period's completed visits, by the visit's day as the statement dates it (ADR 082), not the
 * instant it was marked done: the member's time worked (with every correction of it, whenever
 * made) and length.
 */
export async function readCompletedVisits({
  database,
  period,
  monthOfDay,
  monthAt,
}: ReportContext): Promise<VisitSums[]> {
  const rows = rowsOf<Omit<VisitSums, "month"> & { month: number }>(
    await database.execute(sql`
      select ${monthOfDay(sql`a.scheduled_date`)} as month,
        a.assigned_employee_id as "employeeId", v.is_extra as extra,
        count(*)::int as n,
        sum(v.minutes_worked - coalesce(c.minutes, 0))::bigint as worked,
        sum(v.minutes_worked)::bigint as "workedAtCompletion",
        sum(v.block_minutes)::bigint as block
      from appointments a
      join membership_visits v on v.appointment_id = a.id
      left join (
        select appointment_id, sum(minutes) as minutes from membership_minutes_ledger
        where kind = 'correction' and appointment_id is not null group by 1
      ) c on c.appointment_id = v.appointment_id
      where a.scheduled_date >= ${period.from}::date and a.scheduled_date <= ${period.to}::date
        and v.status = 'completed'
      group by 1, 2, 3`),
  );
  return rows.map((v) => ({ ...v, month: monthAt(v.month) }));
}

/**
 * Paid and not yet used at the as-of instant: every entry before it, but for visits not
 * completed by then (their block is still owed), so reserved minutes count as owed. Now, that is
 * each bank plus the blocks its open visits hold (ADR 063): a read of the memberships rather than
 * of the whole hours ledger. At a past instant T it is the same banks less the entries since T,
 * less the entries before T of the visits not completed by T (ADR 070): those visits are open
 * now, completed since T, or have an entry since T (a release), so the read is of the ledger
 * since T, not of all of it.
 */
async function readOwed({ database, asOfInstant, asOfIsNow }: ReportContext) {
  const owedNow = sql`
    select id as membership_id, minutes_available as minutes from memberships
    where minutes_available <> 0
    union all
    select membership_id, block_minutes from membership_visits
    where status = 'reserved' and not is_extra`;
  const owedThen = sql`
    select id as membership_id, minutes_available as minutes from memberships
    where minutes_available <> 0
    union all
    select membership_id, 0 - minutes from since
    union all
    select l.membership_id, 0 - l.minutes
    from membership_minutes_ledger l
    join open_then t on t.appointment_id = l.appointment_id
    left join membership_visits v on v.appointment_id = l.appointment_id
    where l.created_at < ${ts(asOfInstant)}
      and (v.completed_at is null or v.completed_at >= ${ts(asOfInstant)})`;
  const before = asOfIsNow
    ? sql``
    : sql`
    with since as (
      select membership_id, appointment_id, minutes from membership_minutes_ledger
      where created_at >= ${ts(asOfInstant)}
    ),
    open_then as (
      select appointment_id from membership_visits
      where status = 'reserved' or completed_at >= ${ts(asOfInstant)}
      union
      select appointment_id from since where appointment_id is not null
    )`;
  return rowsOf<{ plan: PlanId; minutes: string; cents: string }>(
    await database.execute(sql`${before}
      select m.plan, sum(o.minutes)::bigint as minutes,
        round(sum(o.minutes::numeric * m.monthly_price_cents * 12 / m.minutes_per_year))::bigint as cents
      from (${asOfIsNow ? owedNow : owedThen}) o
      join memberships m on m.id = o.membership_id
      group by m.plan`),
  );
}

/** The hours ledger by statement day and kind, a row per month (returns aside). */
async function readHoursLedger({ database, period, monthOf }: ReportContext) {
  return rowsOf<{ month: IsoDate; kind: string; minutes: string }>(
    await database.execute(sql`
      select ${monthOf} as month, kind, sum(minutes)::bigint as minutes
      from (
        select day, kind, minutes from report_hours_days
        where day >= ${period.from}::date and day <= ${period.to}::date and kind <> 'return'
        union all
        select day, kind, minutes from report_hours_day_deltas
        where day >= ${period.from}::date and day <= ${period.to}::date and kind <> 'return'
      ) s
      group by 1, 2`),
  );
}

/** The prepaid hours section: what is owed by plan, each month's hours, the visits' length. */
export async function hoursSection(
  context: ReportContext,
  completedVisits: Promise<VisitSums[]>,
): Promise<OwnerReport["hours"]> {
  const [owedList, hours, visits] = await Promise.all([
    readOwed(context),
    readHoursLedger(context),
    completedVisits,
  ]);
  const owed: OwedByPlan[] = PLANS.map((plan) => {
    const row = owedList.find((r) => r.plan === plan.id);
    return {
      plan: plan.id,
      planName: plan.name,
      minutes: Number(row?.minutes ?? 0),
      valueCents: Number(row?.cents ?? 0),
    };
  });
  const months: HoursMonth[] = context.months.map((b) => {
    const of = (kind: string) =>
      Number(hours.find((r) => r.month === b.month && r.kind === kind)?.minutes ?? 0);
    const workedOnBank = visits
      .filter((v) => v.month === b.month && !v.extra)
      .reduce((total, v) => total + Number(v.workedAtCompletion), 0);
    return {
      month: b.month,
      soldMinutes: of("accrual"),
      reservedMinutes: 0 - of("reserve") - of("release"),
      usedMinutes: workedOnBank - of("correction"),
      refundedMinutes: 0 - of("refund"),
    };
  });
  const completed = visits.reduce((total, v) => total + v.n, 0);
  const workedTotal = visits.reduce((total, v) => total + Number(v.worked), 0);
  return {
    owed,
    owedMinutes: owed.reduce((t, r) => t + r.minutes, 0),
    owedCents: owed.reduce((t, r) => t + r.valueCents, 0),
    months,
    completedVisits: completed,
    averageWorkedMinutes: completed ? Math.round(workedTotal / completed) : null,
  };
}
