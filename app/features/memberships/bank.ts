import {
  EXTRA_VISIT,
  VISIT_BLOCKS,
  WORK_STEP_MINUTES,
  type PlanTerms,
  type VisitBlockMinutes,
} from "~/content/plans";
import { hoursLeftText, hoursMeterText, hoursText } from "~/lib/hours";
import { formatCents, formatPrice } from "~/lib/money";
import { addDays, addMonths, plainDate, type IsoDate } from "~/lib/business-calendar";

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
export type { IsoDate };

/* ---------- display ---------- */

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

export const EXTRA_VISIT_BLOCK_ONLY = `An extra visit is ${hoursText(EXTRA_VISIT.minutes)}.`;

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
      reason: `A member's visit is ${hoursText(VISIT_BLOCKS[0])} or ${hoursText(VISIT_BLOCKS[1])}.`,
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
        ? `Not enough hours for that day: ${hoursText(Math.max(0, minutesAvailable + ahead))} can be booked by then, the visit needs ${hoursText(block)}.`
        : `Not enough hours left: ${hoursLeftText(minutesAvailable)}, the visit needs ${hoursText(block)}.`,
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
          ? `Uses ${hoursText(decision.minutes)}: ${hoursText(now)} left now and ${hoursText(decision.minutes - now)} from the hours paid by then`
          : `Uses ${hoursText(decision.minutes)} from the hours paid by then`;
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
      const on = (date: IsoDate) => plainDate(date, { today: ahead.visitDate });
      const paidDates = ahead.paidByThen.dates;
      const parts = [
        now > 0 ? `${hoursText(now)} left now` : null,
        fromPaid > 0
          ? `${hoursText(fromPaid)} from the hours paid ${
              paidDates.length === 1 ? `on ${on(paidDates[0])}` : `by ${on(ahead.visitDate)}`
            } (before the visit)`
          : null,
        beyond > 0
          ? `${hoursText(beyond)} booked ahead of payment (its hours are charged on ${on(ahead.beyondPayment!.date)}, after the visit)`
          : null,
      ].filter((p): p is string => p !== null);
      const list =
        parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
      return `Uses ${hoursText(decision.minutes)}: ${list}`;
    }
    return `Uses ${hoursText(decision.minutes)} of ${hoursText(minutesAvailable)} left`;
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

const MONTH = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", month: "long" });

/** "2026-11-05" -> "November". */
export function monthName(date: IsoDate) {
  const { y, m } = parse(date);
  return MONTH.format(new Date(Date.UTC(y, m - 1, 1)));
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
    ? `; ${hoursText(input.next.minutes)} more on ${plainDate(input.next.date, { today: input.today })}`
    : "";
  return `${hoursMeterText(input.paidMinutes, input.minutesLeft)}${next}`;
}

/* ---------- a refund sent, in words (ADR 081) ---------- */

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
  return `Sent ${how ? `${how} ` : ""}on ${plainDate(on)}: ${formatCents(amountCents)}${reference ? ` (${reference})` : ""}.`;
}
