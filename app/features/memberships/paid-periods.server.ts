import { and, eq, isNotNull } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { membershipMoneyLedger, memberships, type Membership } from "~/db/schema";
import { env } from "~/lib/env.server";
import { chargeForPeriod, type IsoDate } from "./bank";
import { MembershipRejectedError, NOT_FOUND } from "./errors.server";
import { applyRenewalChoice, lockMembership, postMinutes, postMoney } from "./ledger.server";
import type { PaymentMethod } from "./money.server";
import { formatCents } from "~/lib/money";
import { addDays, plainDate } from "~/lib/business-calendar";

/*
 * What a payment provider writes to a membership (ADR 054), each under the membership row's
 * lock like every ledger change, each ledger row carrying the provider's id it came from
 * (unique): a period paid (its charge, dated with the period, its hours, and the payment), a
 * failed payment ('Past due'), a refund paid back (to the card, or by hand: 'Mark refund paid').
 */

function termsOf(m: Membership) {
  return {
    monthlyPriceCents: m.monthlyPriceCents,
    minutesPerYear: m.minutesPerYear,
    visitsPerYear: m.visitsPerYear,
  };
}

export const PAYMENT_WAIT_MESSAGE =
  "Booking waits until the membership's payment is made: please update your card or call the office.";
/** The same wait for a membership the office collects by hand (no card to update). */
export const PAYMENT_WAIT_BY_HAND_MESSAGE =
  "Booking waits until the membership's balance is paid: please call the office to pay by check, cash or bank transfer.";

/**
 * Why a 'Past due' membership cannot book now (the grace period of PAST_DUE_GRACE_DAYS after it
 * went 'Past due', a failed card payment or a charge unpaid by hand, has run out), or null.
 */
export function bookingWaitsForPayment(m: Membership, today: IsoDate) {
  if (!m.pastDueSince) return null;
  if (addDays(m.pastDueSince, env().pastDueGraceDays) > today) return null;
  return m.paymentProvider ? PAYMENT_WAIT_MESSAGE : PAYMENT_WAIT_BY_HAND_MESSAGE;
}

async function alreadyPosted(tx: Tx, providerRef: string) {
  const [row] = await tx
    .select({ id: membershipMoneyLedger.id })
    .from(membershipMoneyLedger)
    .where(eq(membershipMoneyLedger.providerRef, providerRef))
    .limit(1);
  return Boolean(row);
}

/**
 * A billing period paid through the provider: the next period's charge (dated with the period),
 * the hours it buys, and the payment. `ref` is the invoice (monthly) or payment intent (annual):
 * posting the same one again changes nothing. Clears 'Past due'.
 */
export async function postPaidPeriod(
  tx: Tx,
  input: { membershipId: string; ref: string; amountPaidCents: number },
): Promise<"posted" | "already posted"> {
  const m = await lockMembership(tx, input.membershipId);
  if (!m) throw new MembershipRejectedError(NOT_FOUND);
  if (await alreadyPosted(tx, `${input.ref}:charge`)) return "already posted";
  // A renewal paid after 'Switch to monthly' is the first month (ADR 080).
  await applyRenewalChoice(tx, m, { cancelStops: false });
  const charge = chargeForPeriod(termsOf(m), m.billing, m.startDate, m.periodsCharged);
  const through = chargeForPeriod(termsOf(m), m.billing, m.startDate, m.periodsCharged + 1);
  const period = `${plainDate(charge.periodStart)} to the day before ${plainDate(through.periodStart)}`;
  await postMoney(tx, m, {
    kind: "membership_charge",
    amountCents: charge.amountCents,
    description: `${m.planName}, ${m.billing}: ${period}`,
    periodStart: charge.periodStart,
    providerRef: `${input.ref}:charge`,
  });
  await postMinutes(tx, m, {
    kind: "accrual",
    minutes: charge.minutes,
    note: `Hours paid for ${period}`,
  });
  if (input.amountPaidCents > 0) {
    await postMoney(tx, m, {
      kind: "payment",
      amountCents: -input.amountPaidCents,
      description: `Card payment for ${period}`,
      periodStart: charge.periodStart,
      paymentMethod: "card",
      reference: input.ref,
      providerRef: `${input.ref}:payment`,
    });
  }
  await tx
    .update(memberships)
    .set({ periodsCharged: m.periodsCharged + 1, pastDueSince: null })
    .where(eq(memberships.id, m.id));
  return "posted";
}

