import { eq } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { paymentEvents, type Membership } from "~/db/schema";
import { markPastDue, postPaidPeriod } from "~/features/memberships/index.server";
import {
  alertOffice,
  readPersonName,
  paymentFailedText,
  textCustomer,
} from "~/features/notifications/index.server";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { paidByOf, paidTwice, queueDuplicateRefund } from "./duplicates.server";
import { acceptOffer } from "./offers.server";
import { postRefundsMadeInStripe } from "./refunds.server";
import { membershipForPayment } from "./reconcile-apply.server";
import { mailMember } from "./messages.server";
import { paymentProvider, type ProviderPayment } from "./provider.server";
import { businessNow } from "~/lib/business-calendar";

/*
 * Applying a stored Stripe event (ADR 054), run by its job. The event only says which object
 * changed: the object is read again from Stripe, so events arriving out of order, late or twice
 * all apply the current state. The event's row is locked and marked processed in the same
 * transaction as what it writes, and every ledger row carries Stripe's id (unique): an event is
 * applied once, and two events about the same invoice post it once.
 */

export const HANDLED_EVENTS = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "invoice.paid",
  "invoice.payment_succeeded",
  "invoice.payment_failed",
  "invoice.payment_action_required",
  "charge.refunded",
  "charge.refund.updated",
  "refund.created",
  "refund.updated",
] as const;

type Applied = (tx: Tx) => Promise<string>;

async function postPayment(tx: Tx, m: Membership, payment: ProviderPayment) {
  const result = await postPaidPeriod(tx, {
    membershipId: m.id,
    ref: payment.id,
    amountPaidCents: payment.amountPaidCents,
  });
  return `${payment.id}: ${result}`;
}

async function tellPastDue(
  tx: Tx,
  m: Membership,
  payment: ProviderPayment,
  needsAuthentication = false,
) {
  const name = await readPersonName(tx, m.customerId);
  const graceDays = env().pastDueGraceDays;
  // The bank asked the member to confirm the payment (strong customer authentication): it can
  // only be done by them, on the invoice's own page.
  const confirmUrl = needsAuthentication ? payment.hostedUrl : null;
  await mailMember(tx, m.customerId, {
    subject: confirmUrl
      ? "Please confirm your membership payment"
      : "Your membership payment did not go through",
    heading: "Your membership is Past due",
    lines: confirmUrl
      ? [
          `Your bank asks you to confirm the card payment for your ${m.planName} membership. Until then your membership is 'Past due'.`,
          `Confirm the payment on Stripe's secure page: ${confirmUrl}`,
          `After ${graceDays} days, booking waits until the payment is made.`,
        ]
      : [
          `The card payment for your ${m.planName} membership did not go through. Your membership is 'Past due'.`,
          `Your card will be tried again. Please update your card: after ${graceDays} days, booking waits until the payment is made.`,
        ],
    action: "Update card",
  });
  await textCustomer(tx, {
    recipientId: m.customerId,
    kind: "billing",
    body: paymentFailedText(m.planName),
    fallbackSubject: "Your membership payment did not go through",
  });
  await alertOffice(tx, {
    subject: `Card payment failed: ${name}`,
    lines: [
      `The card payment for ${name}'s ${m.planName} membership failed (${payment.id}). The membership is 'Past due'.`,
      `Stripe retries the card; booking waits after ${graceDays} days unless it is paid.`,
    ],
    staffPath: `/employee/customers/${m.customerId}/membership`,
    customerName: name,
  });
}

/** What an event does, decided on the objects read again now (outside any transaction). */
async function plan(type: string, objectId: string | null, today: string): Promise<Applied> {
  const provider = paymentProvider();
  if (!provider.takesCards || !objectId) return async () => "ignored: no card processor";
  if (type.startsWith("checkout.session.")) {
    const session = await provider.checkout(objectId);
    if (!session.paid || !session.offerId) return async () => "ignored: checkout not paid";
    const paidWith = session.invoiceId ?? session.paymentIntentId;
    const payment = paidWith ? await provider.payment(paidWith) : null;
    const paidBy = paidByOf(session);
    return async (tx) => {
      if (await paidTwice(tx, session.offerId!, paidBy)) {
        await queueDuplicateRefund(tx, {
          offerId: session.offerId!,
          subscriptionId: session.subscriptionId,
          paymentIntentId: payment?.paymentIntentId ?? session.paymentIntentId,
          ref: paidWith ?? session.id,
          amountCents: payment?.amountPaidCents ?? session.amountTotalCents,
        });
        return `duplicate: ${paidBy} paid an offer already paid; refund planned`;
      }
      const m = await acceptOffer(tx, session.offerId!, {
        today,
        staffId: null,
        paymentProvider: "stripe",
        stripeSubscriptionId: session.subscriptionId,
        paidBy,
      });
      if (!m) return "ignored: the offer is no longer open";
      if (payment?.status !== "paid") return `membership started; ${paidWith} not paid yet`;
      return `membership started; ${await postPayment(tx, m, payment)}`;
    };
  }
  if (type.startsWith("invoice.")) {
    const payment = await provider.payment(objectId);
    return async (tx) => {
      const m = await membershipForPayment(tx, payment, today);
      if (m === "duplicate") return `duplicate: ${payment.id} refund planned`;
      if (!m) return `ignored: no membership for ${payment.id}`;
      // The invoice as it is now decides, whatever the event said: a failure already paid
      // since posts the payment; a success not paid (yet) changes nothing.
      if (payment.status === "paid") return postPayment(tx, m, payment);
      const needsAuthentication = type === "invoice.payment_action_required";
      if (
        (payment.status === "failed" && type === "invoice.payment_failed") ||
        (payment.status !== "other" && needsAuthentication)
      ) {
        const { membership, changed } = await markPastDue(tx, m.id, today);
        if (changed) await tellPastDue(tx, membership, payment, needsAuthentication);
        return changed ? "past due" : "already past due";
      }
      return `ignored: ${payment.id} is ${payment.status}`;
    };
  }
  if (type.startsWith("charge.refund") || type.startsWith("refund.")) {
    // A refund made in Stripe's own dashboard: read the refunds of that payment as they are now.
    const refunds = await provider.refundsOf(objectId);
    return async (tx) => {
      const { posted, unmatched } = await postRefundsMadeInStripe(tx, refunds);
      return `refunds: ${posted} posted, ${unmatched.length} without a membership`;
    };
  }
  return async () => `ignored: ${type} is not handled`;
}

/** Applies one stored event once. Throws (the job is retried) when Stripe cannot be read. */
export async function applyEvent(eventId: string, now = new Date()) {
  const [event] = await db().select().from(paymentEvents).where(eq(paymentEvents.id, eventId));
  if (!event || event.processedAt) return;
  const apply = await plan(event.type, event.objectId, businessNow(now).date);
  await db().transaction(async (tx) => {
    const [locked] = await tx
      .select({ processedAt: paymentEvents.processedAt })
      .from(paymentEvents)
      .where(eq(paymentEvents.id, eventId))
      .for("update");
    if (!locked || locked.processedAt) return;
    const outcome = await apply(tx);
    await tx
      .update(paymentEvents)
      .set({ processedAt: new Date(), outcome: outcome.slice(0, 500) })
      .where(eq(paymentEvents.id, eventId));
    logger.info({ eventId, type: event.type, outcome }, "stripe event applied");
  });
}
