import { and, desc, eq, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { membershipMoneyLedger, memberships, type Membership } from "~/db/schema";
import {
  chargeForPeriod,
  decideVisit,
  meterLabel,
  minutesPaidThisYear,
  hourlyRateLabel,
  membershipYear,
  monthlyVisitAllowance,
  refundSentText,
  spendLabel,
  type IsoDate,
  type VisitDecision,
} from "./bank";
import { type BankSummary } from "./types";
import {
  aheadSplitFor,
  termsOf,
  nextChargeDate,
  bringChargesUpToDate,
  minutesAheadFor,
} from "./ledger.server";
import { visitCounts, selfBookedLimit } from "./visit-minutes.server";
import { businessNow, plainDate } from "~/lib/business-calendar";

/* ---------- reading ---------- */

/** The customer's active membership, or else their latest one, or null. */
export async function currentMembership(customerId: string, database: DbOrTx = db()) {
  const [m] = await database
    .select()
    .from(memberships)
    .where(eq(memberships.customerId, customerId))
    .orderBy(sql`${memberships.status} = 'active' desc`, desc(memberships.createdAt))
    .limit(1);
  return m ?? null;
}

/**
 * A member's bank for pages and the booking summary: minutes left, visits left this membership
 * year and this calendar month (counted on `today`), renewal date. Posts charges due first.
 */
export async function memberBankSummary(
  customerId: string,
  today = businessNow().date,
): Promise<BankSummary | null> {
  let m = await currentMembership(customerId);
  if (!m) return null;
  if (m.status === "active" && nextChargeDate(m) <= today) {
    await bringChargesUpToDate(m.id, today);
    m = (await currentMembership(customerId))!;
  }
  return summarize(m, today);
}

async function summarize(m: Membership, today: IsoDate): Promise<BankSummary> {
  const summary = summaryOf(m, today, await visitCounts(db(), m, today));
  if (m.status === "active") return summary;
  // A canceled membership's page says each refund sent since (ADR 081).
  const paid = await db()
    .select({
      amountCents: membershipMoneyLedger.amountCents,
      method: membershipMoneyLedger.paymentMethod,
      reference: membershipMoneyLedger.reference,
      at: membershipMoneyLedger.createdAt,
    })
    .from(membershipMoneyLedger)
    .where(
      and(
        eq(membershipMoneyLedger.membershipId, m.id),
        eq(membershipMoneyLedger.kind, "refund_paid"),
      ),
    )
    .orderBy(membershipMoneyLedger.seq);
  return {
    ...summary,
    ...refundsSentOf(
      m,
      paid.map((r) => ({ ...r, at: r.at.toISOString() })),
    ),
  };
}

/** The refunds paid out on a membership, in words (ADR 081); nothing when none was sent. */
export function refundsSentOf(
  m: Membership,
  paid: { amountCents: number; method: string | null; reference: string | null; at: string }[],
): Pick<BankSummary, "refundsSent" | "refundSentInFull"> {
  if (!paid.length) return {};
  const total = paid.reduce((sum, r) => sum + r.amountCents, 0);
  return {
    refundsSent: paid.map((r) =>
      refundSentText(r.amountCents, r.method, r.reference, businessNow(new Date(r.at)).date),
    ),
    refundSentInFull: !!m.settlement && total >= m.settlement.resultCents,
  };
}

/**
 * An active membership's hours in the Plan tab's meter words (ADR 057, 081), for e-mails:
 * '7 h paid, 2 h left now; 3 h 30 min more on December 18', or '1 h 27 min paid, 18 min booked
 * ahead of payment; ...'.
 */
export function meterTextOf(m: Membership, today: IsoDate) {
  const terms = termsOf(m);
  const next = chargeForPeriod(terms, m.billing, m.startDate, m.periodsCharged);
  return meterLabel({
    paidMinutes: minutesPaidThisYear({
      terms,
      billing: m.billing,
      startDate: m.startDate,
      periodsCharged: m.periodsCharged,
      today,
    }),
    minutesLeft: m.minutesAvailable,
    next: m.status === "active" ? { date: next.periodStart, minutes: next.minutes } : null,
    today,
  });
}

/** The bank summary of a membership row, given its visit counts for `today`'s year and month. */
export function summaryOf(
  m: Membership,
  today: IsoDate,
  counts: { thisYear: number; thisMonth: number },
): BankSummary {
  const year = membershipYear(m.startDate, today < m.startDate ? m.startDate : today);
  const allowance = monthlyVisitAllowance(m.visitsPerYear);
  const terms = termsOf(m);
  const next = chargeForPeriod(terms, m.billing, m.startDate, m.periodsCharged);
  const paidMinutes = minutesPaidThisYear({
    terms,
    billing: m.billing,
    startDate: m.startDate,
    periodsCharged: m.periodsCharged,
    today,
  });
  return {
    membershipId: m.id,
    customerId: m.customerId,
    plan: m.plan,
    planName: m.planName,
    billing: m.billing,
    status: m.status,
    startDate: m.startDate,
    canceledOn: m.canceledOn,
    renewsOn: year.renewsOn,
    minutesLeft: m.minutesAvailable,
    minutesPerYear: m.minutesPerYear,
    paidMinutes,
    meterLabel:
      m.status === "active"
        ? meterLabel({
            paidMinutes,
            minutesLeft: m.minutesAvailable,
            next: { date: next.periodStart, minutes: next.minutes },
            today,
          })
        : `Canceled on ${plainDate(m.canceledOn ?? m.startDate)}: settled as below`,
    settlement: m.settlement ?? null,
    visitsPerYear: m.visitsPerYear,
    visitsLeftThisYear: Math.max(0, m.visitsPerYear - counts.thisYear),
    monthlyAllowance: allowance,
    visitsLeftThisMonth: Math.max(0, allowance - counts.thisMonth),
    hourlyRate: hourlyRateLabel(termsOf(m)),
    balanceCents: m.balanceCents,
    monthlyPriceCents: m.monthlyPriceCents,
  };
}

export type VisitSpend = {
  decision: VisitDecision;
  minutesLeft: number;
  /** 'Uses 1 h 45 min of 12 h 15 min left', 'Extra visit: $150' or why it cannot be booked. */
  label: string;
  /** For an extra visit: why it is one. */
  reason: string | null;
};

/**
 * What a visit on `date` of `block` minutes would spend, shown before anyone confirms it (the
 * same rule reserveVisitMinutes applies inside the booking transaction). Null: not a member.
 */
export async function visitSpend(
  customerId: string,
  input: {
    date: IsoDate;
    block: number;
    asExtra?: boolean;
    excludeAppointmentId?: string;
    /** The member is booking it themselves (the online limit on extra visits applies). */
    byMember?: boolean;
  },
  today = businessNow().date,
): Promise<VisitSpend | null> {
  const [m] = await db()
    .select()
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active")));
  if (!m) return null;
  if (nextChargeDate(m) <= today) await bringChargesUpToDate(m.id, today);
  const [fresh] = await db().select().from(memberships).where(eq(memberships.id, m.id));
  const counts = await visitCounts(db(), fresh, input.date, input.excludeAppointmentId);
  const decision = decideVisit({
    terms: termsOf(fresh),
    minutesAvailable: fresh.minutesAvailable,
    minutesAhead: minutesAheadFor(fresh, input.date),
    block: input.block,
    counts,
    asExtra: input.asExtra,
    selfBooked: input.byMember
      ? await selfBookedLimit(db(), fresh, input.date, input.excludeAppointmentId)
      : undefined,
  });
  return {
    decision,
    minutesLeft: fresh.minutesAvailable,
    label: spendLabel(decision, fresh.minutesAvailable, {
      ...aheadSplitFor(fresh, input.date),
      visitDate: input.date,
    }),
    reason: decision.kind === "extra" ? decision.reason : null,
  };
}
