import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  pgTable,
  type AnyPgColumn,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { timestamps } from "./columns";
import { homes } from "./home";
import { appointments } from "./visits";

/* ---------- Memberships: plans, the hours bank, parts (docs/decisions/012-015) ---------- */

export const membershipPlan = pgEnum("membership_plan", ["essential", "complete", "total"]);
export const membershipBilling = pgEnum("membership_billing", ["monthly", "annual"]);
export const membershipStatus = pgEnum("membership_status", ["active", "canceled"]);

/**
 * A customer's membership for their home. The plan's terms are copied when it starts, so a
 * price change never rewrites what a member was charged. `minutesAvailable` (the hours bank)
 * and `balanceCents` (what the member owes; negative is a credit) change only in the same
 * transaction as a ledger row, under this row's lock: concurrent bookings serialize here, and
 * the CHECK bounds how far booking ahead of payment (ADR 057) takes the bank below zero.
 */
export const memberships = pgTable(
  "memberships",
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: text()
      .notNull()
      .references(() => user.id),
    homeId: uuid()
      .notNull()
      .references(() => homes.id),
    plan: membershipPlan().notNull(),
    planName: text().notNull(),
    monthlyPriceCents: integer().notNull(),
    minutesPerYear: integer().notNull(),
    visitsPerYear: integer().notNull(),
    billing: membershipBilling().notNull(),
    status: membershipStatus().notNull().default("active"),
    /** The day payment details were recorded: the first billing period begins then. */
    startDate: date({ mode: "string" }).notNull(),
    /** Billing periods charged so far; the next one begins `periodsCharged` periods after start. */
    periodsCharged: integer().notNull().default(0),
    minutesAvailable: integer().notNull().default(0),
    balanceCents: integer().notNull().default(0),
    /** The business day the membership ended (the guarantee is judged on it). */
    canceledOn: date({ mode: "string" }),
    /**
     * The cancellation's settlement as it was computed and shown (ADR 058): the lines, the
     * result and how it is paid. The canceled membership's page shows it.
     */
    settlement: jsonb().$type<{
      lines: { label: string; cents: number }[];
      resultCents: number;
      resultLabel: string;
      howLabel: string | null;
    }>(),
    canceledAt: timestamp({ withTimezone: true }),
    canceledBy: text().references(() => user.id, { onDelete: "set null" }),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    /**
     * Who collects its charges: null, staff by hand (charges posted on the period's first day);
     * "stripe", Stripe (a charge and its payment are posted when Stripe says a period is paid).
     */
    paymentProvider: text(),
    /** Stripe: the subscription (monthly) paying this membership. */
    stripeSubscriptionId: text().unique(),
    /** A card payment failed on this day and is not yet paid: the membership is 'Past due'. */
    pastDueSince: date({ mode: "string" }),
    /** The offer it was started from (ADR 079): an offer becomes one membership, never two. */
    offerId: uuid().references((): AnyPgColumn => membershipOffers.id),
    /**
     * Annual billing: what the member chose for the next renewal ('Switch to monthly', 'Cancel
     * renewal'); null renews for another year. Applied on the renewal date.
     */
    renewalChoice: text().$type<"monthly" | "cancel">(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("memberships_one_per_offer").on(t.offerId),
    check("memberships_renewal_choice", sql`${t.renewalChoice} in ('monthly', 'cancel')`),
    uniqueIndex("memberships_one_active_per_home")
      .on(t.homeId)
      .where(sql`${t.status} = 'active'`),
    uniqueIndex("memberships_one_active_per_customer")
      .on(t.customerId)
      .where(sql`${t.status} = 'active'`),
    index("memberships_customer_idx").on(t.customerId, t.createdAt),
    // A home's memberships: whether an earlier one took the guarantee away (ADR 059, ADR 109).
    index("memberships_home_idx").on(t.homeId, t.createdAt),
    // Booking ahead of payment (ADR 057) takes the bank below zero, never by more than a year's
    // hours (one month ahead of the visit's date on monthly billing).
    check(
      "memberships_minutes_available_within_a_year_ahead",
      sql`${t.minutesAvailable} >= -${t.minutesPerYear}`,
    ),
    check(
      "memberships_terms_positive",
      sql`${t.monthlyPriceCents} > 0 and ${t.minutesPerYear} > 0 and ${t.visitsPerYear} > 0`,
    ),
    check("memberships_periods_charged", sql`${t.periodsCharged} >= 0`),
  ],
);

