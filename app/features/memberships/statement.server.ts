import { and, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import {
  appointments,
  appointmentTasks,
  membershipMinutesLedger,
  membershipMoneyLedger,
  membershipParts,
  membershipVisits,
  memberships,
} from "~/db/schema";
import type { IsoDate } from "./bank";
import { BUSINESS_TIME_ZONE, businessNow } from "~/lib/business-calendar";
import { type MemberVisitRow, type PartRow } from "./types";

export type StatementEntry = {
  key: string;
  /** When the row was written (the ledgers' order is `seq`, not this). */
  at: Date;
  /**
   * The business day the entry belongs to (issue 27, item 13): a charge's billing period, a
   * visit's date for its reservation, return, extra charge, part or fee, the cancellation's
   * day for its refund, and the day it was recorded for a payment. The reports count each
   * entry on this same day (migration 0019's triggers, ADR 082): change both together.
   */
  on: IsoDate;
  ledger: "money" | "hours";
  kind: string;
  description: string;
  amountCents: number | null;
  balanceCents: number | null;
  minutes: number | null;
  minutesBalance: number | null;
};

/**
 * The statement's order (ADR 089): by the day each entry shows, newest day first; entries of
 * one day in the ledgers' own order (`seq`, ADR 041), newest first.
 */
function byShownDay(a: { on: IsoDate; order: number }, b: { on: IsoDate; order: number }) {
  return a.on === b.on ? b.order - a.order : a.on < b.on ? 1 : -1;
}

/**
 * Each entry's running balances in the statement's order (ADR 089): the top entry of a ledger
 * shows the ledger's balance now (the balance after its last entry by `seq`), and each entry
 * below shows the one above it less the amount above it, so every balance follows from the row
 * below, as on a bank statement. `entries` are in the statement's order.
 */
function runningBalances<
  T extends {
    ledger: "money" | "hours";
    amountCents: number | null;
    balanceCents: number | null;
    minutes: number | null;
    minutesBalance: number | null;
    order: number;
  },
>(entries: T[]): T[] {
  const latest = { money: -Infinity, hours: -Infinity };
  const running = { money: 0, hours: 0 };
  for (const e of entries) {
    if (e.order > latest[e.ledger]) {
      latest[e.ledger] = e.order;
      running[e.ledger] = (e.ledger === "money" ? e.balanceCents : e.minutesBalance) ?? 0;
    }
  }
  return entries.map((e) => {
    const balance = running[e.ledger];
    if (e.ledger === "money") {
      running.money -= e.amountCents ?? 0;
      return { ...e, balanceCents: balance };
    }
    running.hours -= e.minutes ?? 0;
    return { ...e, minutesBalance: balance };
  });
}

/**
 * Every ledger entry of a membership, in date order (the day each shows, newest first), each
 * with the running balance after it in that order (ADR 089). An entry's day is the one it
 * belongs to: a charge's billing period, a visit's day (its day now: a moved visit's entries
 * show its new day), the cancellation's day for its refund, else the business day it was
 * written.
 */
export async function membershipStatement(membershipId: string): Promise<StatementEntry[]> {
  const [money, minutes, [membership]] = await Promise.all([
    db()
      .select({
        row: membershipMoneyLedger,
        visitDate: appointments.scheduledDate,
      })
      .from(membershipMoneyLedger)
      .leftJoin(appointments, eq(appointments.id, membershipMoneyLedger.appointmentId))
      .where(eq(membershipMoneyLedger.membershipId, membershipId))
      .orderBy(desc(membershipMoneyLedger.seq)),
    db()
      .select({
        row: membershipMinutesLedger,
        visitDate: appointments.scheduledDate,
      })
      .from(membershipMinutesLedger)
      .leftJoin(appointments, eq(appointments.id, membershipMinutesLedger.appointmentId))
      .where(eq(membershipMinutesLedger.membershipId, membershipId))
      .orderBy(desc(membershipMinutesLedger.seq)),
    db()
      .select({ canceledOn: memberships.canceledOn })
      .from(memberships)
      .where(eq(memberships.id, membershipId)),
  ]);
  // A period's hours are posted with its charge, one accrual per charge in the same order:
  // the k-th accrual belongs to the k-th charge's period.
  const periods = money
    .filter((e) => e.row.kind === "membership_charge")
    .map((e) => e.row.periodStart)
    .reverse();
  const accruals = minutes.filter((e) => e.row.kind === "accrual").reverse();
  const accrualPeriod = new Map(accruals.map((e, k) => [e.row.id, periods[k] ?? null]));
  const localDay = (at: Date) => businessNow(at).date;
  const canceledOn = membership?.canceledOn ?? null;
  const entries: (StatementEntry & { order: number })[] = [
    ...money.map(({ row: e, visitDate }) => ({
      key: `m${e.id}`,
      at: e.createdAt,
      on:
        e.periodStart ??
        visitDate ??
        (e.kind === "refund" && canceledOn ? canceledOn : localDay(e.createdAt)),
      ledger: "money" as const,
      kind: e.kind,
      description: e.description,
      amountCents: e.amountCents,
      balanceCents: e.balanceAfter,
      minutes: null,
      minutesBalance: null,
      order: e.seq,
    })),
    ...minutes.map(({ row: e, visitDate }) => ({
      key: `h${e.id}`,
      at: e.createdAt,
      on:
        accrualPeriod.get(e.id) ??
        visitDate ??
        (e.kind === "refund" && canceledOn ? canceledOn : localDay(e.createdAt)),
      ledger: "hours" as const,
      kind: e.kind,
      description: e.note,
      amountCents: null,
      balanceCents: null,
      minutes: e.minutes,
      minutesBalance: e.balanceAfter,
      order: e.seq,
    })),
  ];
  entries.sort(byShownDay);
  return runningBalances(entries).map(({ order: _order, ...rest }) => rest);
}

type StatementRow = {
  key: string | null;
  at: string | null;
  on: string | null;
  ledger: "money" | "hours" | null;
  kind: string | null;
  description: string | null;
  amount_cents: number | null;
  balance_cents: number | null;
  minutes: number | null;
  minutes_balance: number | null;
};

/**
 * The statement's entries in date order as CTEs ending in `ordered` (each entry's day `on_day`
 * and running `balance`), and `dated` (every entry, to count them). Each entry's day (`on`) is
 * found as membershipStatement finds it (the k-th accrual paired with the k-th charge by window
 * functions), and the running balances follow the same order (ADR 089): the balance after the
 * ledger's last entry by `seq`, less the amounts of the entries shown above. The day of every
 * entry is needed to order them, so the query reads the membership's whole ledgers through
 * their (membership, seq) indexes. `membershipId`: a value or a placeholder.
 */
function statementEntriesSql(membershipId: unknown) {
  const money = membershipMoneyLedger;
  const hours = membershipMinutesLedger;
  return sql`with m as (
      select ${memberships.canceledOn} as canceled_on from ${memberships}
      where ${memberships.id} = ${membershipId}
    ), charges as (
      select ${money.periodStart} as period_start,
        row_number() over (order by ${money.seq}) as k
      from ${money}
      where ${money.membershipId} = ${membershipId} and ${money.kind} = 'membership_charge'
    ), raw as (
      (select 'm' || ${money.id} as key, ${money.createdAt} as at, 'money' as ledger,
        ${money.kind}::text as kind, ${money.description} as description,
        ${money.amountCents} as amount_cents, ${money.balanceAfter} as balance_after,
        null::integer as minutes, ${money.seq} as seq,
        ${money.periodStart} as period_start, ${money.appointmentId} as appointment_id,
        null::bigint as accrual_k
      from ${money} where ${money.membershipId} = ${membershipId})
      union all
      (select 'h' || ${hours.id}, ${hours.createdAt}, 'hours', ${hours.kind}::text, ${hours.note},
        null::integer, ${hours.balanceAfter}, ${hours.minutes}, ${hours.seq},
        null::date, ${hours.appointmentId},
        case when ${hours.kind} = 'accrual'
          then row_number() over (partition by ${hours.kind} = 'accrual' order by ${hours.seq}) end
      from ${hours} where ${hours.membershipId} = ${membershipId})
    ), dated as (
      select raw.*,
        coalesce(
          raw.period_start,
          c.period_start,
          a.scheduled_date,
          case when raw.kind = 'refund' then (select canceled_on from m) end,
          (raw.at at time zone ${BUSINESS_TIME_ZONE})::date
        ) as on_day
      from raw
      left join charges c on c.k = raw.accrual_k
      left join ${appointments} a on a.id = raw.appointment_id
    ), ordered as (
      select dated.*,
        first_value(balance_after) over (partition by ledger order by seq desc)
          - coalesce(sum(coalesce(amount_cents, minutes)) over (
              partition by ledger order by on_day desc, seq desc
              rows between unbounded preceding and 1 preceding), 0) as balance
      from dated
    )`;
}

/** The page's entries of `ordered` (statementEntriesSql), given `total` (a page past the end shows the last). */
function statementPageRowsSql(total: unknown, asked: unknown, pageSize: unknown) {
  return sql`select key, at, ledger, kind, description, amount_cents,
      case when ledger = 'money' then balance end as balance_cents,
      minutes, case when ledger = 'hours' then balance end as minutes_balance,
      on_day::text as "on", on_day, seq
    from ordered
    order by on_day desc, seq desc
    limit ${pageSize}::integer
    offset (least(${asked}::integer, greatest(1, ceil(${total}::numeric / ${pageSize}::integer)::integer)) - 1) * ${pageSize}::integer`;
}

/**
 * One page of the statement as a JSON object `{ total, rows }` (rows as membershipStatementPage
 * reads them), for a statement that reads it beside other figures (page.server.ts). Its
 * arguments: values or placeholders.
 */
export function statementPageJsonSql(membershipId: unknown, page: unknown, pageSize: unknown) {
  return sql<StatementPageJson>`(${statementEntriesSql(membershipId)}, counted as (
      select count(*) as total from dated
    )
    select json_build_object('total', t.total, 'rows', (
      select coalesce(json_agg(json_build_object('key', e.key, 'at', e.at, 'ledger', e.ledger,
        'kind', e.kind, 'description', e.description, 'amount_cents', e.amount_cents,
        'balance_cents', e.balance_cents, 'minutes', e.minutes,
        'minutes_balance', e.minutes_balance, 'on', e."on") order by e.on_day desc, e.seq desc),
        '[]'::json)
      from (${statementPageRowsSql(sql`t.total`, page, pageSize)}) e))
    from counted t)`;
}

export type StatementPageJson = { total: number; rows: StatementRow[] };

/** A statement page's entries from its rows (`at` as the driver or as JSON gives it). */
export function statementPageOf(
  rows: StatementRow[],
  total: number,
  page: number,
  pageSize: number,
): { entries: StatementEntry[]; page: number; pages: number; total: number } {
  const asked = Math.max(1, Math.floor(page));
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const entries: StatementEntry[] = rows
    .filter((r) => r.key !== null)
    .map((r) => {
      const at = membershipMoneyLedger.createdAt.mapFromDriverValue(r.at!) as Date;
      return {
        key: r.key!,
        at,
        on: r.on ?? businessNow(at).date,
        ledger: r.ledger!,
        kind: r.kind!,
        description: r.description!,
        amountCents: r.amount_cents,
        balanceCents: r.balance_cents === null ? null : Number(r.balance_cents),
        minutes: r.minutes,
        minutesBalance: r.minutes_balance === null ? null : Number(r.minutes_balance),
      };
    });
  return { entries, page: Math.min(asked, pages), pages, total };
}

/**
 * One page of membershipStatement (date order, newest day first, `pageSize` entries; a page
 * past the end shows the last), in one query (statementEntriesSql); only the page's rows are
 * sent. The membership's page reads the same page within its figures (statementPageJsonSql).
 */
export async function membershipStatementPage(
  membershipId: string,
  page: number,
  pageSize: number,
): Promise<{ entries: StatementEntry[]; page: number; pages: number; total: number }> {
  const asked = Math.max(1, Math.floor(page));
  const result = await db().execute(sql`
    ${statementEntriesSql(membershipId)}, counted as (
      select (select count(*) from dated) as total
    )
    select t.total, e.key, e.at, e.ledger, e.kind, e.description, e.amount_cents,
      e.balance_cents, e.minutes, e.minutes_balance, e."on"
    from counted t
    left join lateral (${statementPageRowsSql(sql`t.total`, asked, pageSize)}) e on true
    order by e.on_day desc, e.seq desc`);
  const rows = result.rows as (StatementRow & { total: string | number })[];
  return statementPageOf(rows, Number(rows[0]?.total ?? 0), asked, pageSize);
}

/** A membership's parts, newest first (with the visit's date). */
export async function membershipPartsList(membershipId: string): Promise<PartRow[]> {
  return db()
    .select({
      id: membershipParts.id,
      appointmentId: membershipParts.appointmentId,
      description: membershipParts.description,
      costCents: membershipParts.costCents,
      needsApproval: membershipParts.needsApproval,
      status: membershipParts.status,
      scheduledDate: appointments.scheduledDate,
      createdAt: membershipParts.createdAt,
      hasReceipt: sql<boolean>`${membershipParts.receiptPath} is not null`.mapWith(Boolean),
    })
    .from(membershipParts)
    .innerJoin(appointments, eq(appointments.id, membershipParts.appointmentId))
    .where(eq(membershipParts.membershipId, membershipId))
    .orderBy(desc(membershipParts.createdAt));
}

/**
 * A membership's visits (newest first), with their tasks and the corrected time worked. A
 * visit's corrections are read from its membership's ledger (its (membership, seq) index): the
 * ledger has no index by visit, and a scan of every membership's entries per visit cost the staff's
 * membership page about 100 ms on the bench data set (ADR 067).
 */
/** Visits a page on staff's membership page: 2,000 canceled visits never weigh on it. */
export const VISITS_PAGE_SIZE = 25;

/**
 * One page of a membership's visits, newest first (upcoming ones on the first page), with
 * their tasks; `page` past the last is the last.
 */
export async function membershipVisitPage(
  membershipId: string,
  page: number,
  pageSize = VISITS_PAGE_SIZE,
) {
  const [{ total } = { total: 0 }] = await db()
    .select({ total: count() })
    .from(membershipVisits)
    .where(eq(membershipVisits.membershipId, membershipId));
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, page), pages);
  const visits = await membershipVisitList(membershipId, {
    limit: pageSize,
    offset: (current - 1) * pageSize,
  });
  return { visits, page: { page: current, pages, total } };
}

