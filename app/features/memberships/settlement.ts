import { EXTRA_VISIT } from "~/content/plans";
import { daysBetween } from "~/lib/business-calendar";
import { hoursText } from "~/lib/hours";
import { formatCents } from "~/lib/money";
import { monthName, type Billing, type IsoDate, type MembershipTerms } from "./bank";

/*
 * A cancellation's money, pure like the bank's arithmetic (bank.ts): the quote (the guarantee
 * or the unused hours, ADR 013) and the settlement of the ledger's open items against it, in
 * the member's and the office's words (ADR 058, ADR 081). cancel.server.ts applies it.
 */

/* ---------- cancellation ---------- */

/**
 * The guarantee: within `guaranteeDays` days of the start (day 0 is the start date; day 60 is
 * inside a 60-day guarantee, day 61 is not) every membership charge is refunded in full.
 */
export function withinGuarantee(startDate: IsoDate, cancelDate: IsoDate, guaranteeDays: number) {
  const days = daysBetween(startDate, cancelDate);
  return days >= 0 && days <= guaranteeDays;
}

/**
 * Unused paid minutes at the plan's hourly rate (price per month x 12 / hours per year),
 * rounded down to the cent. Exact in integers: minutes x monthly cents x 12 / minutes per year.
 */
export function refundForUnusedMinutes(terms: MembershipTerms, minutes: number) {
  if (minutes <= 0) return 0;
  return Math.floor((minutes * terms.monthlyPriceCents * 12) / terms.minutesPerYear);
}

export type CancellationQuote = {
  rule: "guarantee" | "unused_hours";
  refundCents: number;
  /** The bank's minutes given up by the cancellation (refunded as money under either rule). */
  minutesRefunded: number;
  /** Minutes used before they were paid (booked ahead, ADR 057), owed at the hourly rate. */
  minutesOwed: number;
  owedCents: number;
};

export function quoteCancellation(input: {
  terms: MembershipTerms;
  startDate: IsoDate;
  cancelDate: IsoDate;
  guaranteeDays: number;
  /**
   * The guarantee is the first membership's, of the customer and of the home (ADR 059): false
   * for anyone re-joining.
   */
  guaranteeApplies?: boolean;
  /** Minutes left in the bank once future visits are released (negative: used ahead). */
  minutesLeft: number;
  /** Net membership charges so far (charges less earlier corrections), in cents. */
  membershipChargesCents: number;
}): CancellationQuote {
  const minutesRefunded = Math.max(0, input.minutesLeft);
  if (
    input.guaranteeApplies !== false &&
    withinGuarantee(input.startDate, input.cancelDate, input.guaranteeDays)
  ) {
    // The guarantee refunds every charge: hours used, paid or not, are never owed.
    return {
      rule: "guarantee",
      refundCents: Math.max(0, input.membershipChargesCents),
      minutesRefunded,
      minutesOwed: 0,
      owedCents: 0,
    };
  }
  const minutesOwed = Math.max(0, -input.minutesLeft);
  return {
    rule: "unused_hours",
    // Never more than was charged, whatever the rounding.
    refundCents: Math.min(
      Math.max(0, input.membershipChargesCents),
      refundForUnusedMinutes(input.terms, minutesRefunded),
    ),
    minutesRefunded,
    minutesOwed,
    // Rounded up to the cent: what is owed for hours used is never less than their price.
    owedCents:
      minutesOwed > 0
        ? Math.ceil((minutesOwed * input.terms.monthlyPriceCents * 12) / input.terms.minutesPerYear)
        : 0,
  };
}

/* ---------- the settlement of a cancellation (ADR 058, ADR 081) ---------- */

/** A money item of the ledger as the settlement reads it, oldest first. */
export type LedgerItem = {
  kind: string;
  amountCents: number;
  /** The billing period's first day (charges) or the visit's date (extras, parts, fees). */
  date: IsoDate | null;
  description: string;
  /**
   * What the entry is about, so a reversal or a payment for one charge settles that charge
   * (ADR 081): the billing period (charges, and a card payment for its period), the visit
   * (extra visits, fees, their reversals) and the part (a part and its reversal).
   */
  periodStart?: IsoDate | null;
  appointmentId?: string | null;
  partId?: string | null;
  /** Written from the payment provider (a Stripe payment: a refund can go back to its card). */
  fromProvider?: boolean;
};