export const membershipMinutesKind = pgEnum("membership_minutes_kind", [
  "accrual",
  "reserve",
  "release",
  "return",
  "refund",
  "correction",
]);

/**
 * One order across both ledgers of every membership (ADR 041). A row takes its number when it
 * is inserted, under the membership row's lock (every ledger write holds it), so a membership's
 * rows are numbered in the order their balances were computed, whatever order their
 * transactions began in: the statement reads by it, and each running balance follows from the
 * row below.
 */
export const membershipLedgerSeq = pgSequence("membership_ledger_seq");

const ledgerSeq = () =>
  bigint({ mode: "number" })
    .notNull()
    .default(sql`nextval('membership_ledger_seq')`);

/**
 * The hours bank's ledger, append-only (triggers refuse UPDATE and DELETE): paid minutes in
 * (accrual), a visit's block out (reserve), back when the visit is canceled or moved (release)
 * or finished early (return), and the unused minutes out when the membership is canceled and
 * refunded (refund), and staff's 'Correct time worked' on a completed visit (correction: a new
 * entry, never an edit of the visit's). `balanceAfter` is the bank after this entry.
 */
export const membershipMinutesLedger = pgTable(
  "membership_minutes_ledger",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    membershipId: uuid()
      .notNull()
      .references(() => memberships.id),
    kind: membershipMinutesKind().notNull(),
    minutes: integer().notNull(),
    balanceAfter: integer().notNull(),
    /** The visit (appointment) this entry belongs to; kept even if the visit row goes. */
    appointmentId: uuid(),
    note: text().notNull(),
    createdBy: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    seq: ledgerSeq(),
  },
  (t) => [
    index("membership_minutes_ledger_membership_idx").on(t.membershipId, t.id),
    index("membership_minutes_ledger_membership_seq_idx").on(t.membershipId, t.seq),
    // The reports (ADR 070): the entries since an instant (hours owed at a past day), and a
    // visit's corrections.
    index("membership_minutes_ledger_created_idx").on(t.createdAt),
    // A visit's entries, moved with the visit to another day in the reports (ADR 082).
    index("membership_minutes_ledger_appointment_idx")
      .on(t.appointmentId)
      .where(sql`${t.appointmentId} is not null`),
    index("membership_minutes_ledger_correction_idx")
      .on(t.appointmentId)
      .where(sql`${t.kind} = 'correction'`),
    check(
      "membership_minutes_ledger_sign",
      sql`(${t.kind} in ('accrual', 'release', 'return') and ${t.minutes} > 0) or (${t.kind} in ('reserve', 'refund') and ${t.minutes} < 0) or (${t.kind} = 'correction' and ${t.minutes} <> 0)`,
    ),
  ],
);

export const membershipMoneyKind = pgEnum("membership_money_kind", [
  "membership_charge",
  "extra_visit",
  "part",
  "shopping_fee",
  "payment",
  "refund",
  "correction",
  "refund_paid",
  "second_handyman",
]);

export const paymentMethod = pgEnum("payment_method", ["card", "check", "cash", "bank_transfer"]);

/**
 * The money ledger of a membership, in integer cents, append-only: charges are positive (the
 * member owes them), payments and refunds negative; a correction is a new entry, never an
 * edit. `balanceAfter` is what the member owes after this entry (negative: a credit). Staff
 * write payments today; a payment provider can write the same entries later.
 */
