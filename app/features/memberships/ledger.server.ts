import { and, eq, sql } from "drizzle-orm";
import { db, type Database, type DbOrTx, type Tx } from "~/db/client.server";
import {
  membershipMinutesLedger,
  membershipMoneyLedger,
  memberships,
  type Membership,
} from "~/db/schema";
import { bookableAhead, chargeForPeriod, minutesBookableAhead, type IsoDate } from "./bank";
import { type PaymentMethod } from "./money.server";
import { businessNow, plainDate } from "~/lib/business-calendar";

/*
 * Memberships on the database: every change to the hours bank or the money happens in a
 * transaction that first locks the membership row (SELECT ... FOR UPDATE), appends a ledger row
 * and moves the row's running total by the same amount. Concurrent bookings therefore take
 * turns on the row, and the CHECK on minutes_available refuses a negative bank even if a rule
 * were wrong. This module holds the locks, the two ledgers' posting and the charges due; the
 * other modules of the feature (start, visit minutes, money, parts, cancel, summary,
 * statement) call it.
 */

export type Actor = { id: string; isEmployee: boolean };

/** Runs `fn` in a transaction of `database` (a savepoint when it is already a transaction). */
export function inTransaction<T>(database: DbOrTx, fn: (tx: Tx) => Promise<T>) {
  return (database as Database).transaction(fn);
}

export function isUniqueViolation(error: unknown, constraint?: string) {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const e = cause as { code?: string; constraint?: string };
  return e?.code === "23505" && (!constraint || e.constraint === constraint);
}

/* ---------- ledgers ---------- */

export async function lockMembership(tx: Tx, membershipId: string) {
  const [row] = await tx
    .select()
    .from(memberships)
    .where(eq(memberships.id, membershipId))
    .for("update");
  return row;
}

export async function lockActiveMembershipOf(tx: Tx, customerId: string) {
  const [row] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active")))
    .for("update");
  return row;
}

export type MinutesEntry = {
  kind: "accrual" | "reserve" | "release" | "return" | "refund" | "correction";
  minutes: number;
  note: string;
  appointmentId?: string | null;
  createdBy?: string | null;
};

/** Appends to the hours ledger and moves the bank by the same minutes (row already locked). */
export async function postMinutes(tx: Tx, membership: Membership, entry: MinutesEntry) {
  const [row] = await tx
    .update(memberships)
    .set({ minutesAvailable: sql`${memberships.minutesAvailable} + ${entry.minutes}` })
    .where(eq(memberships.id, membership.id))
    .returning({ minutesAvailable: memberships.minutesAvailable });
  await tx.insert(membershipMinutesLedger).values({
    membershipId: membership.id,
    kind: entry.kind,
    minutes: entry.minutes,
    balanceAfter: row.minutesAvailable,
    appointmentId: entry.appointmentId ?? null,
    note: entry.note,
    createdBy: entry.createdBy ?? null,
  });
  membership.minutesAvailable = row.minutesAvailable;
  return row.minutesAvailable;
}

export type MoneyEntry = {
  kind:
    | "refund_paid"
    | "membership_charge"
    | "extra_visit"
    | "part"
    | "shopping_fee"
    | "second_handyman"
    | "payment"
    | "refund"
    | "correction";
  amountCents: number;
  description: string;
  periodStart?: IsoDate | null;
  appointmentId?: string | null;
  partId?: string | null;
  paymentMethod?: PaymentMethod | null;
  reference?: string | null;
  createdBy?: string | null;
  /** The payment provider's id it was written from (unique). */
  providerRef?: string | null;
};

/** Appends to the money ledger and moves the balance by the same cents (row already locked). */
export async function postMoney(tx: Tx, membership: Membership, entry: MoneyEntry) {
  const [row] = await tx
    .update(memberships)
    .set({ balanceCents: sql`${memberships.balanceCents} + ${entry.amountCents}` })
    .where(eq(memberships.id, membership.id))
    .returning({ balanceCents: memberships.balanceCents });
  await tx.insert(membershipMoneyLedger).values({
    membershipId: membership.id,
    kind: entry.kind,
    amountCents: entry.amountCents,
    balanceAfter: row.balanceCents,
    description: entry.description,
    periodStart: entry.periodStart ?? null,
    appointmentId: entry.appointmentId ?? null,
    partId: entry.partId ?? null,
    paymentMethod: entry.paymentMethod ?? null,
    reference: entry.reference ?? null,
    createdBy: entry.createdBy ?? null,
    providerRef: entry.providerRef ?? null,
  });
  membership.balanceCents = row.balanceCents;
  return row.balanceCents;
}