/** Every entry of a visit's second-handyman fee starts so: its charge, reversal, charge again. */
export const SECOND_HANDYMAN_FEE_LABEL = "Second handyman";

/** Whether a ledger item is of a visit's second-handyman fee (ADR 091). */
function isSecondHandymanFee(item: LedgerItem) {
  return (
    item.kind === "second_handyman" ||
    (item.kind === "correction" && item.description.startsWith(SECOND_HANDYMAN_FEE_LABEL))
  );
}

/** One line of a settlement: what the member receives (+) or owes (-) for it. */
export type SettlementLine = { label: string; cents: number };

export type Settlement = {
  lines: SettlementLine[];
  /** What the member receives (> 0) or owes (< 0) in the end: minus the balance after. */
  resultCents: number;
  /** 'You receive: $724.07', 'You owe: $35.00' or 'Nothing is owed either way.' */
  resultLabel: string;
  /**
   * How and when, to the member: 'Back to the card you paid with, within 10 days.' or 'We will
   * send you $597.64 by check or bank transfer within 10 days.'
   */
  howLabel: string | null;
  /** Of a refund, what goes back to a card through the payment provider (the rest by hand). */
  toCardCents?: number;
  /** The days the refund (or the payment owed) takes, as the words say. */
  days?: number;
};

/** 'November charge', 'annual charge from December 1, 2026', 'part: Faucet', ... */
function unpaidLabel(item: LedgerItem, billing: Billing) {
  switch (item.kind) {
    case "membership_charge":
      return billing === "annual"
        ? `Unpaid annual charge`
        : `Unpaid ${item.date ? monthName(item.date) : "monthly"} charge`;
    case "extra_visit":
      return "Unpaid extra visit";
    case "part":
      return `Unpaid ${item.description.replace(/^Part: /, "part: ")}`;
    case "shopping_fee":
      return "Unpaid shopping fee";
    case "second_handyman":
      return "Unpaid second handyman";
    default:
      return `Unpaid: ${item.description}`;
  }
}

/** A charge of the ledger and what became of it. */
export type ChargeState = {
  item: LedgerItem;
  /** Taken off by its own reversals (a correction naming it). */
  reversedCents: number;
  /** Paid: by a payment naming it, then by the credits paying the oldest charges first. */
  paidCents: number;
  /** What is still owed of it. */
  unpaidCents: number;
};

/**
 * The charges a credit names, oldest first: a reversal of a part names the part; a reversal
 * naming a visit, the visit's extra-visit charge or shopping fee (the one of its amount first);
 * a payment or correction naming a billing period, that period's charge.
 */
function chargesNamedBy(item: LedgerItem, charges: ChargeState[]) {
  const open = (c: ChargeState) => c.unpaidCents > 0;
  if (item.kind === "correction") {
    if (item.partId) {
      return charges.filter(
        (c) => open(c) && c.item.kind === "part" && c.item.partId === item.partId,
      );
    }
    if (item.appointmentId) {
      const same = charges.filter(
        (c) =>
          open(c) &&
          c.item.appointmentId === item.appointmentId &&
          (c.item.kind === "extra_visit" ||
            c.item.kind === "shopping_fee" ||
            c.item.kind === "second_handyman"),
      );
      const exact = same.filter((c) => c.unpaidCents === -item.amountCents);
      return [...exact, ...same.filter((c) => !exact.includes(c))];
    }
  }
  if ((item.kind === "correction" || item.kind === "payment") && item.periodStart) {
    return charges.filter(
      (c) =>
        open(c) && c.item.kind === "membership_charge" && c.item.periodStart === item.periodStart,
    );
  }
  return [];
}

/**
 * The ledger charge by charge (ADR 081): each reversal or payment that names a charge settles
 * that charge first; every other credit (payments, refunds, goodwill corrections, and what a
 * named credit leaves over) pays the oldest charges first. A refund paid out is taken from the
 * credit. What no charge takes is `creditCents` (negative: refunds paid beyond the credit).
 */
