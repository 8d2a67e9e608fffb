import { and, eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { homes, profiles, user } from "~/db/schema";
import { staffBookingWarnings } from "~/features/availability/index.server";
import { minuteOfDay } from "~/lib/business-calendar";
import { createVisit } from "./create-visit.server";
import { BookAnywayNeededError } from "./overrides.server";
import { VisitRejectedError } from "./visit-errors";
import type { CreateAppointmentInput } from "./staff-booking-schema";
import { SELECT_CUSTOMER_AND_PROPERTY, UNKNOWN_EMPLOYEE } from "./staff-booking-schema";

/** A reason the appointment cannot be created, worded for the employee. */
export class AppointmentRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AppointmentRejectedError";
  }
}

/**
 * What is wrong with the appointment's time (a closed day, time off, outside working hours,
 * the past): staff are warned, and it is booked only 'anyway' (ADR 050). Throws
 * BookAnywayNeededError when there is something and staff have not chosen 'Book anyway';
 * returns the warnings to keep with the visit otherwise. A handyman's overlapping visit stays
 * refused, by the database, in createAppointment.
 */
export async function appointmentWarnings(
  input: CreateAppointmentInput,
  options: { now?: Date } = {},
) {
  const warnings = await staffBookingWarnings(
    {
      date: input.scheduledDate,
      start: minuteOfDay(input.startTime),
      end: minuteOfDay(input.endTime),
      employeeId: input.assignedEmployeeId ?? null,
    },
    options,
  );
  if (warnings.length && !input.bookAnyway) throw new BookAnywayNeededError(warnings);
  return warnings;
}

/**
 * Staff's 'Create New Appointment': the visits feature's createVisit (ADR 094) with staff's
 * options: any time staff chose, the customer and handyman checked, typed tasks becoming
 * requests, the hours bank spent (or an extra visit), the warnings booked anyway kept, and the
 * same 'Your visit is booked' e-mail, calendar file and reminder as the member's own booking.
 */
export async function createAppointment(
  input: CreateAppointmentInput,
  createdBy: string,
  /** The warnings staff booked anyway (appointmentWarnings), kept with their name. */
  options: { warnings?: string[] } = {},
) {
  return createVisit(
    {
      customerId: input.customerId,
      homeId: input.homeId,
      assignedEmployeeId: input.assignedEmployeeId ?? null,
      secondHandymanId: input.secondHandymanId ?? null,
      scheduledDate: input.scheduledDate,
      startTime: input.startTime,
      endTime: input.endTime,
      notes: input.notes ?? null,
      tasks: input.tasks,
    },
    {
      bookedBy: "staff",
      actorId: createdBy,
      time: "chosen",
      check: (tx) => checkCustomerAndHandyman(tx, input),
      bank: { asExtra: input.asExtra },
      override: { warnings: options.warnings ?? [], reason: input.overrideReason },
    },
  ).catch((error: unknown) => {
    if (error instanceof VisitRejectedError) throw new AppointmentRejectedError(error.message);
    throw error;
  });
}

/** The home is the customer's (a customer, not staff), and the handyman is one of staff. */
async function checkCustomerAndHandyman(tx: Tx, input: CreateAppointmentInput) {
  const [place] = await tx
    .select({ id: homes.id })
    .from(homes)
    .innerJoin(profiles, eq(profiles.userId, homes.customerId))
    .innerJoin(user, eq(user.id, homes.customerId))
    .where(
      and(
        eq(homes.id, input.homeId),
        eq(homes.customerId, input.customerId),
        eq(profiles.isEmployee, false),
      ),
    )
    .limit(1);
  if (!place) throw new AppointmentRejectedError(SELECT_CUSTOMER_AND_PROPERTY);
  for (const id of [input.assignedEmployeeId, input.secondHandymanId]) {
    if (id && !(await isEmployee(tx, id))) throw new AppointmentRejectedError(UNKNOWN_EMPLOYEE);
  }
}

/** Whether the account is an employee's (the handyman, or the second one chosen on the form). */
async function isEmployee(tx: Tx, userId: string) {
  const [row] = await tx
    .select({ id: profiles.userId })
    .from(profiles)
    .where(and(eq(profiles.userId, userId), eq(profiles.isEmployee, true)))
    .limit(1);
  return Boolean(row);
}
