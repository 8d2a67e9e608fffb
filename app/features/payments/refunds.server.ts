import { and, asc, desc, eq } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { memberships, paymentCustomers, paymentRefunds, profiles, user } from "~/db/schema";
import {
  assertRefundWithinReceived,
  MembershipRejectedError,
  postRefundPaid,
  providerPaymentsOf,
  type PaymentMethod,
} from "~/features/memberships/index.server";
import { alertOffice, readPersonName } from "~/features/notifications/index.server";
import { claimActionKey } from "~/lib/action-keys.server";
import { business } from "~/lib/business.server";
import { enqueue } from "~/lib/outbox.server";
import { mailRefundSent } from "./messages.server";
import { paymentProvider, type ProviderRefundSeen } from "./provider.server";
import { formatCents } from "~/lib/money";
import { businessNow, plainDate } from "~/lib/business-calendar";
import { personName } from "~/lib/names";

/*
 * Refunds (ADR 054): the amount the cancel rule computed goes back to the card it came from
 * through Stripe's Refunds API, with an idempotency key per refund and payment (a retried job
 * gets the same refund back, and the ledger row carries its id, unique). What cannot go back to
 * a card (paid by hand, or more than the card payments) is listed for the office under 'Refunds
 * to pay' until staff 'Mark refund paid' with the method and reference.
 */

export const REFUND_NOT_OPEN = "This refund is not waiting to be paid.";

/**
 * Called by a cancel, in its transaction, for the refund it wrote to the ledger: a job sends it
 * to the card (Stripe memberships), or the office is told to pay it.
 */
export async function queueRefund(
  tx: Tx,
  input: { membershipId: string; customerId: string; amountCents: number; byCard: boolean },
) {
  // Never more than the membership received (issue 39): the cancel's transaction refuses it.
  await assertRefundWithinReceived(tx, input.membershipId, input.amountCents);
  const toCard = input.byCard && paymentProvider().takesCards;
  const [refund] = await tx
    .insert(paymentRefunds)
    .values({
      membershipId: input.membershipId,
      amountCents: input.amountCents,
      status: toCard ? "pending" : "to_pay",
    })
    .returning();
  if (toCard) await enqueue(tx, "payment_job", { job: "refund", refundId: refund.id });
  else await tellOfficeToPay(tx, input.customerId, input.amountCents);
  return refund;
}

async function tellOfficeToPay(tx: Tx, customerId: string, amountCents: number) {
  const name = await readPersonName(tx, customerId);
  await alertOffice(tx, {
    subject: `Refund to pay: ${formatCents(amountCents)} to ${name}`,
    lines: [
      `${name}'s membership was canceled with a refund of ${formatCents(amountCents)} that does not go back to a card.`,
      `${name} was told it comes by check or bank transfer within ${business().refundCheckDays} days: send it, then press 'Mark refund paid' under 'Refunds to pay' with how it was sent and its reference.`,
    ],
    staffPath: "/employee?tab=customers",
    customerName: name,
  });
}

/** The refund job: what can go back to the card goes, once; the rest is listed for the office. */
export async function sendRefundToCard(refundId: string) {
  const [refund] = await db().select().from(paymentRefunds).where(eq(paymentRefunds.id, refundId));
  if (!refund || refund.status !== "pending") return;
  const provider = paymentProvider();
  const payments = (await db().transaction((tx) => providerPaymentsOf(tx, refund.membershipId)))
    .filter((p) => p.reference)
    .reverse();
  let sent = 0;
  const references: string[] = [];
  for (const payment of payments) {
    const remaining = refund.amountCents - sent;
    if (remaining <= 0) break;
    const intent = (await provider.payment(payment.reference!)).paymentIntentId;
    if (!intent) continue;
    const amount = Math.min(remaining, -payment.amountCents);
    const made = await provider.refund({
      paymentIntentId: intent,
      amountCents: amount,
      idempotencyKey: `refund-${refund.id}-${intent}`,
      source: "cancel",
    });
    await db().transaction((tx) =>
      postRefundPaid(tx, {
        membershipId: refund.membershipId,
        amountCents: made.amountCents,
        method: "card",
        reference: made.id,
        providerRef: made.id,
      }),
    );
    sent += made.amountCents;
    references.push(made.id);
  }
  await db().transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.id, refundId))
      .for("update");
    if (!locked || locked.status !== "pending") return;
    const rest = locked.amountCents - sent;
    if (sent > 0) {
      await tellMemberRefundSent(tx, locked.membershipId, {
        amountCents: sent,
        method: "card",
        reference: references.join(", "),
      });
    }
    await tx
      .update(paymentRefunds)
      .set({
        toCardCents: sent,
        status: rest > 0 ? "to_pay" : "paid",
        paidAt: rest > 0 ? null : new Date(),
      })
      .where(eq(paymentRefunds.id, refundId));
    if (rest > 0) {
      const [m] = await tx
        .select({ customerId: memberships.customerId })
        .from(memberships)
        .where(eq(memberships.id, locked.membershipId));
      await tellOfficeToPay(tx, m.customerId, rest);
    }
  });
}

