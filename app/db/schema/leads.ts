import { sql } from "drizzle-orm";
import {
  check,
  index,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { LEAD_STATUSES } from "../lead-status";
import { user } from "./auth";
import { timestamps } from "./columns";

/* ---------- Leads: the person, their form entries and intro calls ---------- */

export const leadStatus = pgEnum("lead_status", LEAD_STATUSES);

/**
 * One person on the way to membership (ADR 060): one row per e-mail address, whatever forms
 * and intro calls they sent (each is an entry: a `leads` or `intro_calls` row pointing here).
 * Linked to the customer's account when one has (or, once confirmed, gets) the same e-mail.
 */
export const leads = pgTable(
  "leads",
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
    uniqueIndex("leads_email_unique").on(t.email),
    index("leads_last_entry_idx").on(t.lastEntryAt),
    index("leads_customer_idx").on(t.customerId),
    index("leads_status_idx").on(t.status),
    check("leads_lost_has_reason", sql`${t.status} <> 'lost' or ${t.lostReason} is not null`),
  ],
);

export const leadEntries = pgTable(
  "lead_entries",
  {
    id: uuid().primaryKey().defaultRandom(),
    leadId: uuid().references(() => leads.id, { onDelete: "set null" }),
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
    index("lead_entries_email_idx").on(t.email),
    index("lead_entries_created_idx").on(t.createdAt),
    index("lead_entries_lead_idx").on(t.leadId),
  ],
);

export const introCalls = pgTable(
  "intro_calls",
  {
    id: uuid().primaryKey().defaultRandom(),
    leadId: uuid().references(() => leads.id, { onDelete: "set null" }),
    name: text().notNull(),
    email: text().notNull(),
    phone: text(),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  // Two people can never book the same slot.
  (t) => [
    uniqueIndex("intro_calls_starts_at_unique").on(t.startsAt),
    index("intro_calls_lead_idx").on(t.leadId),
    index("intro_calls_created_idx").on(t.createdAt),
  ],
);

export type LeadEntry = typeof leadEntries.$inferSelect;
export type IntroCall = typeof introCalls.$inferSelect;
