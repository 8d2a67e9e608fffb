import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { appointments, appointmentTasks, homes, profiles, user } from "~/db/schema";
import { appointmentIcs, appointmentIcsFileName } from "./ics.server";
import { extraVisitCharge } from "~/features/memberships/index.server";
import {
  alertOffice,
  readPersonName,
  siteUrl,
  textCustomer,
  visitChangeText,
} from "~/features/notifications/index.server";
import { longDate, minuteLabel, minuteOfDay } from "~/lib/business-calendar";
import { personName } from "~/lib/names";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import { handymenNamesLine, secondHandymanFeeMailLine } from "./second-handyman.server";

/*
 * The visit's e-mails (ADR 017, 094): one composer, enqueueVisitMail, writes every e-mail that
 * carries the visit's calendar file (.ics with the appointment's UID and its SEQUENCE), whoever
 * booked it: the member's booked, moved and canceled e-mails here, the walk-thru's in
 * walk-thru.server.ts.
 */

export type VisitForMail = {
  id: string;
  scheduledDate: string;
  startTime: string;
  endTime: string;
  notes: string | null;
};

/** The e-mail's calendar file: the visit, where, who is invited, and which version. */
export type VisitCalendarFile = {
  visit: Parameters<typeof appointmentIcs>[0];
  /** The event's title when not the usual visit's. */
  title?: string;
  attendee: { name: string; email: string };
  sequence: number;
  method: "REQUEST" | "CANCEL";
};

/**
 * Queues an e-mail with the visit's calendar file, in the caller's transaction: its text is the
 * blocks separated by blank lines, its page the paragraphs under the subject as heading.
 */
export async function enqueueVisitMail(
  tx: Tx,
  mail: {
    to: string;
    recipientId: string | null;
    subject: string;
    text: string[][];
    paragraphs: string[];
    action?: { label: string; url: string };
    calendar: VisitCalendarFile;
  },
) {
  const { calendar } = mail;
  const ics = appointmentIcs(calendar.visit, {
    title: calendar.title,
    organizer: { name: business().name, email: business().email },
    attendee: calendar.attendee,
    sequence: calendar.sequence,
    method: calendar.method,
  });
  await enqueue(
    tx,
    "email",
    {
      to: mail.to,
      subject: mail.subject,
      text: mail.text.flatMap((block, i) => (i ? ["", ...block] : block)).join("\n"),
      html: emailLayout({
        heading: mail.subject,
        paragraphs: mail.paragraphs,
        action: mail.action,
      }),
      attachments: [
        {
          filename: appointmentIcsFileName(calendar.visit.scheduledDate),
          content: ics,
          contentType: `text/calendar; charset=utf-8; method=${calendar.method}`,
        },
      ],
    },
    mail.recipientId ? { recipientId: mail.recipientId } : undefined,
  );
}

export async function mailContext(tx: Tx, appointmentId: string) {
  const [row] = await tx
    .select({
      customerId: user.id,
      handymanId: appointments.assignedEmployeeId,
      secondHandymanId: appointments.secondHandymanId,
      coveringForId: appointments.coveringForId,
      email: user.email,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      address: homes.address,
      city: homes.city,
      state: homes.state,
      zipCode: homes.zipCode,
    })
    .from(appointments)
    .innerJoin(homes, eq(homes.id, appointments.homeId))
    .innerJoin(user, eq(user.id, appointments.customerId))
    .leftJoin(profiles, eq(profiles.userId, appointments.customerId))
    .where(eq(appointments.id, appointmentId));
  const tasks = await tx
    .select({ description: appointmentTasks.taskDescription })
    .from(appointmentTasks)
    .where(eq(appointmentTasks.appointmentId, appointmentId));
  return { ...row, tasks: tasks.map((t) => t.description) };
}

/** "Sam Reyes", or "Sam Reyes, covering for Dana Whitfield" (ADR 088). */
export async function handymanLine(
  tx: Tx,
  place: { handymanId: string | null; coveringForId: string | null },
) {
  const name = await readPersonName(tx, place.handymanId!);
  return place.coveringForId
    ? `${name}, covering for ${await readPersonName(tx, place.coveringForId)}`
    : name;
}

const textDateFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
});

/** "Mon, Nov 30, 9:00 AM": short enough for one text segment. */
export function textWhen(visit: Pick<VisitForMail, "scheduledDate" | "startTime">) {
  const [y, m, d] = visit.scheduledDate.split("-").map(Number);
  return `${textDateFormat.format(new Date(Date.UTC(y, m - 1, d)))}, ${minuteLabel(minuteOfDay(visit.startTime))}`;
}

export function whenLabel(visit: Pick<VisitForMail, "scheduledDate" | "startTime" | "endTime">) {
  return `${longDate(visit.scheduledDate)}, ${minuteLabel(minuteOfDay(visit.startTime))} to ${minuteLabel(minuteOfDay(visit.endTime))}`;
}

