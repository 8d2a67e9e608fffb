import { sql } from "drizzle-orm";
import {
  bigint,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  type AnyPgColumn,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { REQUEST_STATUSES } from "../request-status";
import { user } from "./auth";
import { timestamps } from "./columns";
import { homePlanTasks, homes } from "./home";

/* ---------- Service requests: what a member asks to be done ---------- */

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
    /** Order inside the customer's priority group (docs/design.md decision 2). */
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
