import { and, asc, eq, exists, ne, sql, type SQL } from "drizzle-orm";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import { rowsOf } from "~/db/rows";
import {
  appointments,
  membershipMoneyLedger,
  memberships,
  membershipVisits,
  type Membership,
} from "~/db/schema";
import { hourlyRateLabel } from "./bank";
import {
  quoteCancellation,
  settleCancellation,
  type CancellationQuote,
  type LedgerItem,
  type Settlement,
} from "./settlement";
import { claimActionKey } from "~/lib/action-keys.server";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { mailMembershipCanceled } from "./emails.server";
import { MembershipRejectedError, NOT_FOUND } from "./errors.server";
import {
  type Actor,
  lockMembership,
  postMinutes,
  postMoney,
  termsOf,
  postChargesDue,
  bringChargesUpToDate,
} from "./ledger.server";
import { withdrawWaitingParts } from "./parts.server";
import { reverseSecondHandyman } from "./second-handyman-fee.server";
import { releaseHeld } from "./visit-minutes.server";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { businessNow } from "~/lib/business-calendar";

/* ---------- cancel ---------- */

/** Future visits of a membership still holding minutes or an extra-visit charge. */
async function futureVisits(database: DbOrTx, membershipId: string, now = businessNow()) {
  return database
    .select({
      appointmentId: membershipVisits.appointmentId,
      blockMinutes: membershipVisits.blockMinutes,
      isExtra: membershipVisits.isExtra,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(
      and(
        eq(membershipVisits.membershipId, membershipId),
        eq(membershipVisits.status, "reserved"),
        eq(appointments.status, "booked"),
        sql`(${appointments.scheduledDate} > ${now.date} or (${appointments.scheduledDate} = ${now.date} and ${appointments.startTime} > ${now.time}))`,
      ),
    )
    .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime));
}

async function chargesTotal(database: DbOrTx, membershipId: string) {
  const [row] = await database
    .select({
      total: sql<number>`coalesce(sum(${membershipMoneyLedger.amountCents}), 0)`.mapWith(Number),
    })
    .from(membershipMoneyLedger)
    .where(
      and(
        eq(membershipMoneyLedger.membershipId, membershipId),
        eq(membershipMoneyLedger.kind, "membership_charge"),
      ),
    );
  return row?.total ?? 0;
}

/**
 * The guarantee is the first membership's, of the customer and of the home (ADR 059): any
 * membership of either that began earlier takes it away.
 */
async function guaranteeApplies(database: DbOrTx, m: Membership) {
  // The customer's and the home's each by its index: one condition with `or` read every
  // membership there is (ADR 109).
  const earlierOf = (match: SQL) =>
    database
      .select({ id: memberships.id })
      .from(memberships)
      .where(
        and(
          match,
          ne(memberships.id, m.id),
          sql`(${memberships.startDate}, ${memberships.createdAt}) < (${m.startDate}, ${m.createdAt})`,
        ),
      );
  const [row] = rowsOf<{ earlier: boolean }>(
    await database.execute(
      sql`select ${exists(earlierOf(eq(memberships.customerId, m.customerId)))} or ${exists(earlierOf(eq(memberships.homeId, m.homeId)))} as earlier`,
    ),
  );
  return !row.earlier;
}

/** The money ledger oldest first, each item with the date it belongs to (its period or visit). */
async function ledgerItems(database: DbOrTx, membershipId: string): Promise<LedgerItem[]> {
  return database
    .select({
      kind: membershipMoneyLedger.kind,
      amountCents: membershipMoneyLedger.amountCents,
      date: sql<
        string | null
      >`coalesce(${membershipMoneyLedger.periodStart}, ${appointments.scheduledDate})::text`,
      description: membershipMoneyLedger.description,
      periodStart: membershipMoneyLedger.periodStart,
      appointmentId: membershipMoneyLedger.appointmentId,
      partId: membershipMoneyLedger.partId,
      fromProvider: sql<boolean>`${membershipMoneyLedger.providerRef} is not null`,
    })
    .from(membershipMoneyLedger)
    .leftJoin(appointments, eq(appointments.id, membershipMoneyLedger.appointmentId))
    .where(eq(membershipMoneyLedger.membershipId, membershipId))
    .orderBy(asc(membershipMoneyLedger.seq));
}

/**
 * What of a refund can go back to a card (ADR 054, 081): a membership Stripe collects, while
 * Stripe is the payment provider, refunds to the card payments Stripe took, at most what they
 * came to; anything else (manual mode, payments by check, cash or transfer) the office sends.
 */
function cardRefundable(m: Membership, ledger: LedgerItem[]) {
  // Cards are refunded only where the card processor is set up (its settings: ADR 056).
  if (m.paymentProvider !== "stripe" || !env().stripe) return 0;
  return ledger.reduce(
    (sum, i) => (i.kind === "payment" && i.fromProvider ? sum - i.amountCents : sum),
    0,
  );
}

