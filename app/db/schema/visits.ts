import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  type AnyPgColumn,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { VISIT_KINDS } from "../lead-status";
import { TASK_OUTCOMES, VISIT_STATUSES } from "../visit-status";
import { user } from "./auth";
import { homes } from "./home";
import { leads } from "./leads";
import { outbox } from "./outbox";
import { serviceRequests } from "./service-requests";

/* ---------- Visits: the appointment, its tasks, its overrides and its calendar entry ---------- */

/** A visit's life (ADR 046): the migration's trigger refuses any transition visit-state.ts refuses. */
export const appointmentStatus = pgEnum("appointment_status", VISIT_STATUSES);

export const visitKind = pgEnum("visit_kind", VISIT_KINDS);

export const appointments = pgTable(
  "appointments",
  {
    id: uuid().primaryKey().defaultRandom(),
    /** A member's visit always has a customer and a home; a walk-thru for a lead may have neither. */
    customerId: text().references(() => user.id, { onDelete: "cascade" }),
    homeId: uuid().references(() => homes.id, { onDelete: "cascade" }),
    kind: visitKind().notNull().default("visit"),
    /** A walk-thru's lead (ADR 061). */
    leadId: uuid().references((): AnyPgColumn => leads.id, { onDelete: "set null" }),
    /** A walk-thru's person and address as booked (a lead has no account or home yet). */
    contactName: text(),
    contactEmail: text(),
    address: text(),
    assignedEmployeeId: text().references(() => user.id, { onDelete: "set null" }),
    /** Calendar date and wall-clock times in the business time zone (lib/business-calendar.ts). */
    scheduledDate: date({ mode: "string" }).notNull(),
    startTime: time().notNull(),
    endTime: time().notNull(),
    status: appointmentStatus().notNull().default("booked"),
    notes: text(),
    createdBy: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When the handyman tapped 'Start visit': 'Finish visit' offers the time since, rounded. */
    startedAt: timestamp({ withTimezone: true }),
    /** Booked with the covering handyman (ADR 088): the member's dedicated handyman, away. */
    coveringForId: text().references(() => user.id, { onDelete: "set null" }),
    /**
     * The second handyman, for a job one person cannot do alone (ADR 091): never the first
     * one; a trigger of migration 0026 holds his time as the exclusion constraint holds the
     * first one's.
     */
    secondHandymanId: text().references(() => user.id, { onDelete: "set null" }),
  },
  (t) => [
    index("appointments_employee_date_idx").on(t.assignedEmployeeId, t.scheduledDate, t.startTime),
    index("appointments_customer_idx").on(t.customerId, t.scheduledDate),
    index("appointments_date_idx").on(t.scheduledDate, t.startTime),
    index("appointments_lead_idx").on(t.leadId),
    // The reports' walk-thrus booked in a period (ADR 077), without reading every visit.
    index("appointments_walk_thru_created_idx")
      .on(t.createdAt)
      .where(sql`${t.kind} = 'walk_thru'`),
    index("appointments_second_handyman_date_idx")
      .on(t.secondHandymanId, t.scheduledDate, t.startTime)
      .where(sql`${t.secondHandymanId} is not null`),
    check(
      "appointments_second_handyman_differs",
      sql`${t.secondHandymanId} is null or ${t.secondHandymanId} <> ${t.assignedEmployeeId}`,
    ),
    check(
      "appointments_visit_has_customer",
      sql`${t.kind} = 'walk_thru' or (${t.customerId} is not null and ${t.homeId} is not null)`,
    ),
    check(
      "appointments_walk_thru_has_address",
      sql`${t.kind} = 'visit' or (${t.contactName} is not null and ${t.address} is not null)`,
    ),
  ],
);

/**
 * 'Book anyway' (issue 26, item 5; ADR 050): a staff booking or move on a closed day, in time
 * off, outside working hours or in the past, kept with who chose it, what was wrong and why.
 */
export const visitOverrides = pgTable(
  "visit_overrides",
  {
    id: uuid().primaryKey().defaultRandom(),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    staffId: text().references(() => user.id, { onDelete: "set null" }),
    /** The staff member's name as it was, so the record reads the same if the account goes. */
    staffName: text().notNull(),
    /** 'book' (Create New Appointment) or 'move'. */
    action: text().notNull(),
    /** What was wrong, one line each, as staff were shown it. */
    warnings: text().array().notNull(),
    reason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("visit_overrides_appointment_idx").on(t.appointmentId)],
);

export const taskOutcome = pgEnum("task_outcome", TASK_OUTCOMES);

export const appointmentTasks = pgTable(
  "appointment_tasks",
  {
    id: uuid().primaryKey().defaultRandom(),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: "cascade" }),
    taskDescription: text().notNull(),
    serviceRequestId: uuid().references(() => serviceRequests.id, { onDelete: "set null" }),
    /**
     * Whether the task's visit is still open (booked, on the way, in progress): kept by the
     * trigger on appointments (see the migration), so that the unique index below holds a
     * request to one open visit however many bookings race.
     */
    visitOpen: boolean().notNull().default(true),
    /** Set when the visit is completed: the handyman's 'Done' or 'Not done'. */
    outcome: taskOutcome(),
  },
  (t) => [
    index("appointment_tasks_appointment_idx").on(t.appointmentId),
    uniqueIndex("appointment_tasks_one_open_visit_per_request")
      .on(t.serviceRequestId)
      .where(sql`${t.visitOpen} and ${t.serviceRequestId} is not null`),
  ],
);

/**
 * A visit's calendar entry as the customer's calendar knows it: the .ics SEQUENCE grows with
 * every move and the cancellation (the UID is the appointment's), and the reminder e-mail
 * waiting in the outbox (due 24 hours before the start) is replaced or withdrawn with them.
 */
export const visitCalendar = pgTable("visit_calendar", {
  appointmentId: uuid()
    .primaryKey()
    .references(() => appointments.id, { onDelete: "cascade" }),
  sequence: integer().notNull().default(0),
  reminderOutboxId: uuid().references(() => outbox.id, { onDelete: "set null" }),
  /** The reminder text, waiting in the outbox like the e-mail. */
  reminderTextOutboxId: uuid().references(() => outbox.id, { onDelete: "set null" }),
  canceledAt: timestamp({ withTimezone: true }),
  canceledBy: text().references(() => user.id, { onDelete: "set null" }),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

export type Appointment = typeof appointments.$inferSelect;
export type VisitCalendar = typeof visitCalendar.$inferSelect;
