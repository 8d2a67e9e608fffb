import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "./auth";
import { timestamps } from "./columns";

/* ---------- Availability: the business calendar and the handymen's hours ---------- */

/**
 * Staff's changes to the default closed days (federal holidays and the day after Thanksgiving,
 * computed in app/lib/business-calendar.ts): `closed` true closes an extra day, false reopens a
 * default one. One row per date.
 */
export const closedDays = pgTable("closed_days", {
  date: date({ mode: "string" }).primaryKey(),
  closed: boolean().notNull(),
  note: text(),
  updatedBy: text().references(() => user.id, { onDelete: "set null" }),
  ...timestamps,
});

/**
 * Which of the default holidays (business-calendar.ts DEFAULT_HOLIDAYS: the federal ones and
 * the day after Thanksgiving) the business closes on, by the holiday's key, as the owner set it
 * on the closed-days page. A holiday without a row keeps its default: closed.
 */
export const holidayClosings = pgTable("holiday_closings", {
  holiday: text().primaryKey(),
  closed: boolean().notNull(),
  updatedBy: text().references(() => user.id, { onDelete: "set null" }),
  ...timestamps,
});

/**
 * An employee's weekly working hours, one row per weekday (0 Sunday ... 6 Saturday). An
 * employee without rows works the business's default week (Mon-Fri 8:00 AM-6:00 PM).
 */
export const employeeWorkingHours = pgTable(
  "employee_working_hours",
  {
    employeeId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    weekday: integer().notNull(),
    isWorking: boolean().notNull(),
    startMinute: integer().notNull(),
    endMinute: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.employeeId, t.weekday] }),
    check("employee_working_hours_weekday", sql`${t.weekday} between 0 and 6`),
    check(
      "employee_working_hours_range",
      sql`${t.startMinute} >= 0 and ${t.endMinute} <= 1440 and ${t.startMinute} < ${t.endMinute}`,
    ),
  ],
);

/** A day or a range of days (inclusive) an employee is away. */
export const employeeTimeOff = pgTable(
  "employee_time_off",
  {
    id: uuid().primaryKey().defaultRandom(),
    employeeId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    startDate: date({ mode: "string" }).notNull(),
    endDate: date({ mode: "string" }).notNull(),
    note: text(),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("employee_time_off_employee_idx").on(t.employeeId, t.endDate),
    check("employee_time_off_range", sql`${t.startDate} <= ${t.endDate}`),
  ],
);

export type ClosedDayRow = typeof closedDays.$inferSelect;
export type EmployeeWorkingHours = typeof employeeWorkingHours.$inferSelect;
export type EmployeeTimeOff = typeof employeeTimeOff.$inferSelect;
