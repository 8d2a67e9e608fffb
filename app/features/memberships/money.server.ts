import { and, eq, inArray, sql } from "drizzle-orm";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import { membershipMoneyLedger } from "~/db/schema";
import { claimActionKey } from "~/lib/action-keys.server";
import { MembershipRejectedError, NOT_FOUND } from "./errors.server";
import { inTransaction, lockMembership, postMoney } from "./ledger.server";
import { applyPastDue } from "./past-due.server";
import { formatCents } from "~/lib/money";
import { businessNow } from "~/lib/business-calendar";

/* ---------- money: payments ---------- */

export const PAYMENT_METHODS = ["card", "check", "cash", "bank_transfer"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "Card",
  check: "Check",
  cash: "Cash",
  bank_transfer: "Bank transfer",
};

export type PaymentInput = {
  membershipId: string;
  amountCents: number;
  method: PaymentMethod;
  reference: string;
  /** The form's idempotency key (ADR 048): a payment sent twice is recorded once. */
  key?: string;
  /** A unique reference for the ledger row (the first payment of an offer is recorded once). */
  providerRef?: string;
};

/**
 * Staff record a payment received (the ledger a payment provider could write to later). With a
 * `key`, once per key: null when the key was already applied (nothing written). A
 * membership 'Past due' with nothing overdue left after it is active again.
 */
export async function recordPayment(
  input: PaymentInput,
  staffId: string | null,
  database: DbOrTx = db(),
) {
  return inTransaction(database, async (tx) => {
    const m = await lockMembership(tx, input.membershipId);
    if (!m) throw new MembershipRejectedError(NOT_FOUND);
    if (input.key) {
      const fresh = await claimActionKey(tx, {
        key: input.key,
        actorId: staffId ?? "system",
        action: `payment:${m.id}`,
      });
      if (!fresh) return null;
    }
    await postMoney(tx, m, {
      kind: "payment",
      amountCents: -input.amountCents,
      description: `Payment by ${PAYMENT_METHOD_LABELS[input.method].toLowerCase()}${input.reference ? ` (${input.reference})` : ""}`,
      paymentMethod: input.method,
      reference: input.reference || null,
      createdBy: staffId,
      providerRef: input.providerRef ?? null,
    });
    // Paid what was overdue: no longer 'Past due' (collected by hand; Stripe says for its own).
    if (m.pastDueSince) await applyPastDue(tx, m, businessNow().date);
    return m;
  });
}

/**
 * The money received on a membership and what was already paid back, from its ledger: a
 * refund is never more than the difference (the caller holds the membership's lock).
 */
export async function moneyReceived(tx: Tx, membershipId: string) {
  const [row] = await tx
    .select({
      received:
        sql<number>`coalesce(-sum(${membershipMoneyLedger.amountCents}) filter (where ${membershipMoneyLedger.kind} = 'payment'), 0)`.mapWith(
          Number,
        ),
      refunded:
        sql<number>`coalesce(sum(${membershipMoneyLedger.amountCents}) filter (where ${membershipMoneyLedger.kind} = 'refund_paid'), 0)`.mapWith(
          Number,
        ),
    })
    .from(membershipMoneyLedger)
    .where(
      and(
        eq(membershipMoneyLedger.membershipId, membershipId),
        inArray(membershipMoneyLedger.kind, ["payment", "refund_paid"]),
      ),
    );
  return { receivedCents: row?.received ?? 0, refundedCents: row?.refunded ?? 0 };
}

/** The refusal of a refund larger than the money received, in words the office can act on. */
export function refundTooLarge(
  amountCents: number,
  received: { receivedCents: number; refundedCents: number },
) {
  const room = Math.max(0, received.receivedCents - received.refundedCents);
  return new MembershipRejectedError(
    `A refund cannot be more than the money received: ${formatCents(amountCents)} asked, ${formatCents(received.receivedCents)} received${received.refundedCents ? ` and ${formatCents(received.refundedCents)} already refunded` : ""}, so at most ${formatCents(room)}. Nothing was changed.`,
  );
}

/**
 * Refuses, inside the caller's transaction, a refund of `amountCents` that would take more
 * back than the membership received (issue 39): the transaction then writes nothing.
 */
export async function assertRefundWithinReceived(
  tx: Tx,
  membershipId: string,
  amountCents: number,
) {
  const received = await moneyReceived(tx, membershipId);
  if (received.refundedCents + amountCents > received.receivedCents)
    throw refundTooLarge(amountCents, received);
}
