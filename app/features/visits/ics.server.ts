import { createEvent } from "ics";
import { BUSINESS_TIME_ZONE, minuteOfDay, zonedInstant } from "~/lib/business-calendar";
import { isValidEmail } from "~/lib/validation";
import type { VisitStatus } from "~/db/visit-status";

/*
 * The calendar file of an appointment (SPEC section 9): 'Handyman Appointment' at the home's
 * address, the planned tasks and notes in the description, status confirmed. The stored date
 * and times are wall-clock values in the business time zone; the file carries them as exact
 * UTC instants, so every calendar shows the visit at the right moment wherever it is opened.
 */

export type AppointmentForCalendar = {
  id: string;
  /** YYYY-MM-DD in the business time zone. */
  scheduledDate: string;
  /** HH:MM or HH:MM:SS in the business time zone. */
  startTime: string;
  endTime: string;
  address: string;
  city: string;
  state: string;
  tasks: string[];
  notes: string | null;
  /** The visit's state (ADR 046): a canceled visit or a no-show is CANCELLED in the file. */
  status?: VisitStatus;
  /** Who comes: "Dana Whitfield and Sam Okafor" with two handymen (ADR 091). */
  handymen?: string | null;
};

/**
 * A person in a calendar file, by the one e-mail rule: an address outside it (which the `ics`
 * package would refuse, failing the whole file) is left out, the name stays.
 */
export function calendarContact<T extends { name: string; email: string }>(
  person: T,
): T | Omit<T, "email"> {
  if (isValidEmail(person.email)) return person;
  const { email: _omitted, ...rest } = person;
  return rest;
}

/**
 * The instant at which the wall clock in `timeZone` reads `date` `time` ("HH:MM" or "HH:MM:SS"),
 * by the business calendar's rule: daylight saving is honoured, and a time skipped by the spring
 * change is read with the offset before the change.
 */
export function zonedTimeToUtc(date: string, time: string, timeZone = BUSINESS_TIME_ZONE) {
  const seconds = Number(time.split(":")[2] ?? 0);
  return new Date(zonedInstant(date, minuteOfDay(time), timeZone).getTime() + seconds * 1000);
}

/** "appointment-2026-12-01.ics": named by the scheduled date. */
export function appointmentIcsFileName(scheduledDate: string) {
  return `appointment-${scheduledDate}.ics`;
}

export function appointmentDescription(
  input: Pick<AppointmentForCalendar, "tasks" | "notes" | "handymen">,
) {
  const lines: string[] = [];
  if (input.handymen) lines.push(`Handymen: ${input.handymen}`, "");
  if (input.tasks.length) {
    lines.push("Planned tasks:", ...input.tasks.map((task) => `- ${task}`));
  }
  if (input.notes?.trim()) {
    if (lines.length) lines.push("");
    lines.push(`Notes: ${input.notes.trim()}`);
  }
  return lines.join("\n");
}

function toDateArray(instant: Date): [number, number, number, number, number] {
  return [
    instant.getUTCFullYear(),
    instant.getUTCMonth() + 1,
    instant.getUTCDate(),
    instant.getUTCHours(),
    instant.getUTCMinutes(),
  ];
}

/** The .ics text of one appointment. Throws when the appointment cannot be expressed. */
export function appointmentIcs(
  appointment: AppointmentForCalendar,
  options: {
    productId?: string;
    /** The business: calendars apply a later REQUEST or CANCEL only from the event's organizer. */
    organizer?: { name: string; email: string };
    /** The member, whose calendar holds the event: with the organizer, it makes the file an
     * invitation that Google Calendar, Outlook and Apple Calendar update in place. */
    attendee?: { name: string; email: string };
    /** Grows with every change, so a calendar replaces the event (the UID stays). */
    sequence?: number;
    /** REQUEST for a booking or a move, CANCEL to withdraw the event. */
    method?: "REQUEST" | "CANCEL";
    /** The event's title: 'Handyman Appointment' unless said otherwise (a walk-thru). */
    title?: string;
  } = {},
) {
  const start = zonedTimeToUtc(appointment.scheduledDate, appointment.startTime);
  let end = zonedTimeToUtc(appointment.scheduledDate, appointment.endTime);
  // A calendar event must end after it starts; old rows may not (the spec never checked).
  if (end <= start) end = new Date(start.getTime() + 60 * 60_000);
  const { error, value } = createEvent({
    uid: `appointment-${appointment.id}@peachtree-handyman`,
    productId: options.productId ?? "peachtree-handyman/appointments",
    title: options.title ?? "Handyman Appointment",
    start: toDateArray(start),
    startInputType: "utc",
    startOutputType: "utc",
    end: toDateArray(end),
    endInputType: "utc",
    endOutputType: "utc",
    location: [appointment.address, appointment.city, appointment.state].filter(Boolean).join(", "),
    description: appointmentDescription(appointment),
    status:
      options.method === "CANCEL" ||
      appointment.status === "canceled" ||
      appointment.status === "no_show"
        ? "CANCELLED"
        : "CONFIRMED",
    busyStatus: "BUSY",
    organizer: options.organizer && calendarContact(options.organizer),
    // An attendee is an address; one outside the e-mail rule is left out.
    ...(options.attendee && isValidEmail(options.attendee.email)
      ? {
          attendees: [
            {
              ...options.attendee,
              rsvp: false,
              partstat: "ACCEPTED" as const,
              role: "REQ-PARTICIPANT" as const,
            },
          ],
        }
      : {}),
    ...(options.method ? { method: options.method } : {}),
    ...(options.sequence !== undefined ? { sequence: options.sequence } : {}),
  });
  // The library's error is not always an Error and carries the whole event: keep its words only.
  if (error || !value) throw new Error(`Could not build the calendar file: ${error?.message}`);
  return value;
}
