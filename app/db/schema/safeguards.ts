import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/* ---------- Rate limits and forms applied once ---------- */

export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text().notNull(),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

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
