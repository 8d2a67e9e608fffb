import {
  EXTRA_VISIT,
  VISIT_BLOCKS,
  WORK_STEP_MINUTES,
  type PlanTerms,
  type VisitBlockMinutes,
} from "~/content/plans";
import { hoursLeftText, hoursMeterText, hoursText } from "~/lib/hours";

/*
 * The arithmetic of a membership, pure so it can be tested by properties: minutes and cents are
 * integers, dates are ISO calendar days (YYYY-MM-DD) in the business time zone. The server
 * (ledger.server.ts and the modules beside it) applies these rules inside transactions; the database keeps the bank
 * from going negative even if a rule here were wrong.
 * Decisions: docs/decisions/012-membership-hours-bank.md, 013-membership-money-and-refunds.md.
 */

export type Billing = "monthly" | "annual";
/** The plan's terms as a membership stored them when it started. */
export type MembershipTerms = Pick<
  PlanTerms,
  "monthlyPriceCents" | "minutesPerYear" | "visitsPerYear"
>;
export type IsoDate = string;

/* ---------- display ---------- */

/** 735 -> "12 h 15 min", 2520 -> "42 h", 45 -> "45 min", 0 -> "0 min" (app/lib/hours.ts). */
export const formatMinutes = hoursText;

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** 1234567 -> "$12,345.67", -1000 -> "-$10.00". */
export function formatCents(cents: number) {
  return dollars.format(cents / 100);
}

/** Whole dollars without cents ("$150"), otherwise like formatCents ("$84.29"). */
export function formatPrice(cents: number) {
  return cents % 100 === 0 ? formatCents(cents).replace(/\.00$/, "") : formatCents(cents);
}

/** The plan's hourly rate rounded to the cent, for display: Complete -> "$84.29/h". */
export function hourlyRateLabel(terms: MembershipTerms) {
  const centsPerHour = Math.round((terms.monthlyPriceCents * 12 * 60) / terms.minutesPerYear);
  return `${formatCents(centsPerHour)}/h`;
}

/* ---------- calendar days ---------- */

function parse(date: IsoDate) {
  const [y, m, d] = date.split("-").map(Number);
  return { y, m, d };
}

