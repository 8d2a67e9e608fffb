import { z } from "zod";
import { addYears, DATE_WINDOW } from "~/lib/business-calendar";
import { UUID_PATTERN } from "~/lib/uuid";
import { CONTROL_CHARACTERS_MESSAGE, withoutControlCharacters } from "~/lib/validation";

/*
 * The rules of 'Create New Appointment' (SPEC sections 2 and 5, docs/design.md decision 9), shared by
 * the dialog and the action: a customer and a property; a date not before today in the
 * business time zone; start and end times, the end after the start; at least one planned task
 * (blank rows are dropped); employee and notes optional.
 */

export const SELECT_CUSTOMER_AND_PROPERTY = "Please select a customer and property";
export const UNKNOWN_EMPLOYEE = "The chosen employee does not exist";
/** Appointments are planned at most 2 years ahead (ADR 039). */
export const APPOINTMENT_DATE_WINDOW_MESSAGE = "The date must be within 2 years of today";
const ACCOUNT_ID_MAX_LENGTH = 100;
export const TASK_MAX_LENGTH = 500;
export const APPOINTMENT_NOTES_MAX_LENGTH = 2000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

function isRealDate(value: string) {
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** "09:30" or "09:30:00" → minutes after midnight. */
function minutes(time: string) {
  const [h, m] = time.split(":").map(Number);
  return h * 60 + m;
}

// Conform turns empty inputs into undefined before Zod sees them (and inside pipes too), so
// optional text is "string or undefined", trimmed at the end.
const optionalText = (max: number, message: string) =>
  z
    .string()
    .max(max, message)
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .optional()
    .transform((value) => value?.trim() ?? "");

const taskSchema = z.object({
  description: optionalText(
    TASK_MAX_LENGTH,
    `A task must be at most ${TASK_MAX_LENGTH} characters`,
  ),
  serviceRequestId: z.string().regex(UUID_PATTERN, "Unknown task").optional(),
});

export type PlannedTask = { description: string; serviceRequestId?: string };

/** The schema for a given "today" (the browser and the server each compute it at submit). */
export function createAppointmentSchema(today: string) {
  return z
    .object({
      // Account ids are Better Auth's (text, not uuid): bounded and storable, so a made-up one
      // is "not found" rather than a database error.
      customerId: z
        .string({ error: SELECT_CUSTOMER_AND_PROPERTY })
        .min(1, SELECT_CUSTOMER_AND_PROPERTY)
        .max(ACCOUNT_ID_MAX_LENGTH, SELECT_CUSTOMER_AND_PROPERTY)
        .refine(withoutControlCharacters, SELECT_CUSTOMER_AND_PROPERTY),
      homeId: z
        .string({ error: SELECT_CUSTOMER_AND_PROPERTY })
        .regex(UUID_PATTERN, SELECT_CUSTOMER_AND_PROPERTY),
      assignedEmployeeId: z
        .string({ error: UNKNOWN_EMPLOYEE })
        .max(ACCOUNT_ID_MAX_LENGTH, UNKNOWN_EMPLOYEE)
        .refine(withoutControlCharacters, UNKNOWN_EMPLOYEE)
        .optional(),
      // 'Two handymen' (ADR 091): the second one, never the first.
      secondHandymanId: z
        .string({ error: UNKNOWN_EMPLOYEE })
        .max(ACCOUNT_ID_MAX_LENGTH, UNKNOWN_EMPLOYEE)
        .refine(withoutControlCharacters, UNKNOWN_EMPLOYEE)
        .optional(),
      scheduledDate: z
        .string({ error: "Please choose a date" })
        .regex(DATE, { message: "Please choose a date", abort: true })
        .refine(isRealDate, { message: "Please choose a date", abort: true })
        .refine((value) => value >= today, "The date cannot be earlier than today")
        .refine(
          (value) => value <= addYears(today, DATE_WINDOW.schedule.yearsAhead),
          APPOINTMENT_DATE_WINDOW_MESSAGE,
        ),
      startTime: z
        .string({ error: "Please choose a start time" })
        .regex(TIME, "Please choose a start time"),
      endTime: z
        .string({ error: "Please choose an end time" })
        .regex(TIME, "Please choose an end time"),
      tasks: z
        .array(taskSchema)
        .optional()
        .transform(
          (tasks) => (tasks ?? []).filter((task) => task.description !== "") as PlannedTask[],
        )
        // Shown on the first row, which always exists: that is where the task goes.
        .refine((tasks) => tasks.length > 0, {
          message: "Add at least one planned task",
          path: [0, "description"],
        }),
      notes: optionalText(
        APPOINTMENT_NOTES_MAX_LENGTH,
        `Notes must be at most ${APPOINTMENT_NOTES_MAX_LENGTH} characters`,
      )
        .transform((value) => value || undefined)
        .optional(),
      // 'Book anyway': staff saw the warnings (a closed day, time off, outside hours, the past)
      // and book it all the same; the reason is kept with their name (ADR 050).
      bookAnyway: z
        .enum(["on"])
        .transform(() => true)
        .optional(),
      overrideReason: optionalText(200, "The reason must be at most 200 characters")
        .transform((value) => value || undefined)
        .optional(),
      // A member's visit booked by staff as an extra visit ($150, not from the hours bank).
      asExtra: z
        .enum(["on", "true"])
        .transform(() => true)
        .optional(),
    })
    .refine((value) => !value.secondHandymanId || value.assignedEmployeeId, {
      path: ["secondHandymanId"],
      message: "Assign the first handyman before a second one",
    })
    .refine(
      (value) => value.secondHandymanId !== value.assignedEmployeeId || !value.secondHandymanId,
      {
        path: ["secondHandymanId"],
        message: "The second handyman must be another than the first",
      },
    )
    .refine((value) => minutes(value.endTime) > minutes(value.startTime), {
      path: ["endTime"],
      message: "The end time must be after the start time",
      // Checked as soon as both times are valid, even while other fields still have errors.
      when(payload) {
        const value = payload.value as { startTime?: unknown; endTime?: unknown };
        return (
          typeof value.startTime === "string" &&
          TIME.test(value.startTime) &&
          typeof value.endTime === "string" &&
          TIME.test(value.endTime)
        );
      },
    });
}

export type CreateAppointmentInput = z.output<ReturnType<typeof createAppointmentSchema>>;