export const membershipMoneyLedger = pgTable(
  "membership_money_ledger",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    membershipId: uuid()
      .notNull()
      .references(() => memberships.id),
    kind: membershipMoneyKind().notNull(),
    amountCents: integer().notNull(),
    balanceAfter: integer().notNull(),
    description: text().notNull(),
    /** Membership charges: the first day of the billing period paid for. */
    periodStart: date({ mode: "string" }),
    appointmentId: uuid(),
    partId: uuid(),
    paymentMethod: paymentMethod(),
    reference: text(),
    createdBy: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    seq: ledgerSeq(),
    /**
     * The payment provider's id this row was written from (a Stripe invoice, payment intent or
     * refund, with a prefix telling which part of it: "in_...:charge"), unique: a webhook or
     * the reconciliation never posts the same thing twice.
     */
    providerRef: text(),
  },
  (t) => [
    uniqueIndex("membership_money_ledger_provider_ref").on(t.providerRef),
    index("membership_money_ledger_membership_idx").on(t.membershipId, t.id),
    index("membership_money_ledger_membership_seq_idx").on(t.membershipId, t.seq),
    // The reports' days at the ends of a custom range, beside the monthly summary (ADR 070).
    index("membership_money_ledger_created_idx").on(t.createdAt),
    // A visit's entries, moved with the visit to another day in the reports (ADR 082).
    index("membership_money_ledger_appointment_idx")
      .on(t.appointmentId)
      .where(sql`${t.appointmentId} is not null`),
    // A billing period is charged once, a visit's shopping fee once, a part once.
    uniqueIndex("membership_money_ledger_one_charge_per_period")
      .on(t.membershipId, t.periodStart)
      .where(sql`${t.kind} = 'membership_charge'`),
    uniqueIndex("membership_money_ledger_one_shopping_fee_per_visit")
      .on(t.appointmentId)
      .where(sql`${t.kind} = 'shopping_fee'`),
    // A visit's second handyman is charged once (ADR 091): the kinds before it are named (and
    // refund_paid left out by its payment method), as the migration that added the kind could
    // not name it (migration 0026).
    uniqueIndex("membership_money_ledger_one_second_handyman_per_visit")
      .on(t.appointmentId)
      .where(
        sql`${t.kind} not in ('membership_charge', 'extra_visit', 'part', 'shopping_fee', 'payment', 'refund', 'correction') and ${t.paymentMethod} is null`,
      ),
    uniqueIndex("membership_money_ledger_one_charge_per_part")
      .on(t.partId)
      .where(sql`${t.kind} = 'part'`),
    check(
      "membership_money_ledger_sign",
      sql`(${t.kind}::text in ('membership_charge', 'extra_visit', 'part', 'shopping_fee', 'refund_paid', 'second_handyman') and ${t.amountCents} > 0) or (${t.kind} in ('payment', 'refund') and ${t.amountCents} < 0) or (${t.kind} = 'correction' and ${t.amountCents} <> 0)`,
    ),
    check(
      "membership_money_ledger_payment_method",
      sql`(${t.kind}::text in ('payment', 'refund_paid')) = (${t.paymentMethod} is not null)`,
    ),
  ],
);

export const membershipVisitStatus = pgEnum("membership_visit_status", [
  "reserved",
  "released",
  "completed",
]);

/**
 * An appointment of a member is a visit: its block (1 h 45 min or 3 h 30 min) reserved from the
 * bank, or an extra visit charged $150 and not taken from the bank; completing it records the
 * time worked and returns the rest.
 */
export const membershipVisits = pgTable(
  "membership_visits",
  {
    appointmentId: uuid()
      .primaryKey()
      .references(() => appointments.id, { onDelete: "cascade" }),
    membershipId: uuid()
      .notNull()
      .references(() => memberships.id),
    blockMinutes: integer().notNull(),
    isExtra: boolean().notNull().default(false),
    extraReason: text(),
    status: membershipVisitStatus().notNull().default("reserved"),
    minutesWorked: integer(),
    completedAt: timestamp({ withTimezone: true }),
    completedBy: text().references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("membership_visits_membership_idx").on(t.membershipId, t.status),
    index("membership_visits_completed_idx")
      .on(t.completedAt)
      .where(sql`${t.completedAt} is not null`),
    // The blocks open visits hold (the reports' hours owed, ADR 077): a few hundred of 15,000.
    index("membership_visits_reserved_idx")
      .on(t.membershipId, t.blockMinutes)
      .where(sql`${t.status} = 'reserved' and not ${t.isExtra}`),
    check("membership_visits_block", sql`${t.blockMinutes} in (105, 210)`),
    check(
      "membership_visits_worked",
      sql`${t.minutesWorked} is null or (${t.minutesWorked} between 15 and ${t.blockMinutes} and ${t.minutesWorked} % 15 = 0)`,
    ),
  ],
);

