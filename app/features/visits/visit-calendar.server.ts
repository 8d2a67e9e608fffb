import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { outbox, visitCalendar } from "~/db/schema";
import { reminderText, siteUrl, textCustomer } from "~/features/notifications/index.server";
import { minuteOfDay, zonedInstant } from "~/lib/business-calendar";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout, type MailMessage } from "~/lib/mail.server";
import { handymenNamesLine } from "./second-handyman.server";
import {
  calendarMail,
  handymanLine,
  mailContext,
  textWhen,
  whenLabel,
  type VisitForMail,
} from "./visit-mail.server";

/*
 * A visit's place in the member's calendar (ADR 017): its SEQUENCE, growing with each e-mail
 * that changes it, and the reminder waiting in the outbox until 24 hours before the start.
 */

export const REMINDER_LEAD_MS = 24 * 60 * 60_000;

/** When a visit starts, as an instant. */
export function visitStart(scheduledDate: string, startTime: string) {
  return zonedInstant(scheduledDate, minuteOfDay(startTime));
}

/**
 * The reminder e-mail and text, held in the outbox until 24 hours before the start (a text due
 * in quiet hours waits for 8 AM).
 */
export async function scheduleReminder(tx: Tx, visit: VisitForMail, now: Date) {
  const due = new Date(
    visitStart(visit.scheduledDate, visit.startTime).getTime() - REMINDER_LEAD_MS,
  );
  // Booked (or moved) less than 24 hours ahead: the confirmation itself is the reminder.
  if (due.getTime() <= now.getTime()) return { email: null, text: null };
  const place = await mailContext(tx, visit.id);
  const when = whenLabel(visit);
  const first = place.handymanId ? await handymanLine(tx, place) : null;
  const handyman = first ? (await handymenNamesLine(tx, first, place.secondHandymanId)).line : null;
  // Two handymen come together (ADR 091): the reminder says so.
  const comes = `your ${place.secondHandymanId ? "handymen" : "handyman"} from ${business().name} ${place.secondHandymanId ? "come" : "comes"} ${when}`;
  const message: MailMessage = {
    to: place.email,
    subject: `Reminder: your visit tomorrow, ${when}`,
    text: [
      `Hello${place.firstName ? ` ${place.firstName}` : ""},`,
      "",
      `A reminder: ${comes}.`,
      `Address: ${place.address}, ${place.city}, ${place.state} ${place.zipCode}`,
      ...(handyman ? [handyman] : []),
      "",
      `To change it, call us at ${business().phone}.`,
    ].join("\n"),
    html: emailLayout({
      heading: "Your visit is tomorrow",
      paragraphs: [
        `A reminder: ${comes}.`,
        `Address: ${place.address}, ${place.city}, ${place.state} ${place.zipCode}`,
        ...(handyman ? [handyman] : []),
        `To change it, call us at ${business().phone}.`,
      ],
      action: { label: "See your visits", url: `${env().publicUrl}/dashboard?tab=schedule` },
    }),
  };
  const [row] = await tx
    .insert(outbox)
    .values({ kind: "email", payload: message, nextAttemptAt: due, recipientId: place.customerId })
    .returning({ id: outbox.id });
  const text = await textCustomer(tx, {
    recipientId: place.customerId,
    kind: "reminders",
    body: reminderText(
      textWhen(visit),
      siteUrl("/dashboard?tab=schedule"),
      Boolean(place.secondHandymanId),
    ),
    fallbackSubject: message.subject,
    notBefore: due,
  });
  return { email: row.id, text };
}

/** Withdraws reminders not sent yet (a reminder being sent right now finishes first). */
export async function withdrawReminder(tx: Tx, ...reminderIds: (string | null)[]) {
  const ids = reminderIds.filter((id): id is string => Boolean(id));
  if (!ids.length) return;
  await tx.delete(outbox).where(and(inArray(outbox.id, ids), isNull(outbox.deliveredAt)));
}

/** The visit's calendar record, locked for this transaction (made when missing). */
export async function lockCalendar(tx: Tx, appointmentId: string) {
  await tx.insert(visitCalendar).values({ appointmentId }).onConflictDoNothing();
  const [state] = await tx
    .select()
    .from(visitCalendar)
    .where(eq(visitCalendar.appointmentId, appointmentId))
    .for("update");
  return state;
}

/**
 * Starts a visit's calendar record: SEQUENCE 0 (its first e-mail's) and the reminder due 24
 * hours before it. createVisit calls it for every booked visit (a walk-thru has none).
 */
export async function startVisitCalendar(tx: Tx, visit: VisitForMail, now = new Date()) {
  const reminder = await scheduleReminder(tx, visit, now);
  await tx.insert(visitCalendar).values({
    appointmentId: visit.id,
    sequence: 0,
    reminderOutboxId: reminder.email,
    reminderTextOutboxId: reminder.text,
  });
}

/**
 * A canceled visit leaves the member's calendar: the next SEQUENCE in an .ics METHOD:CANCEL
 * e-mail, and its reminder withdrawn. Runs in the caller's transaction (a visit canceled on its
 * own, or with the membership).
 */
export async function withdrawFromCalendar(
  tx: Tx,
  visit: VisitForMail,
  actorId: string,
  now = new Date(),
  why?: string,
) {
  const state = await lockCalendar(tx, visit.id);
  const sequence = state.sequence + 1;
  await withdrawReminder(tx, state.reminderOutboxId, state.reminderTextOutboxId);
  await calendarMail(tx, visit, "canceled", sequence, why);
  await tx
    .update(visitCalendar)
    .set({
      sequence,
      reminderOutboxId: null,
      reminderTextOutboxId: null,
      canceledAt: now,
      canceledBy: actorId,
    })
    .where(eq(visitCalendar.appointmentId, visit.id));
  return sequence;
}

/**
 * The office added or removed the visit's second handyman (ADR 091): the member's e-mail with
 * the calendar file updated (the next SEQUENCE), in the caller's transaction.
 */
export async function mailVisitHandymenChanged(tx: Tx, visit: VisitForMail) {
  const state = await lockCalendar(tx, visit.id);
  const sequence = state.sequence + 1;
  await calendarMail(tx, visit, "handymen", sequence);
  await tx.update(visitCalendar).set({ sequence }).where(eq(visitCalendar.appointmentId, visit.id));
}
