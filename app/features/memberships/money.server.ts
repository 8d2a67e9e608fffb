import { db, type DbOrTx } from "~/db/client.server";
import { MembershipRejectedError, NOT_FOUND } from "./errors.server";
import { inTransaction, lockMembership, postMoney } from "./ledger.server";

/* ---------- money: payments ---------- */

export const PAYMENT_METHODS = ["card", "check", "cash", "bank_transfer"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "Card",
  check: "Check",
  cash: "Cash",
  bank_transfer: "Bank transfer",
};

/** Staff record a payment received (the ledger a payment provider could write to later). */
export async function recordPayment(
  input: { membershipId: string; amountCents: number; method: PaymentMethod; reference: string },
  staffId: string | null,
  database: DbOrTx = db(),
) {
  return inTransaction(database, async (tx) => {
    const m = await lockMembership(tx, input.membershipId);
    if (!m) throw new MembershipRejectedError(NOT_FOUND);
    await postMoney(tx, m, {
      kind: "payment",
      amountCents: -input.amountCents,
      description: `Payment by ${PAYMENT_METHOD_LABELS[input.method].toLowerCase()}${input.reference ? ` (${input.reference})` : ""}`,
      paymentMethod: input.method,
      reference: input.reference || null,
      createdBy: staffId,
    });
    return m;
  });
}