export type RefundToPay = {
  id: string;
  membershipId: string;
  customerId: string;
  customerName: string;
  /** What the office still owes (the refund less what went back to the card). */
  amountCents: number;
  createdAt: Date;
};

/** 'Refunds to pay': refunds the office owes by check, cash or transfer, oldest first. */
export async function refundsToPay(): Promise<RefundToPay[]> {
  const rows = await db()
    .select({
      id: paymentRefunds.id,
      membershipId: paymentRefunds.membershipId,
      customerId: memberships.customerId,
      first: profiles.firstName,
      last: profiles.lastName,
      email: user.email,
      amountCents: paymentRefunds.amountCents,
      toCardCents: paymentRefunds.toCardCents,
      createdAt: paymentRefunds.createdAt,
    })
    .from(paymentRefunds)
    .innerJoin(memberships, eq(memberships.id, paymentRefunds.membershipId))
    .innerJoin(user, eq(user.id, memberships.customerId))
    .leftJoin(profiles, eq(profiles.userId, memberships.customerId))
    .where(eq(paymentRefunds.status, "to_pay"))
    .orderBy(asc(paymentRefunds.createdAt))
    .limit(200);
  return rows.map((r) => ({
    id: r.id,
    membershipId: r.membershipId,
    customerId: r.customerId,
    customerName: personName(r.first, r.last) || r.email,
    amountCents: r.amountCents - r.toCardCents,
    createdAt: r.createdAt,
  }));
}

/** Whether the refund is one of the customer's memberships' (owed or already paid). */
export async function isRefundOf(customerId: string, refundId: string) {
  const [row] = await db()
    .select({ id: paymentRefunds.id })
    .from(paymentRefunds)
    .innerJoin(memberships, eq(memberships.id, paymentRefunds.membershipId))
    .where(and(eq(paymentRefunds.id, refundId), eq(memberships.customerId, customerId)));
  return Boolean(row);
}

/** The refunds still owed on a membership (its page keeps them in view). */
export async function refundsToPayOf(membershipId: string) {
  return (await refundsToPay()).filter((r) => r.membershipId === membershipId);
}

/**
 * The member is told the refund left (ADR 081): how much, how (back to the card, by check,
 * cash or bank transfer) and the reference, in the transaction that records it.
 */
async function tellMemberRefundSent(
  tx: Tx,
  membershipId: string,
  sent: { amountCents: number; method: PaymentMethod; reference: string | null },
) {
  const [m] = await tx
    .select({ customerId: memberships.customerId })
    .from(memberships)
    .where(eq(memberships.id, membershipId));
  if (!m) return;
  await mailRefundSent(tx, m.customerId, { ...sent, sentOn: plainDate(businessNow().date) });
}

export function markRefundPaid(
  input: { refundId: string; method: PaymentMethod; reference: string },
  staffId: string,
): Promise<PaidRefund>;
export function markRefundPaid(
  input: { refundId: string; method: PaymentMethod; reference: string; key: string },
  staffId: string,
): Promise<PaidRefund | null>;
/**
 * 'Mark refund paid': the ledger's entry for the money paid by hand, once. The refund row is
 * locked, then the form's key claimed (ADR 048: null when that form was already applied), and
 * the refund is refused when it would pay back more than the membership received.
 */
