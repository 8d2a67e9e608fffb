import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { timestamps } from "./columns";
import { memberships, paymentMethod } from "./memberships";

/* ---------- Payments: the provider's customers and events, refunds, the schedule (ADR 053-056) ---------- */

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
