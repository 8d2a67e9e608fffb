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
import { businessNow } from "./dates";
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
 * Every ledger entry of a membership, newest first, each with the running balance after it
 * (stored on the row when it was written, so the statement is one indexed read per ledger).
 * "Newest" is the ledgers' own order (`seq`, ADR 041), the order the balances were computed
 * in: a row's time is when its transaction began, which parallel bookings on PostgreSQL
 * commit in another order, so each balance follows from the row below only by `seq`.
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
  entries.sort((a, b) => b.order - a.order);
  return entries.map(({ order: _order, ...rest }) => rest);
}

type StatementRow = {
  total: string | number;
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
 * One page of membershipStatement (newest first, `pageSize` entries; a page past the end shows
 * the last), read as one page: both ledgers' entries of the page through their (membership,
 * seq) indexes, and the count of all, in one query, never the whole history (ADR 066). Each
 * entry's day (`on`) is found as membershipStatement finds it, for the page's entries only: the
 * charge's period, the k-th charge's period for the k-th accrual, the visit's date, the
 * cancellation's day for a refund, else the business day the row was written.
 */
export async function membershipStatementPage(
  membershipId: string,
  page: number,
  pageSize: number,
): Promise<{ entries: StatementEntry[]; page: number; pages: number; total: number }> {
  const money = membershipMoneyLedger;
  const hours = membershipMinutesLedger;
  const asked = Math.max(1, Math.floor(page));
  const result = await db().execute(sql`
    select t.total, e.key, e.at, e.ledger, e.kind, e.description, e.amount_cents,
      e.balance_cents, e.minutes, e.minutes_balance,
      coalesce(
        e.period_start,
        case when e.ledger = 'hours' and e.kind = 'accrual' then (
          select ${money.periodStart} from ${money}
          where ${money.membershipId} = ${membershipId} and ${money.kind} = 'membership_charge'
          order by ${money.seq}
          limit 1
          offset (
            select count(*) from ${hours}
            where ${hours.membershipId} = ${membershipId} and ${hours.kind} = 'accrual'
              and ${hours.seq} < e.seq
          )
        ) end,
        (select ${appointments.scheduledDate} from ${appointments} where ${appointments.id} = e.appointment_id),
        case when e.kind = 'refund' then t.canceled_on end
      )::text as "on"
    from (
      select (select count(*) from ${money} where ${money.membershipId} = ${membershipId})
        + (select count(*) from ${hours} where ${hours.membershipId} = ${membershipId}) as total,
        (select ${memberships.canceledOn} from ${memberships} where ${memberships.id} = ${membershipId}) as canceled_on
    ) t
    left join lateral (
      (select 'm' || ${money.id} as key, ${money.createdAt} as at, 'money' as ledger,
        ${money.kind}::text as kind, ${money.description} as description,
        ${money.amountCents} as amount_cents, ${money.balanceAfter} as balance_cents,
        null::integer as minutes, null::integer as minutes_balance, ${money.seq} as seq,
        ${money.periodStart} as period_start, ${money.appointmentId} as appointment_id
      from ${money} where ${money.membershipId} = ${membershipId})
      union all
      (select 'h' || ${hours.id}, ${hours.createdAt}, 'hours', ${hours.kind}::text, ${hours.note},
        null::integer, null::integer, ${hours.minutes}, ${hours.balanceAfter}, ${hours.seq},
        null::date, ${hours.appointmentId}
      from ${hours} where ${hours.membershipId} = ${membershipId})
      order by seq desc
      limit ${pageSize}
      offset (least(${asked}::integer, greatest(1, ceil(t.total::numeric / ${pageSize}::integer)::integer)) - 1) * ${pageSize}::integer
    ) e on true`);
  const rows = result.rows as StatementRow[];
  const total = Number(rows[0]?.total ?? 0);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const entries: StatementEntry[] = rows
    .filter((r) => r.key !== null)
    .map((r) => {
      const at = money.createdAt.mapFromDriverValue(r.at!) as Date;
      return {
        key: r.key!,
        at,
        on: r.on ?? businessNow(at).date,
        ledger: r.ledger!,
        kind: r.kind!,
        description: r.description!,
        amountCents: r.amount_cents,
        balanceCents: r.balance_cents,
        minutes: r.minutes,
        minutesBalance: r.minutes_balance,
      };
    });
  return { entries, page: Math.min(asked, pages), pages, total };
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
