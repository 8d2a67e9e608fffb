import { and, eq, inArray, ne } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import {
  appointments,
  appointmentTasks,
  homes,
  profiles,
  serviceRequests,
  user,
} from "~/db/schema";
import { DOUBLE_BOOKING_MESSAGE, isDoubleBooking } from "~/features/availability";
import {
  BookAnywayNeededError,
  isRequestOnAnotherVisit,
  mailVisitBooked,
  recordOverride,
  REQUEST_BOOKED_MESSAGE,
  startVisitCalendar,
} from "~/features/visits/index.server";
import { staffBookingWarnings } from "~/features/availability/index.server";
import { minuteOfDay } from "~/lib/business-calendar";
import { addTaskRequests } from "~/features/service-requests/index.server";
import {
  chargeSecondHandyman,
  reserveVisitMinutes,
  VisitSpendRefusedError,
} from "~/features/memberships/index.server";
import type { CreateAppointmentInput } from "./create-appointment-schema";
import { SELECT_CUSTOMER_AND_PROPERTY, UNKNOWN_EMPLOYEE } from "./create-appointment-schema";

/** A reason the appointment cannot be created, worded for the employee. */
export class AppointmentRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AppointmentRejectedError";
  }
}

/**
 * Creates an appointment with its planned tasks for a customer, in one transaction with the
 * customer's confirmation e-mail (and its .ics file) in the outbox: either all of it happens or
 * none. Tasks picked from the customer's open requests keep the link to the request, and those
 * requests move to 'scheduled' (they are no longer waiting to be planned).
 */
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

export async function createAppointment(
  input: CreateAppointmentInput,
  createdBy: string,
  /** The warnings staff booked anyway (appointmentWarnings), kept with their name. */
  options: { warnings?: string[] } = {},
) {
  return createAppointmentTransaction(input, createdBy, options.warnings ?? []).catch(
    (error: unknown) => {
      // The database refuses a handyman two overlapping visits (appointments_no_double_booking).
      if (isDoubleBooking(error)) throw new AppointmentRejectedError(DOUBLE_BOOKING_MESSAGE);
      // A request is on one upcoming visit at most (appointment_tasks_one_open_visit_per_request).
      if (isRequestOnAnotherVisit(error))
        throw new AppointmentRejectedError(REQUEST_BOOKED_MESSAGE);
      throw error;
    },
  );
}

function createAppointmentTransaction(
  input: CreateAppointmentInput,
  createdBy: string,
  warnings: string[],
) {
  return db().transaction(async (tx) => {
    const [place] = await tx
      .select({
        email: user.email,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        address: homes.address,
        city: homes.city,
        state: homes.state,
        zipCode: homes.zipCode,
      })
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

    let assignee: { firstName: string | null; lastName: string | null } | undefined;
    if (input.assignedEmployeeId) {
      [assignee] = await tx
        .select({ firstName: profiles.firstName, lastName: profiles.lastName })
        .from(profiles)
        .where(and(eq(profiles.userId, input.assignedEmployeeId), eq(profiles.isEmployee, true)))
        .limit(1);
      if (!assignee) throw new AppointmentRejectedError(UNKNOWN_EMPLOYEE);
    }
    if (input.secondHandymanId && !(await isEmployee(tx, input.secondHandymanId)))
      throw new AppointmentRejectedError(UNKNOWN_EMPLOYEE);

    const linked = [
      ...new Set(input.tasks.flatMap((t) => (t.serviceRequestId ? [t.serviceRequestId] : []))),
    ];
    if (linked.length) {
      const owned = await tx
        .select({ id: serviceRequests.id })
        .from(serviceRequests)
        .where(
          and(
            inArray(serviceRequests.id, linked),
            eq(serviceRequests.customerId, input.customerId),
            ne(serviceRequests.status, "complete"),
          ),
        );
      if (owned.length !== linked.length) {
        throw new AppointmentRejectedError("A chosen task is not one of this customer's requests");
      }
    }

    const [appointment] = await tx
      .insert(appointments)
      .values({
        customerId: input.customerId,
        homeId: input.homeId,
        assignedEmployeeId: input.assignedEmployeeId ?? null,
        secondHandymanId: input.secondHandymanId ?? null,
        scheduledDate: input.scheduledDate,
        startTime: input.startTime,
        endTime: input.endTime,
        notes: input.notes ?? null,
        status: "booked",
        createdBy,
      })
      .returning();
    if (warnings.length)
      await recordOverride(tx, {
        appointmentId: appointment.id,
        staffId: createdBy,
        action: "book",
        warnings,
        reason: input.overrideReason,
      });
    // Every task is a request of the member's (issue 40 item 2): a typed one becomes one now.
    const typed = await addTaskRequests(tx, {
      customerId: input.customerId,
      homeId: input.homeId,
      tasks: input.tasks.filter((t) => !t.serviceRequestId).map((t) => t.description),
    });
    await tx.insert(appointmentTasks).values(
      input.tasks.map((task) => ({
        appointmentId: appointment.id,
        taskDescription: task.description,
        serviceRequestId: task.serviceRequestId ?? typed.shift()!,
      })),
    );
    // A member's visit takes its block from the hours bank (or is an extra visit), in this
    // transaction: refused, nothing is written.
    await reserveVisitMinutes(tx, appointment.id, {
      actorId: createdBy,
      asExtra: input.asExtra,
    }).catch((error: unknown) => {
      if (error instanceof VisitSpendRefusedError)
        throw new AppointmentRejectedError(error.message);
      throw error;
    });
    // Two handymen: the fee, once, with the booking (ADR 091).
    if (input.secondHandymanId) await chargeSecondHandyman(tx, appointment.id, createdBy);
    if (linked.length) {
      await tx
        .update(serviceRequests)
        .set({ status: "scheduled" })
        .where(and(inArray(serviceRequests.id, linked), ne(serviceRequests.status, "complete")));
    }

    // The same e-mail (with its calendar file) and text as a visit the member booked (issue 40
    // item 9): a text when the member takes texts of visit changes.
    await mailVisitBooked(tx, appointment);
    // The reminder 24 hours before, and the calendar's SEQUENCE for later moves (ADR 017).
    await startVisitCalendar(tx, appointment);
    return appointment;
  });
}

/** Whether the account is an employee's (a second handyman chosen on the form). */
async function isEmployee(tx: Tx, userId: string) {
  const [row] = await tx
    .select({ id: profiles.userId })
    .from(profiles)
    .where(and(eq(profiles.userId, userId), eq(profiles.isEmployee, true)))
    .limit(1);
  return Boolean(row);
}
