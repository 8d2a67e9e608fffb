import { bigint, date, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { membershipMinutesKind, membershipMoneyKind } from "./memberships";

/* ---------- The owner's reports: the ledgers summed by statement day ---------- */

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
