/*
 * What each kind of statement entry is called, in plain words: the statement's page shows it
 * above the entry and its CSV has it in the 'Kind' column (one mapping for both, never the
 * ledgers' codes such as extra_visit or accrual).
 */

const MONEY_KINDS: Record<string, string> = {
  membership_charge: "Membership charge",
  extra_visit: "Extra visit",
  part: "Part",
  shopping_fee: "Shopping fee",
  payment: "Payment",
  refund: "Credit at cancel",
  correction: "Correction",
  refund_paid: "Refund paid",
  second_handyman: "Second handyman",
};

const HOURS_KINDS: Record<string, string> = {
  accrual: "Hours for the period",
  reserve: "Hours reserved for a visit",
  release: "Hours released",
  return: "Hours back after a visit",
  refund: "Hours refunded at cancel",
  correction: "Time worked corrected",
};

/** "Money" or "Hours": the ledger an entry is in. */
export function statementLedgerLabel(ledger: "money" | "hours") {
  return ledger === "money" ? "Money" : "Hours";
}

/** An entry's kind in plain words: ("hours", "reserve") → "Hours reserved for a visit". */
export function statementKindLabel(ledger: "money" | "hours", kind: string) {
  const words = (ledger === "money" ? MONEY_KINDS : HOURS_KINDS)[kind];
  if (words) return words;
  // A kind added to a ledger later and not named here yet: still no code in front of people.
  const plain = kind.replace(/_/g, " ");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}