/** A card payment failed: 'Past due' from `today` (kept if it already was). */
export async function markPastDue(tx: Tx, membershipId: string, today: IsoDate) {
  const m = await lockMembership(tx, membershipId);
  if (!m) throw new MembershipRejectedError(NOT_FOUND);
  if (m.pastDueSince || m.status !== "active") return { membership: m, changed: false };
  const [updated] = await tx
    .update(memberships)
    .set({ pastDueSince: today })
    .where(eq(memberships.id, m.id))
    .returning();
  return { membership: updated, changed: true };
}

/**
 * A refund paid to the member (back to the card, or by check, cash or transfer): it settles the
 * credit the cancel wrote. `providerRef` (Stripe's refund id, or our refund's id for one paid by
 * hand) makes a repeat change nothing.
 */
export async function postRefundPaid(
  tx: Tx,
  input: {
    membershipId: string;
    amountCents: number;
    method: PaymentMethod;
    reference: string | null;
    providerRef: string;
    staffId?: string | null;
    /** Where it was made, when not by us ("Refund made in Stripe"). */
    madeIn?: string;
  },
): Promise<"posted" | "already posted"> {
  const m = await lockMembership(tx, input.membershipId);
  if (!m) throw new MembershipRejectedError(NOT_FOUND);
  if (await alreadyPosted(tx, input.providerRef)) return "already posted";
  const how = input.method === "card" ? "back to the card" : `by ${input.method.replace("_", " ")}`;
  await postMoney(tx, m, {
    kind: "refund_paid",
    amountCents: input.amountCents,
    description: `${input.madeIn ?? "Refund paid"} ${how}: ${formatCents(input.amountCents)}${input.reference ? ` (${input.reference})` : ""}`,
    paymentMethod: input.method,
    reference: input.reference,
    providerRef: input.providerRef,
    createdBy: input.staffId ?? null,
  });
  return "posted";
}

/** Card payments of a membership through the provider, newest first (what a refund goes back to). */
export async function providerPaymentsOf(tx: Tx, membershipId: string) {
  return tx
    .select({
      reference: membershipMoneyLedger.reference,
      amountCents: membershipMoneyLedger.amountCents,
    })
    .from(membershipMoneyLedger)
    .where(
      and(
        eq(membershipMoneyLedger.membershipId, membershipId),
        eq(membershipMoneyLedger.kind, "payment"),
        isNotNull(membershipMoneyLedger.providerRef),
      ),
    )
    .orderBy(membershipMoneyLedger.seq);
}

export const NOT_ANNUAL = "Only an active annual membership has a renewal to choose.";

/**
 * The member's choice for the next annual renewal: "monthly" ('Switch to monthly'), "cancel"
 * ('Cancel renewal'), or null (renew for another year, as by default). Applied on the renewal
 * date (applyRenewalChoice, and the renewal day's job for a cancel).
 */
export async function setRenewalChoice(
  tx: Tx,
  membershipId: string,
  choice: "monthly" | "cancel" | null,
) {
  const m = await lockMembership(tx, membershipId);
  if (!m || m.status !== "active" || m.billing !== "annual") {
    throw new MembershipRejectedError(NOT_ANNUAL);
  }
  const [updated] = await tx
    .update(memberships)
    .set({ renewalChoice: choice })
    .where(eq(memberships.id, m.id))
    .returning();
  return updated;
}