function iso(y: number, m: number, d: number): IsoDate {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

function daysInMonth(y: number, m: number) {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** `date` plus `months` calendar months; the 31st becomes the month's last day when needed. */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const { y, m, d } = parse(date);
  const index = y * 12 + (m - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = (index % 12) + 1;
  return iso(ny, nm, Math.min(d, daysInMonth(ny, nm)));
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const { y, m, d } = parse(date);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return iso(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate) {
  const a = parse(from);
  const b = parse(to);
  return Math.round((Date.UTC(b.y, b.m - 1, b.d) - Date.UTC(a.y, a.m - 1, a.d)) / 86_400_000);
}

/** The first and last day (inclusive) of the calendar month holding `date`. */
export function calendarMonth(date: IsoDate) {
  const { y, m } = parse(date);
  return { first: iso(y, m, 1), last: iso(y, m, daysInMonth(y, m)) };
}

/**
 * The membership year holding `date`: 12 months from the start, renewing. Year 0 runs from the
 * start date up to the day before its first anniversary.
 */
export function membershipYear(startDate: IsoDate, date: IsoDate) {
  let index = Math.max(0, parse(date).y - parse(startDate).y - 1);
  while (addMonths(startDate, 12 * (index + 1)) <= date) index++;
  while (index > 0 && addMonths(startDate, 12 * index) > date) index--;
  const first = addMonths(startDate, 12 * index);
  const next = addMonths(startDate, 12 * (index + 1));
  return { index, first, last: addDays(next, -1), renewsOn: next };
}

/* ---------- billing: what paid time buys ---------- */

export type Charge = {
  /** The first day of the billing period this charge pays for. */
  periodStart: IsoDate;
  amountCents: number;
  /** Minutes added to the bank by this charge. */
  minutes: number;
};

/**
 * Minutes bought by the monthly charge number `k` (0-based) of a membership year: hours per
 * year / 12, spread in whole minutes so 12 months add exactly the year's minutes (Essential's
 * 1,050 minutes are 87 and 88 minutes alternately, never 87.5).
 */
export function monthlyMinutes(minutesPerYear: number, monthOfYear: number) {
  return (
    Math.floor(((monthOfYear + 1) * minutesPerYear) / 12) -
    Math.floor((monthOfYear * minutesPerYear) / 12)
  );
}

/** The charge of billing period number `n` (0-based from the start). */
export function chargeForPeriod(
  terms: MembershipTerms,
  billing: Billing,
  startDate: IsoDate,
  n: number,
): Charge {
  if (billing === "annual") {
    return {
      periodStart: addMonths(startDate, 12 * n),
      amountCents: terms.monthlyPriceCents * 12,
      minutes: terms.minutesPerYear,
    };
  }
  return {
    periodStart: addMonths(startDate, n),
    amountCents: terms.monthlyPriceCents,
    minutes: monthlyMinutes(terms.minutesPerYear, n % 12),
  };
}

/**
 * Every charge due from the start up to and including `today`: monthly billing charges each
 * month as it begins, annual billing charges the year's price upfront on each anniversary.
 */
export function chargesDue(
  terms: MembershipTerms,
  billing: Billing,
  startDate: IsoDate,
  today: IsoDate,
): Charge[] {
  const charges: Charge[] = [];
  for (let n = 0; ; n++) {
    const charge = chargeForPeriod(terms, billing, startDate, n);
    if (charge.periodStart > today) break;
    charges.push(charge);
  }
  return charges;
}

/* ---------- visits ---------- */

export function isVisitBlock(minutes: number): minutes is VisitBlockMinutes {
  return (VISIT_BLOCKS as readonly number[]).includes(minutes);
}

/** The monthly visit allowance: ceil(visits per year / 12) (1 / 2 / 4). */
export function monthlyVisitAllowance(visitsPerYear: number) {
  return Math.ceil(visitsPerYear / 12);
}

export type VisitCounts = {
  /** Visits from the bank (not extra) in the membership year of the visit. */
  thisYear: number;
  /** Visits from the bank (not extra) in the calendar month of the visit. */
  thisMonth: number;
};

export type VisitDecision =
  | { kind: "bank"; minutes: VisitBlockMinutes }
  | { kind: "extra"; minutes: number; chargeCents: number; reason: string }
  | { kind: "refused"; reason: string };

export const EXTRA_VISIT_BLOCK_ONLY = `An extra visit is ${formatMinutes(EXTRA_VISIT.minutes)}.`;

/**
 * What booking a visit of `block` minutes spends. Within the visit allowances it takes its block
 * from the bank, or is refused when the bank lacks it (unless staff book it as an extra visit);
 * beyond the year's visits or the month's allowance it is an extra visit: 1 h 45 min for $150,
 * charged, not taken from the bank.
 */
export function decideVisit(input: {
  terms: MembershipTerms;
  minutesAvailable: number;
  /** Minutes bookable for the visit's date beyond the bank (ADR 057); 0 by default. */
  minutesAhead?: number;
  block: number;
  counts: VisitCounts;
  /** Staff chose to book it as an extra visit. */
  asExtra?: boolean;
  /**
   * The member books it themselves: extra visits they booked in the visit's month, the
   * monthly limit, and the refusal (which says to call) once it is reached (ADR 042).
   */
  selfBooked?: { extrasThisMonth: number; limit: number; refusal: string };
}): VisitDecision {
  const { terms, minutesAvailable, block, counts, selfBooked } = input;
  if (!isVisitBlock(block)) {
    return {
      kind: "refused",
      reason: `A member's visit is ${formatMinutes(VISIT_BLOCKS[0])} or ${formatMinutes(VISIT_BLOCKS[1])}.`,
    };
  }
  const extra = (reason: string): VisitDecision => {
    if (block !== EXTRA_VISIT.minutes)
      return { kind: "refused", reason: `${reason} ${EXTRA_VISIT_BLOCK_ONLY}` };
    if (selfBooked && selfBooked.extrasThisMonth >= selfBooked.limit)
      return { kind: "refused", reason: selfBooked.refusal };
    return { kind: "extra", minutes: block, chargeCents: EXTRA_VISIT.priceCents, reason };
  };
  const allowance = monthlyVisitAllowance(terms.visitsPerYear);
  if (counts.thisYear >= terms.visitsPerYear) {
    return extra(`All ${terms.visitsPerYear} visits of this membership year are used.`);
  }
  if (counts.thisMonth >= allowance) {
    return extra(
      `The monthly allowance of ${allowance} visit${allowance === 1 ? "" : "s"} is used.`,
    );
  }
  if (input.asExtra)
    return extra(selfBooked ? "Booked as an extra visit." : "Booked by staff as an extra visit.");
  const ahead = input.minutesAhead ?? 0;
  if (minutesAvailable + ahead < block) {
    return {
      kind: "refused",
      reason: ahead
        ? `Not enough hours for that day: ${formatMinutes(Math.max(0, minutesAvailable + ahead))} can be booked by then, the visit needs ${formatMinutes(block)}.`
        : `Not enough hours left: ${hoursLeftText(minutesAvailable)}, the visit needs ${formatMinutes(block)}.`,
    };
  }
  return { kind: "bank", minutes: block };
}

/**
 * Why a member cannot book another extra visit online in a month (ADR 042): the limit, the
 * month, and the business's phone to call.
 */
export function selfBookedExtraLimitMessage(limit: number, visitDate: IsoDate, phone: string) {
  const { y, m } = parse(visitDate);
  const month = new Date(Date.UTC(y, m - 1, 1)).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  return `You have booked ${limit} extra visit${limit === 1 ? "" : "s"} for ${month}, the most that can be booked online. Please call us at ${phone} to book another.`;
}

/**
 * The sentence shown before anyone confirms a visit. A visit the bank cannot hold alone says
 * where the rest comes from (issue 40, item 7): the hours left now, the hours paid by the
 * visit's day ('from the hours paid on December 18 (before the visit)') and the hours of a
 * period that begins after it, not paid by then ('booked ahead of payment (its hours are
 * charged on December 27, after the visit)').
 */
export function spendLabel(
  decision: VisitDecision,
  minutesAvailable: number,
  ahead?: AheadSplit & { visitDate: IsoDate },
) {
  if (decision.kind === "bank") {
    if (decision.minutes > minutesAvailable) {
      const now = Math.max(0, minutesAvailable);
      if (!ahead) {
        return now > 0
          ? `Uses ${formatMinutes(decision.minutes)}: ${formatMinutes(now)} left now and ${formatMinutes(decision.minutes - now)} from the hours paid by then`
          : `Uses ${formatMinutes(decision.minutes)} from the hours paid by then`;
      }
      // What is already booked ahead (a bank below zero) takes the hours paid by then first.
      const borrowed = Math.max(0, -minutesAvailable);
      const paidPool = Math.max(0, ahead.paidByThen.minutes - borrowed);
      const beyondPool = Math.max(
        0,
        (ahead.beyondPayment?.minutes ?? 0) - Math.max(0, borrowed - ahead.paidByThen.minutes),
      );
      let rest = decision.minutes - now;
      const fromPaid = Math.min(rest, paidPool);
      rest -= fromPaid;
      const beyond = Math.min(rest, beyondPool);
      const on = (date: IsoDate) => shortDate(date, ahead.visitDate);
      const paidDates = ahead.paidByThen.dates;
      const parts = [
        now > 0 ? `${formatMinutes(now)} left now` : null,
        fromPaid > 0
          ? `${formatMinutes(fromPaid)} from the hours paid ${
              paidDates.length === 1 ? `on ${on(paidDates[0])}` : `by ${on(ahead.visitDate)}`
            } (before the visit)`
          : null,
        beyond > 0
          ? `${formatMinutes(beyond)} booked ahead of payment (its hours are charged on ${on(ahead.beyondPayment!.date)}, after the visit)`
          : null,
      ].filter((p): p is string => p !== null);
      const list =
        parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
      return `Uses ${formatMinutes(decision.minutes)}: ${list}`;
    }
    return `Uses ${formatMinutes(decision.minutes)} of ${formatMinutes(minutesAvailable)} left`;
  }
  if (decision.kind === "extra") return `Extra visit: ${formatPrice(decision.chargeCents)}`;
  return decision.reason;
}

export const WORKED_MINUTES_MESSAGE = `Time worked is in ${WORK_STEP_MINUTES}-minute steps, from ${WORK_STEP_MINUTES} minutes up to the visit's block.`;

/**
 * Completing a visit: the time worked, in 15-minute steps, at most the block (its last 10
 * minutes are clean-up and documentation, inside the block). Returns the minutes that go back
 * to the bank, or null when the time worked is not allowed.
 */
export function minutesReturned(block: number, worked: number) {
  if (!Number.isInteger(worked) || worked < WORK_STEP_MINUTES || worked > block) return null;
  if (worked % WORK_STEP_MINUTES !== 0) return null;
  return block - worked;
}

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

/* ---------- booking ahead of payment (ADR 057) ---------- */

/**
 * Minutes a member may book on `visitDate` beyond the bank (the minutes paid so far, less
 * what is reserved and used): the hours of every billing period not yet charged that begins
 * on or before the visit's date (paid by then), and, on monthly billing, one month more
 * ahead. So a new Essential member (1 h 27 min paid) can book a 1 h 45 min visit in the first
 * week, and a visit on December 21 counts the hours paid on December 18.
 */
export function minutesBookableAhead(input: {
  terms: MembershipTerms;
  billing: Billing;
  startDate: IsoDate;
  periodsCharged: number;
  visitDate: IsoDate;
}) {
  const split = bookableAhead(input);
  return split.paidByThen.minutes + (split.beyondPayment?.minutes ?? 0);
}

/** What a visit may take beyond the bank, told apart by whether it is paid by the visit's day. */
export type AheadSplit = {
  /** Hours of the periods not yet charged that begin on or before the visit's day. */
  paidByThen: { minutes: number; dates: IsoDate[] };
  /** Monthly billing: the hours of the period after the visit's day, booked ahead of payment. */
  beyondPayment: { minutes: number; date: IsoDate } | null;
};

/**
 * minutesBookableAhead's hours, told apart (issue 40, item 7): those paid by the visit's day
 * (each period beginning on or before it, with the day it is charged) and those of the month
 * after, which are not paid by then: booked ahead of payment.
 */
export function bookableAhead(input: {
  terms: MembershipTerms;
  billing: Billing;
  startDate: IsoDate;
  periodsCharged: number;
  visitDate: IsoDate;
}): AheadSplit {
  const { terms, billing, startDate, periodsCharged, visitDate } = input;
  const paidByThen = { minutes: 0, dates: [] as IsoDate[] };
  let beyondPayment: AheadSplit["beyondPayment"] = null;
  // A visit is at most a few months out; 60 periods bound the loop whatever the input.
  for (let n = periodsCharged; n < periodsCharged + 60; n++) {
    const charge = chargeForPeriod(terms, billing, startDate, n);
    if (charge.periodStart > visitDate) {
      if (billing === "monthly")
        beyondPayment = { minutes: charge.minutes, date: charge.periodStart };
      break;
    }
    paidByThen.minutes += charge.minutes;
    paidByThen.dates.push(charge.periodStart);
  }
  return { paidByThen, beyondPayment };
}

const MONTH_DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "long",
  day: "numeric",
});
const MONTH_DAY_YEAR = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "long",
  day: "numeric",
  year: "numeric",
});

