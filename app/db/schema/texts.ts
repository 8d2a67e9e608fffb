import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";

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