export async function markRefundPaid(
  input: { refundId: string; method: PaymentMethod; reference: string; key?: string },
  staffId: string,
): Promise<PaidRefund | null> {
  return db().transaction(async (tx) => {
    const [refund] = await tx
      .select()
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.id, input.refundId)))
      .for("update");
    if (input.key) {
      const fresh = await claimActionKey(tx, {
        key: input.key,
        actorId: staffId,
        action: `refund-paid:${input.refundId}`,
      });
      if (!fresh) return null;
    }
    if (!refund || refund.status !== "to_pay") throw new MembershipRejectedError(REFUND_NOT_OPEN);
    const amount = refund.amountCents - refund.toCardCents;
    await assertRefundWithinReceived(tx, refund.membershipId, amount);
    await postRefundPaid(tx, {
      membershipId: refund.membershipId,
      amountCents: amount,
      method: input.method,
      reference: input.reference || null,
      providerRef: `refund:${refund.id}`,
      staffId,
    });
    await tx
      .update(paymentRefunds)
      .set({
        status: "paid",
        method: input.method,
        reference: input.reference || null,
        paidAt: new Date(),
        paidBy: staffId,
      })
      .where(eq(paymentRefunds.id, refund.id));
    await tellMemberRefundSent(tx, refund.membershipId, {
      amountCents: amount,
      method: input.method,
      reference: input.reference || null,
    });
    return { ...refund, amountCents: amount };
  });
}

type PaidRefund = typeof paymentRefunds.$inferSelect;

/**
 * Refunds made in Stripe's own dashboard (issue 39): each succeeded one not made by us is posted
 * to its membership's ledger once (the refund's id is the row's unique provider ref), and the
 * office is told. Ours are left alone: a cancel's refund is posted by its job, a duplicate's
 * payment was never posted. The membership is the customer's latest one paid through Stripe.
 */
export async function postRefundsMadeInStripe(tx: Tx, refunds: ProviderRefundSeen[]) {
  let posted = 0;
  const unmatched: ProviderRefundSeen[] = [];
  for (const refund of refunds) {
    if (refund.source || refund.status !== "succeeded") continue;
    const [m] = refund.customerId
      ? await tx
          .select({ id: memberships.id, customerId: memberships.customerId })
          .from(memberships)
          .innerJoin(paymentCustomers, eq(paymentCustomers.customerId, memberships.customerId))
          .where(
            and(
              eq(paymentCustomers.stripeCustomerId, refund.customerId),
              eq(memberships.paymentProvider, "stripe"),
            ),
          )
          .orderBy(desc(memberships.createdAt))
          .limit(1)
      : [];
    if (!m) {
      unmatched.push(refund);
      continue;
    }
    const result = await postRefundPaid(tx, {
      membershipId: m.id,
      amountCents: refund.amountCents,
      method: "card",
      reference: refund.id,
      providerRef: refund.id,
      madeIn: "Refund made in Stripe",
    });
    if (result !== "posted") continue;
    posted++;
    const name = await readPersonName(tx, m.customerId);
    await alertOffice(tx, {
      subject: `Refund made in Stripe: ${formatCents(refund.amountCents)} to ${name}`,
      lines: [
        `A refund of ${formatCents(refund.amountCents)} to ${name}'s card was made in Stripe's dashboard (${refund.id}).`,
        "It is posted to the membership's statement: the balance shows what is owed now.",
      ],
      staffPath: `/employee/customers/${m.customerId}/membership`,
      customerName: name,
    });
  }
  return { posted, unmatched };
}

/**
 * A canceled membership's subscription is ended in Stripe (ADR 080): a job, planned in the
 * cancel's transaction, so Stripe never bills a membership that is over. Ending it again (a
 * subscription Stripe already ended on its renewal date) changes nothing.
 */
export async function queueSubscriptionEnd(tx: Tx, subscriptionId: string) {
  await enqueue(tx, "payment_job", { job: "end_subscription", subscriptionId });
}

export async function endSubscription(subscriptionId: string) {
  await paymentProvider().cancelSubscription(subscriptionId);
}