export const partStatus = pgEnum("part_status", [
  "pending_approval",
  "approved",
  "declined",
  "bought",
  /** Office staff removed a wrong part (a reversing entry if it was charged). */
  "removed",
  /** Still waiting when its membership was canceled: nobody is asked about it any more. */
  "withdrawn",
]);

/**
 * A part for a visit. Over $100 it waits for the member's approval (pending_approval);
 * otherwise it is approved when recorded. Only an approved part can be marked bought, which
 * charges it (and the visit's one $10 shopping fee) in the money ledger; a part recorded with
 * its receipt photo is bought already (charged when recorded, or when the member approves it).
 * Office staff remove a wrong part (removed) or correct it; a canceled membership's parts still
 * waiting are withdrawn.
 */
export const membershipParts = pgTable(
  "membership_parts",
  {
    id: uuid().primaryKey().defaultRandom(),
    membershipId: uuid()
      .notNull()
      .references(() => memberships.id),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id),
    description: text().notNull(),
    costCents: integer().notNull(),
    needsApproval: boolean().notNull(),
    status: partStatus().notNull(),
    decidedAt: timestamp({ withTimezone: true }),
    decidedBy: text().references(() => user.id, { onDelete: "set null" }),
    boughtAt: timestamp({ withTimezone: true }),
    boughtBy: text().references(() => user.id, { onDelete: "set null" }),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    /**
     * The receipt's photo ('Add part' on 'Today'), stored through the photo pipeline under
     * part-receipts/ and served only to office staff, the visit's handyman and the member.
     */
    receiptPath: text(),
    receiptThumbnailPath: text(),
    /** When it stopped counting: removed by the office, or withdrawn at its membership's cancel. */
    removedAt: timestamp({ withTimezone: true }),
    removedBy: text().references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("membership_parts_membership_idx").on(t.membershipId, t.createdAt),
    index("membership_parts_pending_idx")
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending_approval'`),
    check("membership_parts_cost", sql`${t.costCents} > 0`),
  ],
);

export const membershipOfferStatus = pgEnum("membership_offer_status", [
  "open",
  "accepted",
  "withdrawn",
]);

/**
 * A membership offered by the office after the walk-thru: the plan, billing and start date the
 * customer sees on their Membership tab with 'Start membership'. The membership it becomes is
 * started when the payment is confirmed (Stripe's webhook, or staff recording the first payment).
 */
export const membershipOffers = pgTable(
  "membership_offers",
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: text()
      .notNull()
      .references(() => user.id),
    plan: membershipPlan().notNull(),
    billing: membershipBilling().notNull(),
    startDate: date({ mode: "string" }).notNull(),
    status: membershipOfferStatus().notNull().default("open"),
    /** Stripe: the last Checkout Session opened for it (reused while it is open). */
    checkoutSessionId: text(),
    /** Stripe: how many of its Checkout Sessions expired unpaid (the next one's key). */
    checkoutAttempt: integer().notNull().default(0),
    /**
     * Stripe: what paid it (the subscription, or the payment intent of a one-time payment). A
     * second one paid for the same offer is refunded, never posted.
     */
    paidBy: text(),
    membershipId: uuid().references(() => memberships.id),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("membership_offers_one_open_per_customer")
      .on(t.customerId)
      .where(sql`${t.status} = 'open'`),
  ],
);

export type Membership = typeof memberships.$inferSelect;
export type MembershipMinutesEntry = typeof membershipMinutesLedger.$inferSelect;
export type MembershipMoneyEntry = typeof membershipMoneyLedger.$inferSelect;
export type MembershipVisit = typeof membershipVisits.$inferSelect;
export type MembershipPart = typeof membershipParts.$inferSelect;
