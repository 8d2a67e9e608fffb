import { and, eq, inArray } from "drizzle-orm";
import { OPEN_REQUEST_STATUSES } from "~/db/request-status";
import { db } from "~/db/client.server";
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
  recordOverride,
  startVisitCalendar,
} from "~/features/visits/index.server";
import { staffBookingWarnings } from "~/features/availability/index.server";
import { minuteOfDay } from "~/lib/business-calendar";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import { reserveVisitMinutes, VisitSpendRefusedError } from "~/features/memberships/index.server";
import type { CreateAppointmentInput } from "./create-appointment-schema";
import { SELECT_CUSTOMER_AND_PROPERTY, UNKNOWN_EMPLOYEE } from "./create-appointment-schema";
import { formatAppointmentDate, formatAppointmentTime } from "./format";
import { appointmentIcs, appointmentIcsFileName } from "./ics.server";

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
        throw new AppointmentRejectedError("A chosen task is already on another upcoming visit");
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
    await tx.insert(appointmentTasks).values(
      input.tasks.map((task) => ({
        appointmentId: appointment.id,
        taskDescription: task.description,
        serviceRequestId: task.serviceRequestId ?? null,
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
    if (linked.length) {
      await tx
        .update(serviceRequests)
        .set({ status: "scheduled" })
        .where(
          and(
            inArray(serviceRequests.id, linked),
            inArray(serviceRequests.status, [...OPEN_REQUEST_STATUSES]),
          ),
        );
    }

    const tasks = input.tasks.map((t) => t.description);
    const ics = appointmentIcs(
      {
        id: appointment.id,
        scheduledDate: appointment.scheduledDate,
        startTime: appointment.startTime,
        endTime: appointment.endTime,
        address: place.address,
        city: place.city,
        state: place.state,
        tasks,
        notes: appointment.notes,
      },
      // An invitation from the business to the member (SEQUENCE 0, as the visit's calendar
      // starts below), so a later move or cancel (visits.server.ts) updates this same event.
      {
        organizer: { name: business().name, email: business().email },
        attendee: {
          name: [place.firstName, place.lastName].filter(Boolean).join(" ") || place.email,
          email: place.email,
        },
        method: "REQUEST",
        sequence: 0,
      },
    );
    const date = formatAppointmentDate(appointment.scheduledDate);
    const time = `${formatAppointmentTime(appointment.startTime)} to ${formatAppointmentTime(appointment.endTime)}`;
    const where = `${place.address}, ${place.city}, ${place.state} ${place.zipCode}`;
    const handyman = assignee
      ? [assignee.firstName, assignee.lastName].filter(Boolean).join(" ")
      : undefined;
    const lines = [
      `Date: ${date}`,
      `Time: ${time}`,
      `Address: ${where}`,
      ...(handyman ? [`Your handyman: ${handyman}`] : []),
      "Planned tasks:",
      ...tasks.map((task) => `- ${task}`),
      ...(appointment.notes ? [`Notes: ${appointment.notes}`] : []),
    ];
    const dashboard = `${env().publicUrl}/dashboard`;
    await enqueue(tx, "email", {
      to: place.email,
      subject: `Your handyman appointment on ${date}`,
      text: [
        `Hello${place.firstName ? ` ${place.firstName}` : ""},`,
        "",
        `Your visit from ${business().name} is scheduled.`,
        "",
        ...lines,
        "",
        "The attached calendar file adds the visit to your calendar.",
        `See your appointments: ${dashboard}`,
        "",
        `Questions? Call us at ${business().phone}.`,
      ].join("\n"),
      html: emailLayout({
        heading: "Your handyman appointment is scheduled",
        paragraphs: [
          `Hello${place.firstName ? ` ${place.firstName}` : ""}, your visit from ${business().name} is scheduled.`,
          ...lines,
          "The attached calendar file adds the visit to your calendar.",
          `Questions? Call us at ${business().phone}.`,
        ],
        action: { label: "See your appointments", url: dashboard },
      }),
      attachments: [
        {
          filename: appointmentIcsFileName(appointment.scheduledDate),
          content: ics,
          contentType: "text/calendar; charset=utf-8; method=REQUEST",
        },
      ],
    });
    // The reminder 24 hours before, and the calendar's SEQUENCE for later moves (ADR 017).
    await startVisitCalendar(tx, appointment);
    return appointment;
  });
}
