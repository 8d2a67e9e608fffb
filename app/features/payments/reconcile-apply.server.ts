import { eq } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { memberships, type Membership } from "~/db/schema";
import { postPaidPeriod } from "~/features/memberships/index.server";
import { paidByOf, paidTwice, queueDuplicateRefund } from "./duplicates.server";
import { acceptOffer } from "./offers.server";
import type { ProviderPayment } from "./provider.server";

/**
 * The membership a paid invoice or payment belongs to, started from its offer if need be;
 * "duplicate" when it is a second payment of an offer another one started (its refund is
 * planned, nothing is posted).
 */
export async function membershipForPayment(
  tx: Tx,
  payment: ProviderPayment,
  today: string,
): Promise<Membership | "duplicate" | null> {
  if (payment.subscriptionId) {
    const [m] = await tx
      .select()
      .from(memberships)
      .where(eq(memberships.stripeSubscriptionId, payment.subscriptionId));
    if (m) return m;
  }
  if (payment.offerId && payment.status === "paid") {
    const paidBy = paidByOf(payment);
    if (await paidTwice(tx, payment.offerId, paidBy)) {
      await queueDuplicateRefund(tx, {
        offerId: payment.offerId,
        subscriptionId: payment.subscriptionId,
        paymentIntentId: payment.paymentIntentId,
        ref: payment.id,
        amountCents: payment.amountPaidCents,
      });
      return "duplicate";
    }
    return acceptOffer(tx, payment.offerId, {
      today,
      staffId: null,
      paymentProvider: "stripe",
      stripeSubscriptionId: payment.subscriptionId,
      paidBy,
    });
  }
  return null;
}

/** Posts a paid invoice or payment as read from Stripe now (the reconciliation's path). */
export async function applyPaymentNow(payment: ProviderPayment, today: string) {
  return db().transaction(async (tx) => {
    const m = await membershipForPayment(tx, payment, today);
    if (m === "duplicate") return "duplicate" as const;
    if (!m) return "no membership" as const;
    return postPaidPeriod(tx, {
      membershipId: m.id,
      ref: payment.id,
      amountPaidCents: payment.amountPaidCents,
    });
  });
}