/**
 * The cancellation of `m` on `cancelDate` from what was read of it: the quote and its
 * settlement line by line (ADR 058). The one computation behind the cancel dialog (membership
 * page, its figures read in one query) and the cancel itself (read in the cancel's transaction).
 */
export function cancellationOf(
  m: Membership,
  cancelDate: string,
  read: {
    guaranteeApplies: boolean;
    /** The minutes the future visits hold, back to the bank when they are canceled. */
    releasedMinutes: number;
    chargesCents: number;
    ledger: LedgerItem[];
    /** The upcoming extra visits the cancel reverses (appointment ids). */
    extraVisitsReversed: string[];
    /** Every upcoming visit the cancel ends (appointment ids): their second handyman's fees. */
    visitsEnded: string[];
  },
) {
  const { guaranteeDays, refundCheckDays } = business();
  const quote = quoteCancellation({
    terms: termsOf(m),
    startDate: m.startDate,
    cancelDate,
    guaranteeDays,
    guaranteeApplies: read.guaranteeApplies,
    minutesLeft: m.minutesAvailable + read.releasedMinutes,
    membershipChargesCents: read.chargesCents,
  });
  const settlement = settleCancellation({
    quote,
    billing: m.billing,
    guaranteeDays,
    ledger: read.ledger,
    extraVisitsReversed: read.extraVisitsReversed,
    feesReversed: read.visitsEnded,
    cardRefundableCents: cardRefundable(m, read.ledger),
    refundCheckDays,
  });
  return { quote, settlement };
}

async function quoteFor(database: DbOrTx, m: Membership, now = businessNow()) {
  const future = await futureVisits(database, m.id, now);
  const { quote, settlement } = cancellationOf(m, now.date, {
    guaranteeApplies: await guaranteeApplies(database, m),
    releasedMinutes: future.reduce((sum, v) => sum + (v.isExtra ? 0 : v.blockMinutes), 0),
    chargesCents: await chargesTotal(database, m.id),
    ledger: await ledgerItems(database, m.id),
    extraVisitsReversed: future.filter((v) => v.isExtra).map((v) => v.appointmentId),
    visitsEnded: future.map((v) => v.appointmentId),
  });
  return { quote, settlement, futureVisits: future };
}

export type CancellationPreview = CancellationQuote & {
  futureVisitCount: number;
  hourlyRate: string;
  guaranteeDays: number;
  settlement: Settlement;
};

/**
 * What canceling now would settle, computed exactly as cancelMembership will (after posting the
 * charges due): shown in the confirmation dialog before anyone confirms.
 */
export async function previewCancellation(
  membershipId: string,
  now = businessNow(),
): Promise<CancellationPreview | null> {
  await bringChargesUpToDate(membershipId, now.date);
  const [m] = await db().select().from(memberships).where(eq(memberships.id, membershipId));
  if (!m || m.status !== "active") return null;
  const { quote, settlement, futureVisits: future } = await quoteFor(db(), m, now);
  return {
    ...quote,
    settlement,
    futureVisitCount: future.length,
    hourlyRate: hourlyRateLabel(termsOf(m)),
    guaranteeDays: business().guaranteeDays,
  };
}

export function refundSentence(quote: CancellationQuote, hourlyRate: string, days: number) {
  if (quote.rule === "guarantee") {
    return `Within the ${days}-day guarantee: every membership charge is refunded in full, ${formatCents(quote.refundCents)}.`;
  }
  return `Unused hours refunded: ${hoursText(quote.minutesRefunded)} at ${hourlyRate}, ${formatCents(quote.refundCents)}.`;
}

/**
 * What a cancel does outside the memberships feature, given by the workflow that composes it
 * (app/workflows/cancel-membership.server.ts, ADR 090): this feature imports neither visits nor
 * the payments' queues.
 */
export type CancelEffects = {
  /** Cancels a future visit whose minutes were just released, and withdraws its calendar entry. */
  endVisit(tx: Tx, appointmentId: string, actorId: string): Promise<void>;
  /** Queues what the business owes: back to the card, or listed under 'Refunds to pay'. */
  queueRefund(
    tx: Tx,
    refund: { membershipId: string; customerId: string; amountCents: number; byCard: boolean },
  ): Promise<unknown>;
  /** Queues the end of the card processor's subscription. */
  queueSubscriptionEnd(tx: Tx, subscriptionId: string): Promise<unknown>;
};

/**
 * Cancels an active membership, by the member (their own only: pass `customerId`) or by staff.
 * Future visits are canceled (their minutes return first, their calendar entries withdrawn by
 * an .ics METHOD:CANCEL e-mail), then the refund is computed as the dialog showed it and
 * written to both ledgers, and the member gets an e-mail. Null when the form's `key` was
 * already applied.
 */
