import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { APPLIANCE_TYPES, type ApplianceType } from "../appliance-types";
import { user } from "./auth";
import { timestamps } from "./columns";

/* ---------- The home and its record: appliances, the maintenance plan, its history (ADR 087) ---------- */

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

export type Home = typeof homes.$inferSelect;