export function allocateLedger(items: LedgerItem[]) {
  const charges: ChargeState[] = [];
  let credit = 0;
  for (const item of items) {
    if (item.amountCents > 0) {
      if (item.kind === "refund_paid") credit -= item.amountCents;
      else charges.push({ item, reversedCents: 0, paidCents: 0, unpaidCents: item.amountCents });
      continue;
    }
    let left = -item.amountCents;
    const reversal = item.kind === "correction";
    for (const c of chargesNamedBy(item, charges)) {
      const taken = Math.min(left, c.unpaidCents);
      c.unpaidCents -= taken;
      if (reversal) c.reversedCents += taken;
      else c.paidCents += taken;
      left -= taken;
      if (!left) break;
    }
    credit += left;
  }
  for (const c of charges) {
    if (credit <= 0) break;
    const taken = Math.min(credit, c.unpaidCents);
    c.unpaidCents -= taken;
    c.paidCents += taken;
    credit -= taken;
  }
  return { charges, creditCents: credit };
}

/**
 * What is still unpaid of the ledger, item by item, each from its own entries (ADR 081): a
 * reversed charge is not unpaid, and a charge partly paid shows its unpaid part. What no
 * charge takes is a credit on account.
 */
export function openItems(items: LedgerItem[], billing: Billing): SettlementLine[] {
  const { charges, creditCents } = allocateLedger(items);
  return openLines(charges, creditCents, billing);
}

function openLines(charges: ChargeState[], creditCents: number, billing: Billing) {
  const lines = charges
    .filter((c) => c.unpaidCents > 0)
    .map((c) => ({ label: unpaidLabel(c.item, billing), cents: -c.unpaidCents }));
  if (creditCents > 0) lines.push({ label: "Credit on your account", cents: creditCents });
  if (creditCents < 0) lines.push({ label: "Refunds paid beyond the credit", cents: creditCents });
  return lines;
}

function signed(cents: number) {
  return `${cents < 0 ? "-" : "+"}${formatCents(Math.abs(cents))}`;
}

/** A settlement line as every place shows it: 'Unpaid November charge: -$295.00'. */
export function settlementLineText(line: SettlementLine, first: boolean) {
  return `${line.label}: ${first ? formatCents(line.cents) : signed(line.cents)}`;
}

/**
 * How a refund reaches the member, in the member's words (ADR 081): back to the card through
 * the payment provider for what card payments can take, the rest sent by check or bank
 * transfer by the office.
 */
export function refundHowLabel(resultCents: number, toCardCents: number, days: number) {
  const toCard = Math.min(Math.max(0, toCardCents), resultCents);
  const byHand = resultCents - toCard;
  if (byHand <= 0) return `Back to the card you paid with, within ${days} days.`;
  if (toCard <= 0)
    return `We will send you ${formatCents(byHand)} by check or bank transfer within ${days} days.`;
  return `${formatCents(toCard)} goes back to the card you paid with, and we will send you ${formatCents(byHand)} by check or bank transfer, within ${days} days.`;
}

/**
 * The settlement of a cancellation, line by line, the one computation the cancel dialog, its
 * e-mail and the statement render (ADR 058): first the refund of the rule ('Unused hours:
 * $1,053.57', or the guarantee's full refund), then hours used before they were paid, each
 * item still unpaid or credited, each upcoming extra visit the cancel reverses (what was paid
 * of it comes back), and the result with how and when.
 */
