import { and, asc, eq } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { memberships, paymentRefunds, profiles, user } from "~/db/schema";
import {
  formatCents,
  MembershipRejectedError,
  postRefundPaid,
  providerPaymentsOf,
  type PaymentMethod,
} from "~/features/memberships/index.server";
import { alertOffice, customerName } from "~/features/notifications/index.server";
import { enqueue } from "~/lib/outbox.server";
import { paymentProvider } from "./provider.server";

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
  const name = await customerName(tx, customerId);
  await alertOffice(tx, {
    subject: `Refund to pay: ${formatCents(amountCents)} to ${name}`,
    lines: [
      `${name}'s membership was canceled with a refund of ${formatCents(amountCents)} that does not go back to a card.`,
      "Pay it by check, cash or transfer, then 'Mark refund paid' under 'Refunds to pay'.",
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
  }
  await db().transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.id, refundId))
      .for("update");
    if (!locked || locked.status !== "pending") return;
    const rest = locked.amountCents - sent;
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
    customerName: [r.first, r.last].filter(Boolean).join(" ") || r.email,
    amountCents: r.amountCents - r.toCardCents,
    createdAt: r.createdAt,
  }));
}

/** The refunds still owed on a membership (its page keeps them in view). */
export async function refundsToPayOf(membershipId: string) {
  return (await refundsToPay()).filter((r) => r.membershipId === membershipId);
}

/** 'Mark refund paid': the ledger's entry for the money paid by hand, once. */
export async function markRefundPaid(
  input: { refundId: string; method: PaymentMethod; reference: string },
  staffId: string,
) {
  return db().transaction(async (tx) => {
    const [refund] = await tx
      .select()
      .from(paymentRefunds)
      .where(and(eq(paymentRefunds.id, input.refundId)))
      .for("update");
    if (!refund || refund.status !== "to_pay") throw new MembershipRejectedError(REFUND_NOT_OPEN);
    const amount = refund.amountCents - refund.toCardCents;
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
    return { ...refund, amountCents: amount };
  });
}
