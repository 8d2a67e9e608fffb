import { rowsOf } from "~/db/rows";
import { sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { loadClosedDays, loadHandymen } from "~/features/availability/index.server";
import {
  addDays,
  businessToday,
  weekday,
  zonedInstant,
  type IsoDate,
  addMonths,
  calendarMonth,
} from "~/lib/business-calendar";
import { PLANS, type PlanId } from "~/content/plans";
import { BUSY_VISIT_STATUSES } from "~/db/visit-status";
import { type Period } from "./period";

/*
 * The owner's numbers (issue 30), read from the ledgers: the memberships' start and cancel
 * days, the money ledger (charges, refunds, corrections), the hours ledger (accruals,
 * reservations, returns, refunds, corrections), the visits, parts, leads and intro calls. Every
 * figure is an integer of cents or minutes until the page formats it; "to the cent and the
 * minute" (tests/integration/reports.test.ts builds a known history and checks each).
 *
 * Days are business days (America/New_York); a month is a calendar month, cut to the period at
 * its ends. A ledger entry counts on the day the member's statement shows it (ADR 082): a
 * charge, a payment and the hours bought on their billing period's first day, a visit's entries
 * (its reservation, time, extra charge, parts, fee) and the visit itself on the visit's day, a
 * cancel's credit on the cancel's day, a refund paid out on the day it was paid, never the day
 * an entry happened to be posted. "As of" figures (active members, hours owed, approvals pending) are at the end of
 * the period, or now when the period runs on past today.
 */

export type PlanBilling = { plan: PlanId; planName: string; billing: "monthly" | "annual" };

export type MembersMonth = {
  month: IsoDate;
  /** Active on the first day of the month (cut to the period). */
  activeAtStart: number;
  newMembers: number;
  canceled: number;
  /** canceled / activeAtStart, in basis points (1 = 0.01%); null when no one was active. */
  churnBasisPoints: number | null;
  /** Monthly recurring revenue at the month's last day (cut to the period and today). */
  mrrCents: number;
};

export type RevenueMonth = {
  month: IsoDate;
  membershipCents: number;
  extraVisitCents: number;
  partsCents: number;
  shoppingFeeCents: number;
  correctionCents: number;
  /**
   * What cancels credited back (the ledger's `refund` entries: charges not earned, netted
   * against what the member owed), as a positive amount. Not money paid out: see refundCents.
   */
  creditCents: number;
  /** Every charge less the credits at cancels (corrections included). */
  netCents: number;
  /** Money received from members (payments), as a positive amount. */
  paymentCents: number;
  /** Refunds: money paid out to members (`refund_paid` entries), as a positive amount. */
  refundCents: number;
};

export type HoursMonth = {
  month: IsoDate;
  soldMinutes: number;
  /** Minutes set aside for the month's visits, less those released (canceled or moved out). */
  reservedMinutes: number;
  /** Minutes worked on the month's completed bank visits, their corrections included. */
  usedMinutes: number;
  refundedMinutes: number;
};

export type OwedByPlan = { plan: PlanId; planName: string; minutes: number; valueCents: number };

export type HandymanWeek = {
  /** The Monday of the week (its days cut to the period). */
  week: IsoDate;
  availableMinutes: number;
  bookedMinutes: number;
};

export type HandymanRow = {
  id: string;
  name: string;
  availableMinutes: number;
  bookedMinutes: number;
  /** Days with working hours in the period (not off, not closed). */
  workingDays: number;
  /** Member visits of the period (by the visit's day) completed. */
  completedVisits: number;
  /** Time worked on those visits (corrections applied). */
  workedMinutes: number;
  /** The blocks booked for those visits, beside workedMinutes. */
  workedBookedMinutes: number;
};

export type SalesMonth = {
  month: IsoDate;
  leads: number;
  introCalls: number;
  /** Walk-thrus booked in the month (by when they were booked), not canceled (ADR 061). */
  walkThrus: number;
  /** Membership offers sent in the month (issue 27). */
  offers: number;
  newMembers: number;
};

export type OwnerReport = {
  period: Pick<Period, "from" | "to">;
  /** The day the "as of" figures are for. */
  asOf: IsoDate;
  members: {
    active: (PlanBilling & { count: number; mrrCents: number })[];
    activeTotal: number;
    mrrCents: number;
    months: MembersMonth[];
    revenue: RevenueMonth[];
    revenueTotal: Omit<RevenueMonth, "month">;
  };
  hours: {
    owed: OwedByPlan[];
    owedMinutes: number;
    owedCents: number;
    months: HoursMonth[];
    completedVisits: number;
    averageWorkedMinutes: number | null;
  };
  handymen: {
    weeks: HandymanWeek[];
    people: HandymanRow[];
  };
  sales: { months: SalesMonth[] };
  parts: {
    pendingCount: number;
    pendingCents: number;
    decided: number;
    /** Average days from a part's request to the member's decision, in hundredths of a day. */
    averageDecisionHundredths: number | null;
    partsCount: number;
    partsCents: number;
    shoppingFeeCount: number;
    shoppingFeeCents: number;
  };
};

type Bucket = { month: IsoDate; first: IsoDate; last: IsoDate };

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

const startOf = (date: IsoDate) => zonedInstant(date, 0);
const dateArray = (dates: IsoDate[]) =>
  sql`array[${sql.join(
    dates.map((d) => sql`${d}`),
    sql`, `,
  )}]::date[]`;
const ts = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;

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

export async function ownerReport(
  period: Pick<Period, "from" | "to">,
  options: { now?: Date; database?: DbOrTx } = {},
): Promise<OwnerReport> {
  const database = options.database ?? db();
  const now = options.now ?? new Date();
  const today = businessToday(now);
  const asOf = period.to < today ? period.to : today;
  const from = startOf(period.from);
  const until = startOf(addDays(period.to, 1));
  /** The instant the "as of" figures are taken at: the end of the as-of day, or now. */
  const asOfInstant = period.to < today ? until : now;
  const months = buckets(period);
  // The month of an instant, as the index of its month in `months` plus one: a search in the
  // months' first instants (midnight in New York) rather than a time zone conversion per row.
  const monthStarts = sql`array[${sql.join(
    months.map((b) => ts(startOf(b.month))),
    sql`, `,
  )}]::timestamptz[]`;
  const monthNumber = (column: ReturnType<typeof sql>) =>
    sql`width_bucket(${column}, ${monthStarts})`;
  // The month of a business day, the same way: a search in the months' first days.
  const monthOfDay = (column: ReturnType<typeof sql>) =>
    sql`width_bucket(${column}, ${dateArray(months.map((b) => b.month))})`;
  // The month a summary day belongs to, as the page names months (their first day).
  const monthOf = sql`to_char(date_trunc('month', day), 'YYYY-MM-DD')`;

  await foldLedgerDeltas(database);
  const [
    membershipRows,
    moneyRows,
    hoursRows,
    owedRows,
    visitRows,
    salesRows,
    partRows,
    staff,
    closed,
    handymanRows,
    bookedRows,
  ] = await Promise.all([
    // The members' figures are counted by the database, a row per month and one per plan and
    // billing (a read of every membership, 2,000 rows on the bench data, cost the page more CPU
    // than the rest of it: ADR 077). A membership is active on a day from its start until the
    // day it was canceled on.
    database.execute(sql`
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
    // Both ledgers by statement day (ADR 082), from their daily summaries and the deltas not yet
    // moved into them: the period's days, whole months or cut, from the same rows.
    database.execute(sql`
        select ${monthOf} as month, kind, sum(cents)::bigint as cents, sum(entries)::int as n
        from (
          select day, kind, cents, entries from report_money_days
          where day >= ${period.from}::date and day <= ${period.to}::date
          union all
          select day, kind, cents, entries from report_money_day_deltas
          where day >= ${period.from}::date and day <= ${period.to}::date
        ) s
        group by 1, 2`),
    database.execute(sql`
        select ${monthOf} as month, kind, sum(minutes)::bigint as minutes
        from (
          select day, kind, minutes from report_hours_days
          where day >= ${period.from}::date and day <= ${period.to}::date and kind <> 'return'
          union all
          select day, kind, minutes from report_hours_day_deltas
          where day >= ${period.from}::date and day <= ${period.to}::date and kind <> 'return'
        ) s
        group by 1, 2`),
    // Paid and not yet used at the as-of instant: every entry before it, but for visits not
    // completed by then (their block is still owed), so reserved minutes count as owed. Now,
    // that is each bank plus the blocks its open visits hold (ADR 063): a read of the
    // memberships rather than of the whole hours ledger. At a past instant T it is the same
    // banks less the entries since T, less the entries before T of the visits not completed
    // by T (ADR 070): those visits are open now, completed since T, or have an entry since T
    // (a release), so the read is of the ledger since T, not of all of it.
    asOfInstant === now
      ? database.execute(sql`
            select m.plan, sum(o.minutes)::bigint as minutes,
              round(sum(o.minutes::numeric * m.monthly_price_cents * 12 / m.minutes_per_year))::bigint as cents
            from (
              select id as membership_id, minutes_available as minutes from memberships
              where minutes_available <> 0
              union all
              select membership_id, block_minutes from membership_visits
              where status = 'reserved' and not is_extra
            ) o
            join memberships m on m.id = o.membership_id
            group by m.plan`)
      : database.execute(sql`
            with since as (
              select membership_id, appointment_id, minutes from membership_minutes_ledger
              where created_at >= ${ts(asOfInstant)}
            ),
            open_then as (
              select appointment_id from membership_visits
              where status = 'reserved' or completed_at >= ${ts(asOfInstant)}
              union
              select appointment_id from since where appointment_id is not null
            )
            select m.plan, sum(o.minutes)::bigint as minutes,
              round(sum(o.minutes::numeric * m.monthly_price_cents * 12 / m.minutes_per_year))::bigint as cents
            from (
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
                and (v.completed_at is null or v.completed_at >= ${ts(asOfInstant)})
            ) o
            join memberships m on m.id = o.membership_id
            group by m.plan`),
    // The period's completed visits, by the visit's day as the statement dates it (ADR 082),
    // not the instant it was marked done: the member's time worked (with every correction of
    // it, whenever made) and length.
    database.execute(sql`
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
    database.execute(sql`
        select 'lead' as what, ${monthNumber(sql`created_at`)} as month, count(*)::int as n
          from leads where created_at >= ${ts(from)} and created_at < ${ts(until)} group by 2
        union all
        select 'call', ${monthNumber(sql`created_at`)}, count(*)::int
          from intro_calls where created_at >= ${ts(from)} and created_at < ${ts(until)} group by 2
        union all
        select 'walk-thru', ${monthNumber(sql`created_at`)}, count(*)::int
          from appointments where kind = 'walk_thru' and status <> 'canceled'
            and created_at >= ${ts(from)} and created_at < ${ts(until)} group by 2
        union all
        select 'offer', ${monthNumber(sql`created_at`)}, count(*)::int
          from membership_offers where created_at >= ${ts(from)} and created_at < ${ts(until)} group by 2`),
    database.execute(sql`
        select
          count(*) filter (where needs_approval and created_at < ${ts(asOfInstant)}
            and (decided_at is null or decided_at >= ${ts(asOfInstant)})
            and (removed_at is null or removed_at >= ${ts(asOfInstant)}))::int as "pendingCount",
          coalesce(sum(cost_cents) filter (where needs_approval and created_at < ${ts(asOfInstant)}
            and (decided_at is null or decided_at >= ${ts(asOfInstant)})
            and (removed_at is null or removed_at >= ${ts(asOfInstant)})), 0)::bigint as "pendingCents",
          count(*) filter (where decided_at >= ${ts(from)} and decided_at < ${ts(until)})::int as decided,
          round(avg(extract(epoch from decided_at - created_at) / 864)
            filter (where decided_at >= ${ts(from)} and decided_at < ${ts(until)}))::int as "averageDecisionHundredths"
        from membership_parts
        where needs_approval and (decided_at is null or decided_at >= ${ts(from)})`),
    loadHandymen(period.from, period.to, { database, busy: false }),
    loadClosedDays(period.from, period.to, database),
    database.execute(
      sql`select user_id as id from profiles where is_employee and staff_role = 'handyman'`,
    ),
    // Booked time per handyman and Monday-to-Sunday week, summed here rather than read visit by
    // visit: the visits that hold a handyman's time (ADR 046).
    database.execute(sql`
        select "employeeId", monday::text as week, (extract(epoch from booked) / 60)::int as minutes
        from (
          select assigned_employee_id as "employeeId",
            scheduled_date - (extract(isodow from scheduled_date)::int - 1) as monday,
            sum(end_time - start_time) as booked
          from appointments
          where assigned_employee_id is not null
            and status in (${sql.join(
              BUSY_VISIT_STATUSES.map((status) => sql`${status}`),
              sql`, `,
            )})
            and scheduled_date >= ${period.from}::date and scheduled_date <= ${period.to}::date
          group by 1, 2
        ) b`),
  ]);

  /* ---------- members ---------- */
  const memberRows = rowsOf<{
    what: "month" | "plan";
    i: number | null;
    plan: PlanId | null;
    planName: string | null;
    billing: "monthly" | "annual" | null;
    activeAtStart: number;
    newMembers: number | null;
    canceled: number | null;
    cents: string | number;
  }>(membershipRows);
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
  for (const r of memberRows) {
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
  const active = [...activeMap.values()];
  const memberMonths: MembersMonth[] = months.map((b, index) => {
    const r = memberRows.find((row) => row.what === "month" && row.i === index + 1);
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

  const money = rowsOf<{ month: IsoDate; kind: string; cents: string | number; n: number }>(
    moneyRows,
  );
  const revenue: RevenueMonth[] = months.map((b) => {
    const of = (kind: string) =>
      Number(money.find((r) => r.month === b.month && r.kind === kind)?.cents ?? 0);
    const row = {
      month: b.month,
      membershipCents: of("membership_charge"),
      extraVisitCents: of("extra_visit"),
      partsCents: of("part"),
      shoppingFeeCents: of("shopping_fee"),
      correctionCents: of("correction"),
      creditCents: 0 - of("refund"),
    };
    return {
      ...row,
      netCents:
        row.membershipCents +
        row.extraVisitCents +
        row.partsCents +
        row.shoppingFeeCents +
        row.correctionCents -
        row.creditCents,
      paymentCents: 0 - of("payment"),
      refundCents: of("refund_paid"),
    };
  });
  const sum = (key: keyof Omit<RevenueMonth, "month">) =>
    revenue.reduce((total, r) => total + r[key], 0);
  const revenueTotal = {
    membershipCents: sum("membershipCents"),
    extraVisitCents: sum("extraVisitCents"),
    partsCents: sum("partsCents"),
    shoppingFeeCents: sum("shoppingFeeCents"),
    correctionCents: sum("correctionCents"),
    creditCents: sum("creditCents"),
    netCents: sum("netCents"),
    paymentCents: sum("paymentCents"),
    refundCents: sum("refundCents"),
  };

  /* ---------- prepaid hours ---------- */
  const owedList = rowsOf<{ plan: PlanId; minutes: string; cents: string }>(owedRows);
  const owed: OwedByPlan[] = PLANS.map((plan) => {
    const row = owedList.find((r) => r.plan === plan.id);
    return {
      plan: plan.id,
      planName: plan.name,
      minutes: Number(row?.minutes ?? 0),
      valueCents: Number(row?.cents ?? 0),
    };
  });
  const hours = rowsOf<{ month: IsoDate; kind: string; minutes: string }>(hoursRows);
  const monthAt = (n: number | string) => months[Number(n) - 1]?.month;
  const visits = rowsOf<{
    month: number;
    employeeId: string | null;
    extra: boolean;
    n: number;
    worked: string;
    workedAtCompletion: string;
    block: string;
  }>(visitRows).map((v) => ({ ...v, month: monthAt(v.month) }));
  const hoursMonths: HoursMonth[] = months.map((b) => {
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
  const completedVisits = visits.reduce((total, v) => total + v.n, 0);
  const workedTotal = visits.reduce((total, v) => total + Number(v.worked), 0);

  /* ---------- handymen ---------- */
  const booked = rowsOf<{ employeeId: string; week: IsoDate; minutes: number }>(bookedRows);
  // The handymen (ADR 047), and any other employee who had visits booked in the period.
  const handymanIds = new Set(rowsOf<{ id: string }>(handymanRows).map((r) => r.id));
  const bookedIds = new Set(booked.map((b) => b.employeeId));
  const handymen = staff.filter((h) => handymanIds.has(h.id) || bookedIds.has(h.id));
  // The period's days once, with their weekday, week and whether the business is closed;
  // then each handyman's hours over them.
  const days: { day: IsoDate; weekday: number; week: HandymanWeek; closed: boolean }[] = [];
  const weeks = new Map<IsoDate, HandymanWeek>();
  if (handymen.length) {
    let day = period.from;
    let wd = weekday(day);
    let week: HandymanWeek = {
      week: addDays(day, -((wd + 6) % 7)),
      availableMinutes: 0,
      bookedMinutes: 0,
    };
    weeks.set(week.week, week);
    for (; day <= period.to; day = addDays(day, 1), wd = (wd + 1) % 7) {
      if (wd === 1 && day !== week.week) {
        week = { week: day, availableMinutes: 0, bookedMinutes: 0 };
        weeks.set(day, week);
      }
      days.push({ day, weekday: wd, week, closed: closed.isClosed(day) });
    }
  }
  const people: HandymanRow[] = handymen.map((h) => {
    const row: HandymanRow = {
      id: h.id,
      name: h.name,
      availableMinutes: 0,
      bookedMinutes: 0,
      workingDays: 0,
      completedVisits: 0,
      workedMinutes: 0,
      workedBookedMinutes: 0,
    };
    for (const { day, weekday: wd, week, closed: isClosed } of days) {
      const hoursOfDay = h.hours[wd];
      if (!hoursOfDay || isClosed) continue;
      if (h.timeOff.some((t) => t.startDate <= day && t.endDate >= day)) continue;
      row.workingDays += 1;
      row.availableMinutes += hoursOfDay.end - hoursOfDay.start;
      week.availableMinutes += hoursOfDay.end - hoursOfDay.start;
    }
    for (const b of booked) {
      if (b.employeeId !== h.id) continue;
      row.bookedMinutes += Number(b.minutes);
      weeks.get(b.week)!.bookedMinutes += Number(b.minutes);
    }
    for (const v of visits) {
      if (v.employeeId !== h.id) continue;
      row.completedVisits += v.n;
      row.workedMinutes += Number(v.worked);
      row.workedBookedMinutes += Number(v.block);
    }
    return row;
  });
  /* ---------- sales ---------- */
  const sales = rowsOf<{ what: string; month: number; n: number }>(salesRows).map((r) => ({
    ...r,
    month: monthAt(r.month),
  }));
  const salesMonths: SalesMonth[] = months.map((b, i) => ({
    month: b.month,
    leads: sales.find((r) => r.what === "lead" && r.month === b.month)?.n ?? 0,
    introCalls: sales.find((r) => r.what === "call" && r.month === b.month)?.n ?? 0,
    walkThrus: sales.find((r) => r.what === "walk-thru" && r.month === b.month)?.n ?? 0,
    offers: sales.find((r) => r.what === "offer" && r.month === b.month)?.n ?? 0,
    newMembers: memberMonths[i].newMembers,
  }));

  /* ---------- parts ---------- */
  const [parts] = rowsOf<{
    pendingCount: number;
    pendingCents: string;
    decided: number;
    averageDecisionHundredths: number | null;
  }>(partRows);
  const kindTotal = (kind: string) =>
    money.filter((r) => r.kind === kind).reduce((t, r) => t + Number(r.cents), 0);
  const kindCount = (kind: string) =>
    money.filter((r) => r.kind === kind).reduce((t, r) => t + Number(r.n), 0);

  return {
    period: { from: period.from, to: period.to },
    asOf,
    members: {
      active,
      activeTotal: active.reduce((t, r) => t + r.count, 0),
      mrrCents: active.reduce((t, r) => t + r.mrrCents, 0),
      months: memberMonths,
      revenue,
      revenueTotal,
    },
    hours: {
      owed,
      owedMinutes: owed.reduce((t, r) => t + r.minutes, 0),
      owedCents: owed.reduce((t, r) => t + r.valueCents, 0),
      months: hoursMonths,
      completedVisits,
      averageWorkedMinutes: completedVisits ? Math.round(workedTotal / completedVisits) : null,
    },
    handymen: { weeks: [...weeks.values()], people },
    sales: { months: salesMonths },
    parts: {
      pendingCount: Number(parts?.pendingCount ?? 0),
      pendingCents: Number(parts?.pendingCents ?? 0),
      decided: Number(parts?.decided ?? 0),
      averageDecisionHundredths:
        parts?.averageDecisionHundredths === null || parts?.averageDecisionHundredths === undefined
          ? null
          : Number(parts.averageDecisionHundredths),
      partsCount: kindCount("part"),
      partsCents: kindTotal("part"),
      shoppingFeeCount: kindCount("shopping_fee"),
      shoppingFeeCents: kindTotal("shopping_fee"),
    },
  };
}