export function settleCancellation(input: {
  quote: CancellationQuote;
  billing: Billing;
  guaranteeDays: number;
  /** The money ledger before the cancellation, oldest first. */
  ledger: LedgerItem[];
  /**
   * The upcoming extra visits the cancellation reverses (their appointment ids): each one's
   * $150 charge, in the ledger, is taken back.
   */
  extraVisitsReversed: string[];
  /**
   * The upcoming visits the cancellation ends (their appointment ids): the second-handyman fee
   * each still has is taken back (ADR 099).
   */
  feesReversed?: string[];
  /** What of a refund can go back to a card through the payment provider (0: none). */
  cardRefundableCents: number;
  refundCheckDays: number;
}): Settlement {
  const { quote } = input;
  const lines: SettlementLine[] = [
    quote.rule === "guarantee"
      ? {
          label: `${input.guaranteeDays}-day guarantee, membership charges refunded`,
          cents: quote.refundCents,
        }
      : { label: "Unused hours", cents: quote.refundCents },
  ];
  if (quote.owedCents > 0) {
    lines.push({
      label: `Hours used before they were paid (${hoursText(quote.minutesOwed)})`,
      cents: -quote.owedCents,
    });
  }
  const { charges, creditCents } = allocateLedger(input.ledger);
  // The cancel reverses each upcoming extra visit's charge: its unpaid part is no longer owed
  // (no 'Unpaid' line), what was paid of it comes back. The lines follow the charges' order
  // in the ledger (oldest first), whatever the order the visits were given in.
  const backs: { at: number; cents: number; label: string }[] = [];
  const reversed = new Set<ChargeState>();
  for (const appointmentId of input.extraVisitsReversed) {
    const charge = charges.findLast(
      (c) =>
        !reversed.has(c) &&
        c.item.kind === "extra_visit" &&
        c.item.appointmentId === appointmentId &&
        c.reversedCents === 0,
    );
    if (charge) reversed.add(charge);
    const back = EXTRA_VISIT.priceCents - (charge?.unpaidCents ?? 0);
    const at = charge ? charges.indexOf(charge) : charges.length;
    if (back !== 0) backs.push({ at, cents: back, label: "Extra visit reversed" });
  }
  // Each ended visit's second-handyman fee, as it stands, is taken back: its entries owe
  // nothing more, and what was paid of them comes back.
  for (const appointmentId of input.feesReversed ?? []) {
    const ofFee = (i: LedgerItem) => i.appointmentId === appointmentId && isSecondHandymanFee(i);
    const cents = input.ledger.filter(ofFee).reduce((sum, i) => sum + i.amountCents, 0);
    if (cents <= 0) continue;
    const fee = charges.filter((c) => ofFee(c.item));
    for (const c of fee) reversed.add(c);
    const back = cents - fee.reduce((sum, c) => sum + c.unpaidCents, 0);
    const at = fee.length ? charges.indexOf(fee[fee.length - 1]) : charges.length;
    if (back !== 0) backs.push({ at, cents: back, label: "Second handyman reversed" });
  }
  const reversedLines: SettlementLine[] = backs
    .sort((a, b) => a.at - b.at)
    .map(({ cents, label }) => ({ label, cents }));
  lines.push(
    ...openLines(
      charges.filter((c) => !reversed.has(c)),
      creditCents,
      input.billing,
    ),
    ...reversedLines,
  );
  const resultCents = lines.reduce((sum, l) => sum + l.cents, 0);
  const days = input.refundCheckDays;
  const toCardCents = resultCents > 0 ? Math.min(resultCents, input.cardRefundableCents) : 0;
  return {
    lines,
    resultCents,
    resultLabel:
      resultCents > 0
        ? `You receive: ${formatCents(resultCents)}`
        : resultCents < 0
          ? `You owe: ${formatCents(-resultCents)}`
          : "Nothing is owed either way.",
    howLabel:
      resultCents > 0
        ? refundHowLabel(resultCents, toCardCents, days)
        : resultCents < 0
          ? `Please pay within ${days} days by card, check or bank transfer.`
          : null,
    toCardCents,
    days,
  };
}

/**
 * The settlement in the office's words (ADR 081), for its 'Membership canceled' alert: who
 * owes whom, the lines as the ledger has them, and what the office does next.
 */
export function settlementOfficeText(settlement: Settlement, name: string) {
  const result = settlement.resultCents;
  const days = settlement.days ?? 10;
  const lines = settlement.lines.map((line, i) =>
    settlementLineText(
      line.label === "Credit on your account" ? { ...line, label: "Credit on the account" } : line,
      i === 0,
    ),
  );
  if (result > 0) {
    const toCard = Math.min(result, settlement.toCardCents ?? 0);
    const byHand = result - toCard;
    return [
      `We owe ${name} ${formatCents(result)}.`,
      ...lines,
      ...(toCard > 0
        ? [`${formatCents(toCard)} goes back to ${name}'s card through Stripe on its own.`]
        : []),
      ...(byHand > 0
        ? [
            `Send ${name} ${formatCents(byHand)} by check or bank transfer within ${days} days (${name} has been told so), then press 'Mark refund paid' under 'Refunds to pay'.`,
          ]
        : []),
    ];
  }
  if (result < 0) {
    return [
      `${name} owes us ${formatCents(-result)}.`,
      ...lines,
      `${name} has been asked to pay within ${days} days; record it with 'Record payment' when it arrives.`,
    ];
  }
  return ["Nothing is owed either way.", ...lines];
}
