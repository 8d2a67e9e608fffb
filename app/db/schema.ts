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
  primaryKey,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { REQUEST_STATUSES } from "./request-status";
import { LEAD_STATUSES, VISIT_KINDS } from "./lead-status";
import { STAFF_ROLES } from "./staff-role";
import { REFERRAL_STATUSES, SPECIALIST_TRADES } from "./specialist-trade";
import { TASK_OUTCOMES, VISIT_STATUSES } from "./visit-status";
import { APPLIANCE_TYPES, type ApplianceType } from "./appliance-types";

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/* ---------- Better Auth tables (kept in the repo; see DESIGN.md pitfalls) ---------- */

export const user = pgTable("user", {
  id: text().primaryKey(),
  name: text().notNull(),
  email: text().notNull().unique(),
  emailVerified: boolean().notNull().default(false),
  image: text(),
  twoFactorEnabled: boolean().default(false),
  ...timestamps,
});

export const session = pgTable(
  "session",
  {
    id: text().primaryKey(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    token: text().notNull().unique(),
    ipAddress: text(),
    userAgent: text(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    ...timestamps,
  },
  (t) => [index("session_user_id_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text().primaryKey(),
    accountId: text().notNull(),
    providerId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text(),
    refreshToken: text(),
    idToken: text(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    scope: text(),
    password: text(),
    ...timestamps,
  },
  (t) => [index("account_user_id_idx").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text().primaryKey(),
    identifier: text().notNull(),
    value: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ...timestamps,
  },
  (t) => [index("verification_identifier_idx").on(t.identifier)],
);

export const twoFactor = pgTable(
  "two_factor",
  {
    id: text().primaryKey(),
    secret: text().notNull(),
    backupCodes: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean().default(true),
    failedVerificationCount: integer().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
    /** Replay protection: the last accepted TOTP time step (DESIGN.md pitfalls). */
    lastUsedStep: bigint({ mode: "number" }),
  },
  (t) => [
    index("two_factor_user_id_idx").on(t.userId),
    index("two_factor_secret_idx").on(t.secret),
  ],
);

/* ---------- Product tables ---------- */

/**
 * "First Last" as one searchable string, folded (search_fold: no accents, straight quotes, lower
 * case; migration 0007); the trigram index below is built on exactly this expression, so queries
 * must use it verbatim (app/db/search.ts) to be served by the index.
 */
const profileFullNameFolded = sql`search_fold((coalesce(first_name, '') || ' ' || coalesce(last_name, '')))`;

export const profiles = pgTable(
  "profiles",
  {
    userId: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    firstName: text(),
    lastName: text(),
    /** Never settable by the user: only the admin CLI grants it. */
    isEmployee: boolean().notNull().default(false),
    /**
     * An employee's role (ADR 047): 'office' staff see everything; a 'handyman' sees their own
     * visits only. Set by the admin CLI and by office staff; meaningless for customers.
     */
    staffRole: text({ enum: STAFF_ROLES }).notNull().default("office"),
    profilePhotoUrl: text(),
    /**
     * The person's one phone number (ADR 085): shown as their phone everywhere and the number
     * texts go to (E.164, +1 and ten digits, for a US number; migration 0022 moved the
     * profile's separate 'Phone' here).
     */
    mobilePhone: text(),
    /**
     * When the person proved with a texted code that the mobile is theirs (ADR 086): only then
     * may it sign them in. Cleared whenever the number changes.
     */
    mobileVerifiedAt: timestamp({ withTimezone: true }),
    /** When and where the person said 'Text me about my visits'; null: no texts. */
    textConsentAt: timestamp({ withTimezone: true }),
    textConsentSource: text(),
    /** A STOP reply (or unticking the box): no text at all until START or a new opt-in. */
    textStoppedAt: timestamp({ withTimezone: true }),
    /** E-mail and text per kind of message (absent: the defaults of notifications/kinds.ts). */
    notificationPrefs: jsonb().$type<Record<string, { email?: boolean; text?: boolean }>>(),
    /** A member's dedicated handyman (ADR 088): set by office staff, a new member gets one. */
    dedicatedHandymanId: text().references((): AnyPgColumn => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("profiles_mobile_phone_idx").on(t.mobilePhone),
    // One verified mobile signs in to one account only (ADR 086).
    uniqueIndex("profiles_verified_mobile_idx")
      .on(t.mobilePhone)
      .where(sql`${t.mobileVerifiedAt} is not null`),
    // The employee dashboard's customer list and search, at thousands of customers.
    index("profiles_customers_name_idx")
      .on(t.firstName, t.lastName, t.userId)
      .where(sql`${t.isEmployee} = false`),
    // fastupdate off: a search never scans a pending list (see service_requests_title_trgm_idx).
    index("profiles_full_name_folded_trgm_idx")
      .using("gin", sql`${profileFullNameFolded} gin_trgm_ops`)
      .with({ fastupdate: "off" }),
    check("profiles_staff_role", sql`${t.staffRole} in ('office', 'handyman')`),
    index("profiles_dedicated_handyman_idx")
      .on(t.dedicatedHandymanId)
      .where(sql`${t.dedicatedHandymanId} is not null`),
  ],
);

export const homes = pgTable(
  "homes",
  {
    id: uuid().primaryKey().defaultRandom(),
    customerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    address: text().notNull(),
    city: text().notNull(),
    state: text().notNull(),
    zipCode: text().notNull(),
    propertyNotes: text(),
    ...timestamps,
  },
  (t) => [uniqueIndex("homes_customer_id_unique").on(t.customerId)],
);

export const requestPriority = pgEnum("request_priority", ["next", "later"]);
export const requestStatus = pgEnum("request_status", REQUEST_STATUSES);

export const serviceRequests = pgTable(
  "service_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    homeId: uuid()
      .notNull()
      .references(() => homes.id, { onDelete: "cascade" }),
    customerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    title: text().notNull(),
    description: text(),
    priority: requestPriority().notNull().default("later"),
    status: requestStatus().notNull().default("new"),
    /** Order inside the customer's priority group (DESIGN.md decision 2). */
    position: integer().notNull().default(0),
    employeeNotes: text(),
    /** A task of the home's maintenance plan fallen due (ADR 087), and the month it was due for. */
    planTaskId: uuid().references((): AnyPgColumn => homePlanTasks.id, { onDelete: "set null" }),
    planDueOn: date({ mode: "string" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("service_requests_one_per_plan_due")
      .on(t.planTaskId, t.planDueOn)
      .where(sql`${t.planTaskId} is not null`),
    index("service_requests_customer_idx").on(t.customerId, t.priority, t.position),
    index("service_requests_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("service_requests_status_created_idx").on(t.status, t.createdAt.desc(), t.id.desc()),
    // Search by title (LIKE '%term%' on the folded title, app/db/search.ts) on the employee
    // dashboard; needs the pg_trgm extension.
    // fastupdate off: with it on, new rows wait in a pending list that every search scans in
    // full until the next vacuum (measured: 0.2 ms became 12 ms after 100,000 inserts).
    index("service_requests_title_folded_trgm_idx")
      .using("gin", sql`search_fold(${t.title}) gin_trgm_ops`)
      .with({ fastupdate: "off" }),
  ],
);

/**
 * How many requests have each status, kept exact by statement-level triggers on
 * service_requests (see the migration), so the dashboard counters cost one tiny read at any
 * volume instead of a count over every request.
 */
export const serviceRequestStatusCounts = pgTable("service_request_status_counts", {
  status: requestStatus().primaryKey(),
  count: bigint({ mode: "number" }).notNull().default(0),
});

export const requestPhotos = pgTable(
  "request_photos",
  {
    id: uuid().primaryKey().defaultRandom(),
    requestId: uuid()
      .notNull()
      .references(() => serviceRequests.id, { onDelete: "cascade" }),
    filePath: text().notNull(),
    thumbnailPath: text(),
    fileName: text().notNull(),
    fileSize: integer().notNull(),
    contentType: text().notNull(),
    width: integer(),
    height: integer(),
    /** An after photo: the visit whose handyman took it ('Add photo' on 'Today'); null: the member's. */
    afterVisitId: uuid().references(() => appointments.id, { onDelete: "set null" }),
    /** A before photo: the visit whose handyman took it before the work ('Before' in 'Add photo'). */
    beforeVisitId: uuid().references(() => appointments.id, { onDelete: "set null" }),
    uploadedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("request_photos_request_idx").on(t.requestId, t.uploadedAt)],
);

/** A visit's life (ADR 046): the migration's trigger refuses any transition visit-state.ts refuses. */
export const appointmentStatus = pgEnum("appointment_status", VISIT_STATUSES);

export const visitKind = pgEnum("visit_kind", VISIT_KINDS);

export const appointments = pgTable(
  "appointments",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** A member's visit always has a customer and a home; a walk-thru for a lead may have neither. */
    customerId: text().references(() => user.id, { onDelete: "cascade" }),
    homeId: uuid().references(() => homes.id, { onDelete: "cascade" }),
    kind: visitKind().notNull().default("visit"),
    /** A walk-thru's lead (ADR 061). */
    leadId: uuid().references((): AnyPgColumn => prospects.id, { onDelete: "set null" }),
    /** A walk-thru's person and address as booked (a lead has no account or home yet). */
    contactName: text(),
    contactEmail: text(),
    address: text(),
    assignedEmployeeId: text().references(() => user.id, { onDelete: "set null" }),
    /** Calendar date and wall-clock times in the business time zone (lib/business-calendar.ts). */
    scheduledDate: date({ mode: "string" }).notNull(),
    startTime: time().notNull(),
    endTime: time().notNull(),
    status: appointmentStatus().notNull().default("booked"),
    notes: text(),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When the handyman tapped 'Start visit': 'Finish visit' offers the time since, rounded. */
    startedAt: timestamp({ withTimezone: true }),
    /** Booked with the covering handyman (ADR 088): the member's dedicated handyman, away. */
    coveringForId: text().references(() => user.id, { onDelete: "set null" }),
    /**
     * The second handyman, for a job one person cannot do alone (ADR 091): never the first
     * one; a trigger of migration 0026 holds his time as the exclusion constraint holds the
     * first one's.
     */
    secondHandymanId: text().references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [
    index("appointments_employee_date_idx").on(t.assignedEmployeeId, t.scheduledDate, t.startTime),
    index("appointments_customer_idx").on(t.customerId, t.scheduledDate),
    index("appointments_date_idx").on(t.scheduledDate, t.startTime),
    index("appointments_lead_idx").on(t.leadId),
    // The reports' walk-thrus booked in a period (ADR 077), without reading every visit.
    index("appointments_walk_thru_created_idx")
      .on(t.createdAt)
      .where(sql`${t.kind} = 'walk_thru'`),
    index("appointments_second_handyman_date_idx")
      .on(t.secondHandymanId, t.scheduledDate, t.startTime)
      .where(sql`${t.secondHandymanId} is not null`),
    check(
      "appointments_second_handyman_differs",
      sql`${t.secondHandymanId} is null or ${t.secondHandymanId} <> ${t.assignedEmployeeId}`,
    ),
    check(
      "appointments_visit_has_customer",
      sql`${t.kind} = 'walk_thru' or (${t.customerId} is not null and ${t.homeId} is not null)`,
    ),
    check(
      "appointments_walk_thru_has_address",
      sql`${t.kind} = 'visit' or (${t.contactName} is not null and ${t.address} is not null)`,
    ),
  ],
);

/**
 * 'Book anyway' (issue 26, item 5; ADR 050): a staff booking or move on a closed day, in time
 * off, outside working hours or in the past, kept with who chose it, what was wrong and why.
 */
export const visitOverrides = pgTable(
  "visit_overrides",
  {
    id: uuid().primaryKey().defaultRandom(),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    staffId: text().references(() => user.id, { onDelete: "set null" }),
    /** The staff member's name as it was, so the record reads the same if the account goes. */
    staffName: text().notNull(),
    /** 'book' (Create New Appointment) or 'move'. */
    action: text().notNull(),
    /** What was wrong, one line each, as staff were shown it. */
    warnings: text().array().notNull(),
    reason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("visit_overrides_appointment_idx").on(t.appointmentId)],
);

export const taskOutcome = pgEnum("task_outcome", TASK_OUTCOMES);

export const appointmentTasks = pgTable(
  "appointment_tasks",
  {
    id: uuid().primaryKey().defaultRandom(),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    taskDescription: text().notNull(),
    serviceRequestId: uuid().references(() => serviceRequests.id, { onDelete: "set null" }),
    /**
     * Whether the task's visit is still open (booked, on the way, in progress): kept by the
     * trigger on appointments (see the migration), so that the unique index below holds a
     * request to one open visit however many bookings race.
     */
    visitOpen: boolean().notNull().default(true),
    /** Set when the visit is completed: the handyman's 'Done' or 'Not done'. */
    outcome: taskOutcome(),
  },
  (t) => [
    index("appointment_tasks_appointment_idx").on(t.appointmentId),
    uniqueIndex("appointment_tasks_one_open_visit_per_request")
      .on(t.serviceRequestId)
      .where(sql`${t.visitOpen} and ${t.serviceRequestId} is not null`),
  ],
);

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

/**
 * The two ledgers summed by business day and kind, for the owner's reports (ADR 070, ADR 082):
 * each entry on the day its statement shows (a charge or payment on its billing period's first
 * day, hours bought on their charge's, a visit's entries on the visit's day, a cancel's credit
 * on the cancel's day, anything else on the business day it was written). The ledgers'
 * statement-level AFTER INSERT triggers add sums to report_*_day_deltas, and row triggers on
 * appointments.scheduled_date and memberships.canceled_on move a visit's or a cancel's sums
 * when that day changes; the reports move the deltas in here before reading both. Days and
 * deltas together equal a grouping of the ledger's entries by statement day, to the cent and
 * minute.
 */
export const reportMoneyDays = pgTable(
  "report_money_days",
  {
    day: date({ mode: "string" }).notNull(),
    kind: membershipMoneyKind().notNull(),
    cents: bigint({ mode: "number" }).notNull(),
    entries: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind] })],
);

export const reportHoursDays = pgTable(
  "report_hours_days",
  {
    day: date({ mode: "string" }).notNull(),
    kind: membershipMinutesKind().notNull(),
    minutes: bigint({ mode: "number" }).notNull(),
    entries: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.kind] })],
);

/**
 * What the triggers add (ADR 070, ADR 082): rows per inserting statement, moved visit or
 * cancel day, and (day, kind), a plain insert that waits for no one; the reports move them into
 * the daily summaries before reading, and read both.
 */
export const reportMoneyDayDeltas = pgTable("report_money_day_deltas", {
  day: date({ mode: "string" }).notNull(),
  kind: membershipMoneyKind().notNull(),
  cents: bigint({ mode: "number" }).notNull(),
  entries: integer().notNull(),
});

export const reportHoursDayDeltas = pgTable("report_hours_day_deltas", {
  day: date({ mode: "string" }).notNull(),
  kind: membershipMinutesKind().notNull(),
  minutes: bigint({ mode: "number" }).notNull(),
  entries: integer().notNull(),
});

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

export const leadStatus = pgEnum("lead_status", LEAD_STATUSES);

/**
 * One person on the way to membership (ADR 060): one row per e-mail address, whatever forms
 * and intro calls they sent (each is an entry: a `leads` or `intro_calls` row pointing here).
 * Linked to the customer's account when one has (or, once confirmed, gets) the same e-mail.
 */
export const prospects = pgTable(
  "prospects",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Lower-cased, as every form stores it. */
    email: text().notNull(),
    name: text().notNull(),
    phone: text(),
    zipCode: text(),
    city: text(),
    /** The page of the first entry. */
    pageUrl: text(),
    source: text().notNull(),
    status: leadStatus().notNull().default("new"),
    lostReason: text(),
    notes: text(),
    ownerId: text().references(() => user.id, { onDelete: "set null" }),
    customerId: text().references(() => user.id, { onDelete: "set null" }),
    invitedAt: timestamp({ withTimezone: true }),
    offerSentAt: timestamp({ withTimezone: true }),
    memberSince: timestamp({ withTimezone: true }),
    lastEntryAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("prospects_email_unique").on(t.email),
    index("prospects_last_entry_idx").on(t.lastEntryAt),
    index("prospects_customer_idx").on(t.customerId),
    index("prospects_status_idx").on(t.status),
    check("prospects_lost_has_reason", sql`${t.status} <> 'lost' or ${t.lostReason} is not null`),
  ],
);

