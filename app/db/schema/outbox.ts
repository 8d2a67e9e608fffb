import { sql } from "drizzle-orm";
import {
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";

/* ---------- The outbox: mail, texts, webhooks and payment jobs sent after commit ---------- */

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

export type OutboxItem = typeof outbox.$inferSelect;
