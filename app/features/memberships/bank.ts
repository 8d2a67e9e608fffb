import {
  EXTRA_VISIT,
  VISIT_BLOCKS,
  WORK_STEP_MINUTES,
  type PlanTerms,
  type VisitBlockMinutes,
} from "~/content/plans";

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

/** 735 -> "12 h 15 min", 2520 -> "42 h", 45 -> "45 min", 0 -> "0 min". */
export function formatMinutes(minutes: number) {
  const sign = minutes < 0 ? "-" : "";
  const m = Math.abs(minutes);
  const h = Math.floor(m / 60);
  const rest = m % 60;
  if (h && rest) return `${sign}${h} h ${rest} min`;
  if (h) return `${sign}${h} h`;
  return `${sign}${rest} min`;
}

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
  if (input.asExtra) return extra("Booked by staff as an extra visit.");
  if (minutesAvailable < block) {
    return {
      kind: "refused",
      reason: `Not enough hours left: ${formatMinutes(minutesAvailable)} left, the visit needs ${formatMinutes(block)}.`,
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

/** The sentence shown before anyone confirms a visit. */
export function spendLabel(decision: VisitDecision, minutesAvailable: number) {
  if (decision.kind === "bank") {
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
};

export function quoteCancellation(input: {
  terms: MembershipTerms;
  startDate: IsoDate;
  cancelDate: IsoDate;
  guaranteeDays: number;
  /** Minutes left in the bank once future visits are released. */
  minutesLeft: number;
  /** Net membership charges so far (charges less earlier corrections), in cents. */
  membershipChargesCents: number;
}): CancellationQuote {
  const minutesRefunded = Math.max(0, input.minutesLeft);
  if (withinGuarantee(input.startDate, input.cancelDate, input.guaranteeDays)) {
    return {
      rule: "guarantee",
      refundCents: Math.max(0, input.membershipChargesCents),
      minutesRefunded,
    };
  }
  return {
    rule: "unused_hours",
    // Never more than was charged, whatever the rounding.
    refundCents: Math.min(
      Math.max(0, input.membershipChargesCents),
      refundForUnusedMinutes(input.terms, minutesRefunded),
    ),
    minutesRefunded,
  };
}