export const leads = pgTable(
  "leads",
  {
    id: uuid().primaryKey().defaultRandom(),
    prospectId: uuid().references(() => prospects.id, { onDelete: "set null" }),
    name: text().notNull(),
    email: text().notNull(),
    zipCode: text(),
    phone: text(),
    message: text(),
    formType: text().notNull(),
    pageUrl: text(),
    /** "home" or the city page path the lead came from. */
    source: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("leads_email_idx").on(t.email),
    index("leads_created_idx").on(t.createdAt),
    index("leads_prospect_idx").on(t.prospectId),
  ],
);

export const introCalls = pgTable(
  "intro_calls",
  {
    id: uuid().primaryKey().defaultRandom(),
    prospectId: uuid().references(() => prospects.id, { onDelete: "set null" }),
    name: text().notNull(),
    email: text().notNull(),
    phone: text(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // Two people can never book the same slot.
  (t) => [
    uniqueIndex("intro_calls_starts_at_unique").on(t.startsAt),
    index("intro_calls_prospect_idx").on(t.prospectId),
    index("intro_calls_created_idx").on(t.createdAt),
  ],
);

export const outboxKind = pgEnum("outbox_kind", [
  "email",
  "lead_webhook",
  "sms",
  /** A payment provider's event from the inbox, or a payments job (app/features/payments). */
  "payment_job",
]);

export const outbox = pgTable(
  "outbox",
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: outboxKind().notNull(),
    payload: jsonb().notNull(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp({ withTimezone: true }),
    lastError: text(),
    /** The person a message (e-mail or text) is for: their 'Messages' list on the staff pages. */
    recipientId: text().references(() => user.id, { onDelete: "set null" }),
    /** Texts: the provider's id (Twilio's Message SID) and the last status it reported. */
    providerId: text(),
    providerStatus: text(),
    /**
     * Given up after OUTBOX_MAX_ATTEMPTS failed tries: no longer due, listed under 'Failed
     * deliveries' for office staff to retry.
     */
    failedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("outbox_recipient_idx").on(t.recipientId, t.createdAt),
    uniqueIndex("outbox_provider_id_idx").on(t.providerId),
    index("outbox_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null and ${t.failedAt} is null`),
    index("outbox_failed_idx")
      .on(t.failedAt)
      .where(sql`${t.failedAt} is not null and ${t.deliveredAt} is null`),
  ],
);

/* ---------- Sign-in with a text code (ADR 086) ---------- */

export const TEXT_CODE_PURPOSES = ["sign-in", "verify"] as const;
export type TextCodePurpose = (typeof TEXT_CODE_PURPOSES)[number];

/** One code texted: its HMAC only (never the code), 5 minutes, 3 tries, then void. */
export const textCodes = pgTable(
  "text_codes",
  {
    id: uuid().primaryKey().defaultRandom(),
    purpose: text({ enum: TEXT_CODE_PURPOSES }).notNull(),
    /** E.164, as texted. */
    phone: text().notNull(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    codeHash: text().notNull(),
    tries: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** The right code was entered. */
    usedAt: timestamp({ withTimezone: true }),
    /** Three wrong tries, or a newer code sent: the code no longer works. */
    voidedAt: timestamp({ withTimezone: true }),
    /** A sign-in code's session was created (once). */
    sessionAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("text_codes_phone_idx").on(t.phone, t.createdAt),
    index("text_codes_created_idx").on(t.createdAt),
    check("text_codes_purpose", sql`${t.purpose} in ('sign-in', 'verify')`),
    check("text_codes_tries", sql`${t.tries} >= 0 and ${t.tries} <= 3`),
  ],
);

/** Text codes paused because few of those sent were entered (SMS pumping). */
export const textCodePauses = pgTable(
  "text_code_pauses",
  {
    id: uuid().primaryKey().defaultRandom(),
    startedAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    sent: integer().notNull(),
    entered: integer().notNull(),
  },
  (t) => [index("text_code_pauses_ends_idx").on(t.endsAt)],
);

export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/* ---------- Availability: the business calendar and the handymen's hours ---------- */

/**
 * Staff's changes to the default closed days (federal holidays and the day after Thanksgiving,
 * computed in app/lib/business-calendar.ts): `closed` true closes an extra day, false reopens a
 * default one. One row per date.
 */
export const closedDays = pgTable("closed_days", {
  date: date({ mode: "string" }).primaryKey(),
  closed: boolean().notNull(),
  note: text(),
  updatedBy: text().references(() => user.id, { onDelete: "set null" }),
  ...timestamps,
});

/**
 * Which of the default holidays (business-calendar.ts DEFAULT_HOLIDAYS: the federal ones and
 * the day after Thanksgiving) the business closes on, by the holiday's key, as the owner set it
 * on the closed-days page. A holiday without a row keeps its default: closed.
 */
export const holidayClosings = pgTable("holiday_closings", {
  holiday: text().primaryKey(),
  closed: boolean().notNull(),
  updatedBy: text().references(() => user.id, { onDelete: "set null" }),
  ...timestamps,
});

/**
 * An employee's weekly working hours, one row per weekday (0 Sunday ... 6 Saturday). An
 * employee without rows works the business's default week (Mon-Fri 8:00 AM-6:00 PM).
 */
export const employeeWorkingHours = pgTable(
  "employee_working_hours",
  {
    employeeId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    weekday: integer().notNull(),
    isWorking: boolean().notNull(),
    startMinute: integer().notNull(),
    endMinute: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.employeeId, t.weekday] }),
    check("employee_working_hours_weekday", sql`${t.weekday} between 0 and 6`),
    check(
      "employee_working_hours_range",
      sql`${t.startMinute} >= 0 and ${t.endMinute} <= 1440 and ${t.startMinute} < ${t.endMinute}`,
    ),
  ],
);

/** A day or a range of days (inclusive) an employee is away. */
export const employeeTimeOff = pgTable(
  "employee_time_off",
  {
    id: uuid().primaryKey().defaultRandom(),
    employeeId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    startDate: date({ mode: "string" }).notNull(),
    endDate: date({ mode: "string" }).notNull(),
    note: text(),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("employee_time_off_employee_idx").on(t.employeeId, t.endDate),
    check("employee_time_off_range", sql`${t.startDate} <= ${t.endDate}`),
  ],
);

/**
 * A visit's calendar entry as the customer's calendar knows it: the .ics SEQUENCE grows with
 * every move and the cancellation (the UID is the appointment's), and the reminder e-mail
 * waiting in the outbox (due 24 hours before the start) is replaced or withdrawn with them.
 */
export const visitCalendar = pgTable("visit_calendar", {
  appointmentId: uuid()
    .primaryKey()
    .references(() => appointments.id, { onDelete: "cascade" }),
  sequence: integer().notNull().default(0),
  reminderOutboxId: uuid().references(() => outbox.id, { onDelete: "set null" }),
  /** The reminder text, waiting in the outbox like the e-mail. */
  reminderTextOutboxId: uuid().references(() => outbox.id, { onDelete: "set null" }),
  canceledAt: timestamp({ withTimezone: true }),
  canceledBy: text().references(() => user.id, { onDelete: "set null" }),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/**
 * What people said about texts, append-only: each opt-in (with where it was given), each STOP,
 * START or HELP reply, each opt-out in the profile. The law asks for the record of consent.
 */
export const textConsentEvents = pgTable(
  "text_consent_events",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    phone: text().notNull(),
    event: text().notNull(),
    source: text().notNull(),
    /** An inbound reply's Message SID: a webhook Twilio delivers twice is recorded once. */
    providerId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("text_consent_events_phone_idx").on(t.phone, t.createdAt),
    uniqueIndex("text_consent_events_provider_id_idx").on(t.providerId),
  ],
);

/* ---------- Specialists and referrals (ADR 088) ---------- */

/** The partner network: the trades a handyman refers to, kept by office staff. */
export const specialists = pgTable(
  "specialists",
  {
    id: uuid().primaryKey().defaultRandom(),
    trade: text({ enum: SPECIALIST_TRADES }).notNull(),
    company: text().notNull(),
    contactName: text(),
    phone: text(),
    email: text(),
    licenseNumber: text(),
    notes: text(),
    /** What the specialist pays the business per referral, shown to the member; null: none. */
    referralFeeCents: integer(),
    active: boolean().notNull().default(true),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    check(
      "specialists_trade",
      sql`${t.trade} in ('plumber', 'electrician', 'hvac', 'roofer', 'pest_control', 'other')`,
    ),
    check(
      "specialists_referral_fee",
      sql`${t.referralFeeCents} is null or ${t.referralFeeCents} >= 0`,
    ),
  ],
);

/** A member referred to a specialist, from a visit or a request, with its photos. */
export const specialistReferrals = pgTable(
  "specialist_referrals",
  {
    id: uuid().primaryKey().defaultRandom(),
    specialistId: uuid()
      .notNull()
      .references(() => specialists.id, { onDelete: "restrict" }),
    customerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    appointmentId: uuid().references(() => appointments.id, { onDelete: "set null" }),
    serviceRequestId: uuid().references(() => serviceRequests.id, { onDelete: "set null" }),
    reason: text().notNull(),
    /** The request photos the referral carries (sent to the specialist with her consent). */
    photoIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** 'Finish visit' found the work needs a new water or power source. */
    newWaterOrPower: boolean().notNull().default(false),
    status: text({ enum: REFERRAL_STATUSES }).notNull().default("referred"),
    /** When the member agreed that the specialist gets the job by e-mail (sent then, once). */
    consentAt: timestamp({ withTimezone: true }),
    referredBy: text().references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("specialist_referrals_customer_idx").on(t.customerId, t.createdAt),
    index("specialist_referrals_specialist_idx").on(t.specialistId, t.status),
    check(
      "specialist_referrals_status",
      sql`${t.status} in ('referred', 'contacted', 'scheduled', 'done', 'declined')`,
    ),
  ],
);

export type User = typeof user.$inferSelect;
export type Profile = typeof profiles.$inferSelect;
export type Home = typeof homes.$inferSelect;
export type RequestPhoto = typeof requestPhotos.$inferSelect;
export type Appointment = typeof appointments.$inferSelect;
export type Lead = typeof leads.$inferSelect;
export type IntroCall = typeof introCalls.$inferSelect;
export type OutboxItem = typeof outbox.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type MembershipMinutesEntry = typeof membershipMinutesLedger.$inferSelect;
export type MembershipMoneyEntry = typeof membershipMoneyLedger.$inferSelect;
export type MembershipVisit = typeof membershipVisits.$inferSelect;
export type MembershipPart = typeof membershipParts.$inferSelect;
export type ClosedDayRow = typeof closedDays.$inferSelect;
export type EmployeeWorkingHours = typeof employeeWorkingHours.$inferSelect;
export type EmployeeTimeOff = typeof employeeTimeOff.$inferSelect;
export type VisitCalendar = typeof visitCalendar.$inferSelect;
export type Specialist = typeof specialists.$inferSelect;
export type SpecialistReferral = typeof specialistReferrals.$inferSelect;

/* ---------- Payments: offers, the provider's events, refunds, the schedule (ADR 053-056) ---------- */

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

/** Stripe's customer for one of ours (cards and invoices live there). */
export const paymentCustomers = pgTable("payment_customers", {
  customerId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  stripeCustomerId: text().notNull().unique(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The inbox of the payment provider's webhook: each event stored once by its id before the
 * webhook answers 2xx, then applied by a job (an outbox item). `processedAt` is set in the
 * transaction that applied it: a replayed or concurrent delivery is stored and applied once.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    id: text().primaryKey(),
    type: text().notNull(),
    /** The id of the object the event is about (an invoice, a Checkout Session...). */
    objectId: text(),
    payload: jsonb().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp({ withTimezone: true }),
    /** What applying it did ("charge and payment posted", "ignored: ...") or why it failed. */
    outcome: text(),
  },
  (t) => [index("payment_events_received_idx").on(t.receivedAt)],
);

export const paymentRefundStatus = pgEnum("payment_refund_status", ["pending", "to_pay", "paid"]);

/**
 * A refund the business owes a member (a cancel's credit): sent back to the card through the
 * provider (`pending` until the job ran), or listed for the office under 'Refunds to pay'
 * (`to_pay`) until staff 'Mark refund paid'. Either way a `refund_paid` ledger row records it.
 */
export const paymentRefunds = pgTable(
  "payment_refunds",
  {
    id: uuid().primaryKey().defaultRandom(),
    membershipId: uuid()
      .notNull()
      .references(() => memberships.id),
    amountCents: integer().notNull(),
    status: paymentRefundStatus().notNull().default("pending"),
    /** Of the amount, what went back to the card (Stripe refunds). */
    toCardCents: integer().notNull().default(0),
    method: paymentMethod(),
    reference: text(),
    paidAt: timestamp({ withTimezone: true }),
    paidBy: text().references(() => user.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [
    index("payment_refunds_status_idx").on(t.status, t.createdAt),
    check("payment_refunds_amount_positive", sql`${t.amountCents} > 0`),
  ],
);

/**
 * The durable schedule (ADR 055): one row per job and occasion, keyed so several processes
 * never schedule, nor run, the same period twice ("charge:<membership>:<period start>",
 * "renewal-notice:<membership>:<period start>", "reconcile:<day>"). The job itself runs as an
 * outbox item due at `dueAt`.
 */
export const paymentSchedule = pgTable("payment_schedule", {
  key: text().primaryKey(),
  kind: text().notNull(),
  dueAt: timestamp({ withTimezone: true }).notNull(),
  doneAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * One row per action applied from a form carrying an idempotency key (ADR 048): the key is
 * generated when the form is drawn, and the primary key refuses a second application of the
 * same form (a retry on a poor connection, a double tap).
 */
export const actionKeys = pgTable("action_keys", {
  key: text().primaryKey(),
  actorId: text().notNull(),
  action: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/* ---------- The home's record: appliances, the maintenance plan, its history (ADR 087) ---------- */

const applianceTypeList = APPLIANCE_TYPES.map((type) => `'${type}'`).join(", ");

export const homeAppliances = pgTable(
  "home_appliances",
  {
    id: uuid().primaryKey().defaultRandom(),
    homeId: uuid()
      .notNull()
      .references(() => homes.id, { onDelete: "cascade" }),
    type: text().$type<ApplianceType>().notNull(),
    brand: text(),
    model: text(),
    serialNumber: text(),
    /** The year it was installed; `installedOn` when the day is known. */
    installedYear: integer(),
    installedOn: date({ mode: "string" }),
    /** The year was read from the serial number (an estimate), not given by a person. */
    installedEstimated: boolean().notNull().default(false),
    warrantyEndsOn: date({ mode: "string" }),
    location: text(),
    filterSize: text(),
    notes: text(),
    labelPhotoPath: text(),
    labelThumbnailPath: text(),
    ...timestamps,
  },
  (t) => [
    index("home_appliances_home_idx").on(t.homeId, t.createdAt),
    check("home_appliances_type", sql.raw(`"type" in (${applianceTypeList})`)),
    check(
      "home_appliances_installed_year",
      sql`${t.installedYear} is null or (${t.installedYear} between 1900 and 2200)`,
    ),
  ],
);

export const homePlanTasks = pgTable(
  "home_plan_tasks",
  {
    id: uuid().primaryKey().defaultRandom(),
    homeId: uuid()
      .notNull()
      .references(() => homes.id, { onDelete: "cascade" }),
    /** The catalog task it came from (features/home/catalog.ts); null: one staff added. */
    catalogKey: text(),
    title: text().notNull(),
    /** The months of the year it is due, 1-12. */
    months: integer().array().notNull(),
    estimatedMinutes: integer().notNull(),
    applianceId: uuid().references(() => homeAppliances.id, { onDelete: "set null" }),
    lastDoneOn: date({ mode: "string" }),
    /** The due month a request of the member's was opened for: once per time it falls due. */
    requestedDueOn: date({ mode: "string" }),
    /** Taken out of the plan by staff (kept, so drawing the plan again does not bring it back). */
    removedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("home_plan_tasks_one_per_catalog_key")
      .on(t.homeId, t.catalogKey)
      .where(sql`${t.catalogKey} is not null`),
    index("home_plan_tasks_home_idx").on(t.homeId),
    check(
      "home_plan_tasks_months",
      sql`cardinality(${t.months}) between 1 and 12 and 1 <= all(${t.months}) and 12 >= all(${t.months})`,
    ),
    check("home_plan_tasks_minutes", sql`${t.estimatedMinutes} between 5 and 480`),
  ],
);

export const homeHistory = pgTable(
  "home_history",
  {
    id: uuid().primaryKey().defaultRandom(),
    homeId: uuid()
      .notNull()
      .references(() => homes.id, { onDelete: "cascade" }),
    actorId: text().references(() => user.id, { onDelete: "set null" }),
    /** The person's name as it was, so the history reads the same if the account goes. */
    actorName: text().notNull(),
    summary: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("home_history_home_idx").on(t.homeId, t.createdAt)],
);

/** A label photo and what the server read from it, until a person saves the appliance. */
export const homeLabelReads = pgTable("home_label_reads", {
  id: uuid().primaryKey().defaultRandom(),
  homeId: uuid()
    .notNull()
    .references(() => homes.id, { onDelete: "cascade" }),
  createdBy: text().references(() => user.id, { onDelete: "set null" }),
  photoPath: text().notNull(),
  thumbnailPath: text().notNull(),
  brand: text(),
  model: text(),
  serialNumber: text(),
  installedYear: integer(),
  text: text().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** 'Your home this month': one notice per member per month, whatever runs the job. */
export const homeMonthNotices = pgTable(
  "home_month_notices",
  {
    customerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    month: date({ mode: "string" }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.month] })],
);