/** "2026-12-18" -> "December 18" in `today`'s year, "December 18, 2027" otherwise. */
export function shortDate(date: IsoDate, today: IsoDate) {
  const { y, m, d } = parse(date);
  const format = y === parse(today).y ? MONTH_DAY : MONTH_DAY_YEAR;
  return format.format(new Date(Date.UTC(y, m - 1, d)));
}

/** Minutes charged in the membership year holding `today` (the meter's "paid"). */
export function minutesPaidThisYear(input: {
  terms: MembershipTerms;
  billing: Billing;
  startDate: IsoDate;
  periodsCharged: number;
  today: IsoDate;
}) {
  const year = membershipYear(
    input.startDate,
    input.today < input.startDate ? input.startDate : input.today,
  );
  let minutes = 0;
  for (let n = input.periodsCharged - 1; n >= 0; n--) {
    const charge = chargeForPeriod(input.terms, input.billing, input.startDate, n);
    if (charge.periodStart < year.first) break;
    minutes += charge.minutes;
  }
  return minutes;
}

/**
 * The hours meter in words (ADR 057): what is paid this membership year, what is left now
 * (or booked ahead of payment), and what the next charge adds, when:
 * '7 h paid, 2 h left now; 3 h 30 min more on December 18'.
 */
export function meterLabel(input: {
  paidMinutes: number;
  minutesLeft: number;
  next: { date: IsoDate; minutes: number } | null;
  today: IsoDate;
}) {
  const next = input.next
    ? `; ${formatMinutes(input.next.minutes)} more on ${shortDate(input.next.date, input.today)}`
    : "";
  return `${hoursMeterText(input.paidMinutes, input.minutesLeft)}${next}`;
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

const MONTH = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "long" });

