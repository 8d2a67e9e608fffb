import { eq } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { membershipOffers, memberships, paymentSchedule } from "~/db/schema";
import { alertOffice, readPersonName } from "~/features/notifications/index.server";
import { logger } from "~/lib/logger.server";
import { paymentProvider } from "./provider.server";
import { scheduleOnce } from "./schedule-once.server";
import { formatCents } from "~/lib/money";

/*
 * One Checkout per offer (issue 39): 'Start membership' reuses the offer's open session, but a
 * member can still pay twice (two tabs opened before the first was paid, a session from an
 * older attempt). What paid the offer first starts the membership; a second subscription or
 * payment for the same offer is never posted: a job cancels the subscription and refunds the
 * payment in full through Stripe (each call with its own idempotency key), then tells the office.
 */

/** What paid an offer: its subscription, or the payment intent of a one-time payment. */
export function paidByOf(payment: {
  subscriptionId: string | null;
  paymentIntentId: string | null;
}) {
  return payment.subscriptionId ?? payment.paymentIntentId;
}

/**
 * Whether `paidBy` is a second payment of an offer another one already started (locks the
 * offer's row, like acceptOffer, in the caller's transaction).
 */
export async function paidTwice(tx: Tx, offerId: string, paidBy: string | null) {
  if (!paidBy) return false;
  const [offer] = await tx
    .select()
    .from(membershipOffers)
    .where(eq(membershipOffers.id, offerId))
    .for("update");
  if (!offer || offer.status !== "accepted" || !offer.membershipId) return false;
  let first = offer.paidBy;
  if (!first) {
    // Accepted before offers recorded what paid them: the membership's subscription says.
    const [m] = await tx
      .select({ subscriptionId: memberships.stripeSubscriptionId })
      .from(memberships)
      .where(eq(memberships.id, offer.membershipId));
    first = m?.subscriptionId ?? null;
  }
  return Boolean(first) && first !== paidBy;
}

export type DuplicatePayment = {
  offerId: string;
  subscriptionId: string | null;
  paymentIntentId: string | null;
  /** The invoice or payment intent that was paid (to find its payment intent if need be). */
  ref: string;
  amountCents: number;
};

/** Plans the refund of a second payment of an offer, once per subscription or payment. */
export async function queueDuplicateRefund(tx: Tx, duplicate: DuplicatePayment) {
  const paidBy = paidByOf(duplicate) ?? duplicate.ref;
  await scheduleOnce(tx, {
    key: `duplicate:${paidBy}`,
    kind: "duplicate",
    dueAt: new Date(),
    payload: { ...duplicate },
  });
  logger.warn({ ...duplicate }, "an offer was paid twice: the second payment is refunded");
}

/** The job: cancel the second subscription, refund its payment in full, tell the office. */
export async function refundDuplicate(key: string, duplicate: DuplicatePayment) {
  const provider = paymentProvider();
  if (duplicate.subscriptionId) await provider.cancelSubscription(duplicate.subscriptionId);
  const intent =
    duplicate.paymentIntentId ??
    (duplicate.ref ? (await provider.payment(duplicate.ref)).paymentIntentId : null);
  const refund = intent
    ? await provider.refund({
        paymentIntentId: intent,
        idempotencyKey: `duplicate-${paidByOf(duplicate) ?? duplicate.ref}`,
        source: "duplicate",
      })
    : null;
  await db().transaction(async (tx) => {
    const [done] = await tx
      .update(paymentSchedule)
      .set({ doneAt: new Date() })
      .where(eq(paymentSchedule.key, key))
      .returning({ doneAt: paymentSchedule.doneAt });
    if (!done) return;
    const [offer] = await tx
      .select({ customerId: membershipOffers.customerId })
      .from(membershipOffers)
      .where(eq(membershipOffers.id, duplicate.offerId));
    const name = offer ? await readPersonName(tx, offer.customerId) : "A customer";
    await alertOffice(tx, {
      subject: `Paid twice, refunded: ${name}`,
      lines: [
        `${name} paid the membership offer a second time (${duplicate.ref}, ${formatCents(duplicate.amountCents)}). Only the first payment counts: one membership, one period posted.`,
        refund
          ? `The second payment was refunded in full to the card (${refund.id}, ${formatCents(refund.amountCents)}).`
          : "No card payment was found to refund: check it in Stripe.",
        ...(duplicate.subscriptionId
          ? [`The second subscription (${duplicate.subscriptionId}) was canceled in Stripe.`]
          : []),
      ],
      staffPath: offer ? `/employee/customers/${offer.customerId}/membership` : "/employee",
      customerName: name,
    });
  });
}