/**
 * The visits a part can be recorded for (every visit not released: booked, under way or done),
 * newest first, as the 'Add Part' form's choices: date and time only.
 */
export async function membershipPartVisits(membershipId: string) {
  return db()
    .select({
      appointmentId: membershipVisits.appointmentId,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(
      and(eq(membershipVisits.membershipId, membershipId), ne(membershipVisits.status, "released")),
    )
    .orderBy(desc(appointments.scheduledDate), desc(appointments.startTime));
}

/** Whether the visit is one of the membership's (staff's forms name visits by id). */
export async function membershipHasVisit(membershipId: string, appointmentId: string) {
  const [row] = await db()
    .select({ id: membershipVisits.appointmentId })
    .from(membershipVisits)
    .where(
      and(
        eq(membershipVisits.membershipId, membershipId),
        eq(membershipVisits.appointmentId, appointmentId),
      ),
    );
  return Boolean(row);
}

export async function membershipVisitList(
  membershipId: string,
  window?: { limit: number; offset: number },
): Promise<MemberVisitRow[]> {
  const listed = db()
    .select({
      appointmentId: membershipVisits.appointmentId,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      blockMinutes: membershipVisits.blockMinutes,
      isExtra: membershipVisits.isExtra,
      extraReason: membershipVisits.extraReason,
      status: membershipVisits.status,
      minutesWorked: sql<
        number | null
      >`${membershipVisits.minutesWorked} + coalesce((select sum(-${membershipMinutesLedger.minutes}) from ${membershipMinutesLedger} where ${membershipMinutesLedger.membershipId} = ${membershipVisits.membershipId} and ${membershipMinutesLedger.appointmentId} = ${membershipVisits.appointmentId} and ${membershipMinutesLedger.kind} = 'correction'), 0)`.mapWith(
        (v) => (v === null ? null : Number(v)),
      ),
      appointmentStatus: appointments.status,
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(eq(membershipVisits.membershipId, membershipId))
    .orderBy(
      desc(appointments.scheduledDate),
      desc(appointments.startTime),
      desc(membershipVisits.appointmentId),
    )
    .$dynamic();
  const rows = await (window ? listed.limit(window.limit).offset(window.offset) : listed);
  const tasks = rows.length
    ? await db()
        .select({
          id: appointmentTasks.id,
          appointmentId: appointmentTasks.appointmentId,
          description: appointmentTasks.taskDescription,
          outcome: appointmentTasks.outcome,
        })
        .from(appointmentTasks)
        .where(
          inArray(
            appointmentTasks.appointmentId,
            rows.map((r) => r.appointmentId),
          ),
        )
    : [];
  return rows.map((row) => ({
    ...row,
    tasks: tasks
      .filter((t) => t.appointmentId === row.appointmentId)
      .map(({ id, description, outcome }) => ({ id, description, outcome })),
  }));
}

/**
 * A membership's statement for its member or for staff; null for anyone else, the same as for
 * an id that does not exist, so ids cannot be probed.
 */
export async function statementFor(
  viewer: { id: string; isEmployee: boolean },
  membershipId: string,
) {
  const [membership] = await db()
    .select({
      id: memberships.id,
      customerId: memberships.customerId,
      startDate: memberships.startDate,
    })
    .from(memberships)
    .where(eq(memberships.id, membershipId));
  if (!membership || (!viewer.isEmployee && membership.customerId !== viewer.id)) return null;
  return { startDate: membership.startDate, lines: await membershipStatement(membership.id) };
}