/** The member's e-mail (and text) of a visit booked, moved or canceled, with its calendar file. */
export async function calendarMail(
  tx: Tx,
  visit: VisitForMail,
  kind: "booked" | "moved" | "canceled" | "handymen",
  sequence: number,
  /** Why the business canceled it (a closure): the e-mail asks the member to choose again. */
  why?: string,
) {
  const place = await mailContext(tx, visit.id);
  const when = whenLabel(visit);
  const subject = {
    booked: `Your visit is booked: ${when}`,
    moved: `Your visit has moved: ${when}`,
    canceled: `Your visit is canceled: ${when}`,
    handymen: `Your visit's handymen have changed: ${when}`,
  }[kind];
  const lead = {
    booked: `Your visit from ${business().name} is booked.`,
    moved: `Your visit from ${business().name} has moved to a new time.`,
    canceled: `Your visit from ${business().name} is canceled. The attached file removes it from your calendar.`,
    handymen: place.secondHandymanId
      ? `Your visit from ${business().name} now has two handymen.`
      : `Your visit from ${business().name} now has one handyman: the second handyman's fee is reversed.`,
  }[kind];
  // An extra visit says its price where it is booked or moved (issue 27, item 13).
  const extra = kind === "canceled" ? null : await extraVisitCharge(tx, visit.id);
  const handyman = kind !== "canceled" && place.handymanId ? await handymanLine(tx, place) : null;
  const handymen = handyman ? await handymenNamesLine(tx, handyman, place.secondHandymanId) : null;
  const fee = kind === "canceled" ? null : await secondHandymanFeeMailLine(tx, visit.id);
  const lines = [
    `When: ${when}`,
    ...(extra ? [`${extra.label}.${extra.reason ? ` ${extra.reason}` : ""}`] : []),
    ...(fee ? [fee] : []),
    `Address: ${place.address}, ${place.city}, ${place.state} ${place.zipCode}`,
    ...(handymen ? [handymen.line] : []),
    ...(place.tasks.length ? ["Planned tasks:", ...place.tasks.map((t) => `- ${t}`)] : []),
    ...(visit.notes ? [`Notes: ${visit.notes}`] : []),
  ];
  const dashboard = `${env().publicUrl}/dashboard?tab=schedule`;
  const rebook = `${env().publicUrl}/dashboard/book`;
  const apology =
    kind === "canceled" && why
      ? [
          `We are sorry: we had to cancel this visit (${why}). Its hours are back in your bank and its tasks back on your lists.`,
          `Please choose another time: ${rebook}`,
        ]
      : [];
  const hello = `Hello${place.firstName ? ` ${place.firstName}` : ""},`;
  const questions = `Questions? Call us at ${business().phone}.`;
  if (kind !== "handymen")
    await textCustomer(tx, {
      recipientId: place.customerId,
      kind: "visit-changes",
      body: visitChangeText(kind, textWhen(visit), siteUrl("/dashboard?tab=schedule")),
      fallbackSubject: subject,
    });
  await enqueueVisitMail(tx, {
    to: place.email,
    recipientId: place.customerId,
    subject,
    text: [
      [hello],
      [lead],
      ...(apology.length ? [apology] : []),
      lines,
      [`Your visits: ${dashboard}`],
      [questions],
    ],
    paragraphs: [`${hello} ${lead}`, ...apology, ...lines, questions],
    action: apology.length
      ? { label: "Choose another time", url: rebook }
      : { label: "See your visits", url: dashboard },
    calendar: {
      visit: {
        ...visit,
        address: place.address,
        city: place.city,
        state: place.state,
        tasks: place.tasks,
        handymen: handymen?.names,
      },
      attendee: {
        name: personName(place.firstName, place.lastName) || place.email,
        email: place.email,
      },
      sequence,
      method: kind === "canceled" ? "CANCEL" : "REQUEST",
    },
  });
}

/**
 * The member's 'Your visit is booked' e-mail (with the calendar file) and text, whoever booked
 * it: staff's Create Appointment sends exactly what the member's own booking sends.
 */
export function mailVisitBooked(tx: Tx, visit: VisitForMail) {
  return calendarMail(tx, visit, "booked", 0);
}

/** The office hears of a visit a member moved or canceled themselves. */
export async function alertOfficeOfMemberChange(
  tx: Tx,
  visit: VisitForMail & { customerId: string },
  change: "moved" | "canceled",
) {
  const name = await readPersonName(tx, visit.customerId);
  await alertOffice(tx, {
    subject: `${name} ${change} a visit`,
    customerName: name,
    lines: [
      change === "moved"
        ? `${name} moved their visit to ${whenLabel(visit)}.`
        : `${name} canceled their visit of ${whenLabel(visit)}. The time is free again.`,
    ],
    staffPath: `/employee/customers/${visit.customerId}/membership`,
  });
}
