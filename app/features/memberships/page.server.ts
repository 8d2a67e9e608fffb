import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import {
  appointments,
  membershipMoneyLedger,
  membershipParts,
  memberships,
  membershipVisits,
  type Membership,
} from "~/db/schema";
import { business } from "~/lib/business.server";
import { hourlyRateLabel, membershipYear, type IsoDate } from "./bank";
import { type LedgerItem } from "./settlement";
import { cancellationOf, type CancellationPreview } from "./cancel.server";
import { bringChargesUpToDate, nextChargeDate, termsOf } from "./ledger.server";
import { statementPageJsonSql, statementPageOf, type StatementEntry } from "./statement.server";
import { currentMembership, refundsSentOf, summaryOf } from "./summary.server";
import type { BankSummary, PartRow } from "./types";
import { calendarMonth, businessNow } from "~/lib/business-calendar";

/* ---------- a membership page, read at once ---------- */

/**
 * What a membership page shows beside the membership row, in one read (ADR 066): the bank
 * visits counted in `now`'s membership year and calendar month (as visitCounts), the future
 * visits still holding minutes or a charge and the minutes they hold (as futureVisits), the
 * membership charges so far (as chargesTotal), and the statement's page (as
 * membershipStatementPage reads it, ADR 103).
 */
function prepareFigures(database: Database) {
  const p = (name: string) => sql.placeholder(name);
  // The membership's id as a one-row subquery: its value hidden from the planner, the plan is
  // the same for every membership, so the database keeps one generic plan instead of planning
  // the statement again on each page (planning took as long as running it, ADR 103).
  const id = sql`(select ${p("id")}::uuid)`;
  const counted = sql`${membershipVisits.status} <> 'released' and not ${membershipVisits.isExtra}`;
  const future = sql`${membershipVisits.status} = 'reserved' and ${appointments.status} = 'booked' and (${appointments.scheduledDate} > ${p("today")} or (${appointments.scheduledDate} = ${p("today")} and ${appointments.startTime} > ${p("time")}))`;
  return database
    .select({
      thisYear:
        sql<number>`count(*) filter (where ${counted} and ${appointments.scheduledDate} between ${p("yearFirst")} and ${p("yearLast")})`.mapWith(
          Number,
        ),
      thisMonth:
        sql<number>`count(*) filter (where ${counted} and ${appointments.scheduledDate} between ${p("monthFirst")} and ${p("monthLast")})`.mapWith(
          Number,
        ),
      futureVisits: sql<number>`count(*) filter (where ${future})`.mapWith(Number),
      futureIds: sql<
        string[]
      >`coalesce(json_agg(${membershipVisits.appointmentId}) filter (where ${future}), '[]'::json)`,
      futureExtras: sql<
        string[]
      >`coalesce(json_agg(${membershipVisits.appointmentId}) filter (where ${future} and ${membershipVisits.isExtra}), '[]'::json)`,
      futureMinutes:
        sql<number>`coalesce(sum(${membershipVisits.blockMinutes}) filter (where ${future} and not ${membershipVisits.isExtra}), 0)`.mapWith(
          Number,
        ),
      // No earlier membership of the customer, nor of the home (each found by its index: one
      // condition with `or` read every membership there is, ADR 109).
      guaranteeApplies: sql<boolean>`not exists (select 1 from ${memberships} me join ${memberships} o on o.customer_id = me.customer_id where me.id = ${id} and o.id <> me.id and (o.start_date, o.created_at) < (me.start_date, me.created_at))
        and not exists (select 1 from ${memberships} me join ${memberships} o on o.home_id = me.home_id where me.id = ${id} and o.id <> me.id and (o.start_date, o.created_at) < (me.start_date, me.created_at))`,
      // The money ledger oldest first, each item with its period or its visit's day, as
      // cancel.server.ts's ledgerItems reads it: the settlement's items (ADR 058).
      ledger: sql<
        LedgerItem[]
      >`(select coalesce(json_agg(json_build_object('kind', ${membershipMoneyLedger.kind}, 'amountCents', ${membershipMoneyLedger.amountCents}, 'date', coalesce(${membershipMoneyLedger.periodStart}, ${appointments.scheduledDate})::text, 'description', ${membershipMoneyLedger.description}, 'periodStart', ${membershipMoneyLedger.periodStart}::text, 'appointmentId', ${membershipMoneyLedger.appointmentId}, 'partId', ${membershipMoneyLedger.partId}, 'fromProvider', ${membershipMoneyLedger.providerRef} is not null) order by ${membershipMoneyLedger.seq}), '[]'::json) from ${membershipMoneyLedger} left join ${appointments} on ${appointments.id} = ${membershipMoneyLedger.appointmentId} where ${membershipMoneyLedger.membershipId} = ${id})`,
      // The parts, newest first, with their visit's day, as membershipPartsList reads them.
      parts: sql<
        (Omit<PartRow, "createdAt"> & { createdAt: string })[]
      >`(select coalesce(json_agg(json_build_object('id', ${membershipParts.id}, 'appointmentId', ${membershipParts.appointmentId}, 'description', ${membershipParts.description}, 'costCents', ${membershipParts.costCents}, 'needsApproval', ${membershipParts.needsApproval}, 'status', ${membershipParts.status}, 'scheduledDate', ${appointments.scheduledDate}, 'createdAt', ${membershipParts.createdAt}, 'hasReceipt', ${membershipParts.receiptPath} is not null) order by ${membershipParts.createdAt} desc), '[]'::json) from ${membershipParts} inner join ${appointments} on ${appointments.id} = ${membershipParts.appointmentId} where ${membershipParts.membershipId} = ${id})`,
      // The refunds paid out (a canceled membership's page says each was sent, ADR 081).
      refundsPaid: sql<
        { amountCents: number; method: string | null; reference: string | null; at: string }[]
      >`(select coalesce(json_agg(json_build_object('amountCents', ${membershipMoneyLedger.amountCents}, 'method', ${membershipMoneyLedger.paymentMethod}, 'reference', ${membershipMoneyLedger.reference}, 'at', ${membershipMoneyLedger.createdAt}) order by ${membershipMoneyLedger.seq}), '[]'::json) from ${membershipMoneyLedger} where ${membershipMoneyLedger.membershipId} = ${id} and ${membershipMoneyLedger.kind} = 'refund_paid')`,
      charges:
        sql<number>`(select coalesce(sum(${membershipMoneyLedger.amountCents}), 0) from ${membershipMoneyLedger} where ${membershipMoneyLedger.membershipId} = ${id} and ${membershipMoneyLedger.kind} = 'membership_charge')`.mapWith(
          Number,
        ),
      statement: statementPageJsonSql(id, p("page"), p("pageSize")),
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(eq(membershipVisits.membershipId, id))
    .prepare("membership_figures");
}

async function membershipFigures(
  m: Membership,
  now: { date: IsoDate; time: string },
  statementPage: number,
  pageSize: number,
) {
  const year = membershipYear(m.startDate, now.date);
  const month = calendarMonth(now.date);
  const page = Math.max(1, Math.floor(statementPage));
  const [row] = await prepared("membership_figures", prepareFigures).execute({
    id: m.id,
    page,
    pageSize,
    today: now.date,
    time: now.time,
    yearFirst: year.first,
    yearLast: year.last,
    monthFirst: month.first,
    monthLast: month.last,
  });
  return {
    counts: { thisYear: row?.thisYear ?? 0, thisMonth: row?.thisMonth ?? 0 },
    futureVisits: row?.futureVisits ?? 0,
    futureExtras: row?.futureExtras ?? [],
    futureIds: row?.futureIds ?? [],
    guaranteeApplies: row?.guaranteeApplies ?? true,
    futureMinutes: row?.futureMinutes ?? 0,
    charges: row?.charges ?? 0,
    ledger: row?.ledger ?? [],
    refundsPaid: row?.refundsPaid ?? [],
    parts: (row?.parts ?? []).map((part) => ({ ...part, createdAt: new Date(part.createdAt) })),
    statement: statementPageOf(
      row?.statement.rows ?? [],
      Number(row?.statement.total ?? 0),
      page,
      pageSize,
    ),
  };
}

export type MembershipPage = {
  summary: BankSummary;
  /** The entries of the page shown, newest first. */
  statement: StatementEntry[];
  statementPage: { page: number; pages: number; total: number };
  parts: PartRow[];
  /** What canceling now would refund (an active membership only). */
  cancel: CancellationPreview | null;
};

/**
 * A customer's membership (their active one, or else their latest) as its pages show it: the
 * bank summary (charges due posted first), one page of the statement, the parts, and for an
 * active membership what canceling now would refund. The same figures as memberBankSummary,
 * membershipStatement and previewCancellation, in two reads however long the history: the
 * membership, and its figures (with the parts, the money ledger the cancellation's settlement
 * needs item by item, ADR 058, and the statement's page: ADR 066, 067, 103). A caller that read the
 * current membership already (the dashboard shares it with the payments panel) passes it, and
 * the membership is not read again. Null: no membership.
 */
export async function membershipPage(
  customerId: string,
  statementPage: number,
  pageSize: number,
  now = businessNow(),
  /** The customer's current membership when the caller has read it already (null: none). */
  current?: Membership | null,
): Promise<MembershipPage | null> {
  let m = current === undefined ? await currentMembership(customerId) : current;
  if (!m) return null;
  if (m.status === "active" && nextChargeDate(m) <= now.date) {
    await bringChargesUpToDate(m.id, now.date);
    m = (await currentMembership(customerId))!;
  }
  const active = m.status === "active";
  const figures = await membershipFigures(m, now, statementPage, pageSize);
  const { parts, statement } = figures;
  let cancel: CancellationPreview | null = null;
  if (active) {
    const { quote, settlement } = cancellationOf(m, now.date, {
      guaranteeApplies: figures.guaranteeApplies,
      releasedMinutes: figures.futureMinutes,
      chargesCents: figures.charges,
      ledger: figures.ledger,
      extraVisitsReversed: figures.futureExtras,
      visitsEnded: figures.futureIds,
    });
    cancel = {
      ...quote,
      settlement,
      futureVisitCount: figures.futureVisits,
      hourlyRate: hourlyRateLabel(termsOf(m)),
      guaranteeDays: business().guaranteeDays,
    };
  }
  return {
    summary: {
      ...summaryOf(m, now.date, figures.counts),
      ...refundsSentOf(m, figures.refundsPaid),
    },
    statement: statement.entries,
    statementPage: { page: statement.page, pages: statement.pages, total: statement.total },
    parts,
    cancel,
  };
}