export async function settleMembershipCancel(
  input: { membershipId: string; customerId?: string; key?: string },
  actor: Actor,
  effects: CancelEffects,
  now = businessNow(),
): Promise<CancelResult | null> {
  const result = await db().transaction(async (tx): Promise<CancelResult | null> => {
    const m = await lockMembership(tx, input.membershipId);
    if (!m || (input.customerId && m.customerId !== input.customerId)) {
      throw new MembershipRejectedError(NOT_FOUND);
    }
    // The cancel form's key (ADR 048): the same form sent twice cancels once and is answered
    // as applied; the membership's lock makes a concurrent second post wait for the first.
    if (input.key) {
      const fresh = await claimActionKey(tx, {
        key: input.key,
        actorId: actor.id,
        action: `cancel:${m.id}`,
      });
      if (!fresh) return null;
    }
    if (m.status !== "active")
      throw new MembershipRejectedError("This membership is already canceled.");
    await postChargesDue(tx, m, now.date);
    const { quote, settlement, futureVisits: future } = await quoteFor(tx, m, now);
    for (const visit of future) {
      const [held] = await tx
        .select()
        .from(membershipVisits)
        .where(eq(membershipVisits.appointmentId, visit.appointmentId))
        .for("update");
      await releaseHeld(tx, m, held, actor.id, "canceled");
      // Its second handyman's fee back, once, as the settlement counted it (ADR 099).
      await reverseSecondHandyman(tx, visit.appointmentId, actor.id, "canceled", m);
      await effects.endVisit(tx, visit.appointmentId, actor.id);
    }
    // Parts still waiting are withdrawn: nobody is asked to approve a part for a visit
    // canceled with the membership, and no report counts them pending.
    await withdrawWaitingParts(
      tx,
      m.id,
      future.map((v) => v.appointmentId),
    );
    const hourlyRate = hourlyRateLabel(termsOf(m));
    if (quote.minutesRefunded > 0) {
      await postMinutes(tx, m, {
        kind: "refund",
        minutes: -quote.minutesRefunded,
        note: `Membership canceled: ${hoursText(quote.minutesRefunded)} unused`,
        createdBy: actor.id,
      });
    }
    if (quote.refundCents > 0) {
      await postMoney(tx, m, {
        kind: "refund",
        amountCents: -quote.refundCents,
        description:
          quote.rule === "guarantee"
            ? `Refund: ${business().guaranteeDays}-day guarantee, membership charges in full`
            : `Refund: ${hoursText(quote.minutesRefunded)} unused at ${hourlyRate}`,
        createdBy: actor.id,
      });
    }
    if (quote.owedCents > 0) {
      // Hours used before they were paid (booked ahead, ADR 057): the bank back to zero, the
      // hours charged at the plan's rate.
      await postMinutes(tx, m, {
        kind: "correction",
        minutes: quote.minutesOwed,
        note: `Membership canceled: ${hoursText(quote.minutesOwed)} used before they were paid`,
        createdBy: actor.id,
      });
      await postMoney(tx, m, {
        kind: "correction",
        amountCents: quote.owedCents,
        description: `Hours used before they were paid: ${hoursText(quote.minutesOwed)} at ${hourlyRate}`,
        createdBy: actor.id,
      });
    }
    if (m.balanceCents !== -settlement.resultCents) {
      // The settlement is the ledger's own arithmetic; a difference is a bug: write nothing.
      throw new Error(
        `settlement ${settlement.resultCents} does not match the balance ${m.balanceCents}`,
      );
    }
    // What the business owes once everything is netted (the settlement's result): back to the
    // card (Stripe) or listed under 'Refunds to pay' (ADR 054).
    if (m.balanceCents < 0) {
      await effects.queueRefund(tx, {
        membershipId: m.id,
        customerId: m.customerId,
        amountCents: -m.balanceCents,
        byCard: m.paymentProvider === "stripe",
      });
    }
    // Stripe stops billing it: its subscription is canceled by a job (ADR 080).
    if (m.stripeSubscriptionId) await effects.queueSubscriptionEnd(tx, m.stripeSubscriptionId);
    const [canceled] = await tx
      .update(memberships)
      .set({
        status: "canceled",
        canceledOn: now.date,
        canceledAt: new Date(),
        canceledBy: actor.id,
        settlement,
      })
      .where(eq(memberships.id, m.id))
      .returning();
    await mailMembershipCanceled(tx, canceled, {
      ...quote,
      settlement,
      sentence: refundSentence(quote, hourlyRate, business().guaranteeDays),
      visitsCanceled: future.length,
    });
    return { quote, settlement, membership: canceled, visitsCanceled: future.length };
  });
  return result;
}

export type CancelResult = {
  quote: CancellationQuote;
  settlement: Settlement;
  membership: Membership;
  visitsCanceled: number;
};

export const NO_ACTIVE_MEMBERSHIP = "You have no active membership to cancel.";

/** The customer's active membership, or null. */
export async function activeMembershipOf(customerId: string) {
  const [active] = await db()
    .select({ id: memberships.id })
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active")));
  return active ?? null;
}