export function termsOf(m: Membership) {
  return {
    monthlyPriceCents: m.monthlyPriceCents,
    minutesPerYear: m.minutesPerYear,
    visitsPerYear: m.visitsPerYear,
  };
}

/** The first day of the next billing period not yet charged. */
export function nextChargeDate(m: Membership) {
  return chargeForPeriod(termsOf(m), m.billing, m.startDate, m.periodsCharged).periodStart;
}

/**
 * The member's choice for an annual renewal (ADR 080), applied on a locked membership when the
 * renewal's period is about to be charged. 'Switch to monthly': billed monthly from the renewal
 * date on (the years charged count as twelve months each, so the next month begins on the
 * renewal date, the first month of a plan year); "changed". 'Cancel renewal': nothing is charged
 * ("stop"; the renewal day's job ends the membership), unless `cancelStops` is false (Stripe
 * was paid all the same). "as is": no choice to apply.
 */
export async function applyRenewalChoice(
  tx: Tx,
  m: Membership,
  options: { cancelStops?: boolean } = {},
): Promise<"as is" | "changed" | "stop"> {
  if (m.billing !== "annual" || m.periodsCharged === 0 || !m.renewalChoice) return "as is";
  if (m.renewalChoice === "cancel") return options.cancelStops === false ? "as is" : "stop";
  m.billing = "monthly";
  m.periodsCharged *= 12;
  m.renewalChoice = null;
  await tx
    .update(memberships)
    .set({ billing: "monthly", periodsCharged: m.periodsCharged, renewalChoice: null })
    .where(eq(memberships.id, m.id));
  return "changed";
}

/**
 * Posts every charge due up to `today` on a locked, active membership: the period's price to
 * the money ledger and the minutes it buys to the bank (monthly: hours per year / 12; annual:
 * the year's hours upfront). Idempotent: a period is charged once (a unique index too).
 */
export async function postChargesDue(tx: Tx, m: Membership, today: IsoDate) {
  if (m.status !== "active") return;
  // Stripe collects this membership: a period is charged when Stripe says it is paid.
  if (m.paymentProvider) return;
  for (;;) {
    const charge = chargeForPeriod(termsOf(m), m.billing, m.startDate, m.periodsCharged);
    if (charge.periodStart > today) break;
    const renewal = await applyRenewalChoice(tx, m);
    if (renewal === "stop") break;
    if (renewal === "changed") continue;
    const billingLabel = m.billing === "annual" ? "annual" : "monthly";
    const through = chargeForPeriod(termsOf(m), m.billing, m.startDate, m.periodsCharged + 1);
    const period = `${plainDate(charge.periodStart)} to the day before ${plainDate(through.periodStart)}`;
    await postMoney(tx, m, {
      kind: "membership_charge",
      amountCents: charge.amountCents,
      description: `${m.planName}, ${billingLabel}: ${period}`,
      periodStart: charge.periodStart,
    });
    await postMinutes(tx, m, {
      kind: "accrual",
      minutes: charge.minutes,
      note: `Hours paid for ${period}`,
    });
    m.periodsCharged += 1;
    await tx
      .update(memberships)
      .set({ periodsCharged: m.periodsCharged })
      .where(eq(memberships.id, m.id));
  }
}

/**
 * Charges whatever billing periods have begun since the last look (cheap when none has: one
 * read). Called by every page and action that shows or spends the bank.
 */
export async function bringChargesUpToDate(membershipId: string, today = businessNow().date) {
  const [m] = await db().select().from(memberships).where(eq(memberships.id, membershipId));
  if (!m || m.status !== "active" || m.paymentProvider || nextChargeDate(m) > today) return;
  await db().transaction(async (tx) => {
    const locked = await lockMembership(tx, membershipId);
    if (locked) await postChargesDue(tx, locked, today);
  });
}

/** minutesAheadFor's hours told apart: paid by the visit's day, or booked ahead of payment. */
export function aheadSplitFor(m: Membership, visitDate: IsoDate) {
  return bookableAhead({
    terms: termsOf(m),
    billing: m.billing,
    startDate: m.startDate,
    periodsCharged: m.periodsCharged,
    visitDate,
  });
}

/** Minutes a visit on `visitDate` may take beyond the bank: paid by then, plus a month (ADR 057). */
export function minutesAheadFor(m: Membership, visitDate: IsoDate) {
  return minutesBookableAhead({
    terms: termsOf(m),
    billing: m.billing,
    startDate: m.startDate,
    periodsCharged: m.periodsCharged,
    visitDate,
  });
}
