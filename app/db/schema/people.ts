import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  type AnyPgColumn,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { STAFF_ROLES } from "../staff-role";
import { user } from "./auth";
import { timestamps } from "./columns";

/* ---------- People: a customer's or an employee's profile ---------- */

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

export type Profile = typeof profiles.$inferSelect;
