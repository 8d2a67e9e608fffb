import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { REFERRAL_STATUSES, SPECIALIST_TRADES } from "../specialist-trade";
import { user } from "./auth";
import { timestamps } from "./columns";
import { serviceRequests } from "./service-requests";
import { appointments } from "./visits";

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

export type Specialist = typeof specialists.$inferSelect;
export type SpecialistReferral = typeof specialistReferrals.$inferSelect;