function monthName(date: IsoDate) {
  const { y, m } = parse(date);
  return MONTH.format(new Date(Date.UTC(y, m - 1, 1)));
}

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
      label: `Hours used before they were paid (${formatMinutes(quote.minutesOwed)})`,
      cents: -quote.owedCents,
    });
  }
  const { charges, creditCents } = allocateLedger(input.ledger);
  // The cancel reverses each upcoming extra visit's charge: its unpaid part is no longer owed
  // (no 'Unpaid' line), what was paid of it comes back. The lines follow the charges' order
  // in the ledger (oldest first), whatever the order the visits were given in.
  const backs: { at: number; cents: number }[] = [];
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
    if (back !== 0) backs.push({ at, cents: back });
  }
  const reversedLines: SettlementLine[] = backs
    .sort((a, b) => a.at - b.at)
    .map(({ cents }) => ({ label: "Extra visit reversed", cents }));
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
 * A refund sent, as the canceled membership's page says it (ADR 081): 'Sent by check on
 * November 28, 2026: $597.64 (Check 1042).', 'Sent back to the card on ...'.
 */
export function refundSentText(
  amountCents: number,
  method: string | null,
  reference: string | null,
  on: IsoDate,
) {
  const how =
    method === "card"
      ? "back to the card"
      : method === "cash"
        ? "in cash"
        : method
          ? `by ${method.replace("_", " ")}`
          : "";
  const { y, m, d } = parse(on);
  const day = MONTH_DAY_YEAR.format(new Date(Date.UTC(y, m - 1, d)));
  return `Sent ${how ? `${how} ` : ""}on ${day}: ${formatCents(amountCents)}${reference ? ` (${reference})` : ""}.`;
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
