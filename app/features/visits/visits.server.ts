import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import {
  appointments,
  appointmentTasks,
  homes,
  outbox,
  profiles,
  serviceRequests,
  user,
  visitCalendar,
} from "~/db/schema";
import { DOUBLE_BOOKING_MESSAGE, isDoubleBooking } from "~/features/availability";
import {
  insideClosure,
  staffBookingWarnings,
  type Closure,
} from "~/features/availability/index.server";
import { openRequestsOf } from "~/features/service-requests/index.server";
import { offerVisits } from "~/features/availability/index.server";
import type { VisitBlock } from "~/features/availability";
import { appointmentIcs, appointmentIcsFileName } from "~/features/appointments/index.server";
import {
  longDate,
  minuteLabel,
  minuteOfDay,
  timeOfDay,
  zonedInstant,
  type IsoDate,
} from "~/lib/business-calendar";
import { extraVisitCharge } from "~/features/memberships/index.server";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout, type MailMessage } from "~/lib/mail.server";
import { enqueue, nudgeOutbox } from "~/lib/outbox.server";
import { BookAnywayNeededError, recordOverride, type Override } from "./overrides.server";
import {
  handymenNamesLine,
  secondAfterMove,
  secondHandymanFeeMailLine,
  secondHandymanOf,
  settleSecondHandymanFee,
} from "./second-handyman.server";
import { VisitRejectedError, type Actor } from "./visit-errors";
import { changeVisitState, lockVisit } from "./visit-lock.server";
import { refusalMessage, VISIT_STATUS_LABELS, type VisitStatus } from "./visit-state";
import {
  alertOffice,
  customerName,
  reminderText,
  siteUrl,
  textCustomer,
  visitChangeText,
} from "~/features/notifications/index.server";

/*
 * Members book, move and cancel their own visits (ADR 017). Each change is one transaction:
 * the appointment, its tasks, the requests moved to Scheduled, the calendar e-mail (.ics with the
 * appointment's UID and a growing SEQUENCE) and the reminder waiting in the outbox until 24 hours
 * before the start. The database refuses a handyman two overlapping visits (ADR 016).
 */

export const FIRST_VISIT_TASK_LIMIT = 3;
/** A member moves or cancels up to this long before the start; later, they call. */
export const MEMBER_CHANGE_CUTOFF_MS = 24 * 60 * 60_000;
export const REMINDER_LEAD_MS = 24 * 60 * 60_000;

export const SLOT_TAKEN_MESSAGE = "That time was just taken. Please choose another time.";
export const SLOT_UNAVAILABLE_MESSAGE = "That time is not available. Please choose another time.";
export const TOO_LATE_MESSAGE =
  "This visit starts in less than 24 hours and can no longer be changed online. Please call us.";

export { VisitRejectedError, type Actor } from "./visit-errors";

/** When a visit starts, as an instant. */
export function visitStart(scheduledDate: string, startTime: string) {
  return zonedInstant(scheduledDate, minuteOfDay(startTime));
}

/** Whether a member may still move or cancel the visit themselves. */
export function memberMayChange(start: Date, now = new Date()) {
  return start.getTime() - now.getTime() >= MEMBER_CHANGE_CUTOFF_MS;
}

/** Whether this is the member's first visit: no visit of theirs, past or future, holds. */
export async function isFirstVisit(
  customerId: string,
  database: Tx | ReturnType<typeof db> = db(),
) {
  const [row] = await database
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.customerId, customerId), ne(appointments.status, "canceled")))
    .limit(1);
  return !row;
}

/** The member's open requests (Next and Later lists) that can become a visit's tasks. */
export function bookableRequests(customerId: string) {
  return openRequestsOf(customerId);
}

type VisitForMail = {
  id: string;
  scheduledDate: string;
  startTime: string;
  endTime: string;
  notes: string | null;
};

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
async function handymanLine(
  tx: Tx,
  place: { handymanId: string | null; coveringForId: string | null },
) {
  const name = await customerName(tx, place.handymanId!);
  return place.coveringForId
    ? `${name}, covering for ${await customerName(tx, place.coveringForId)}`
    : name;
}

/** The member as a calendar names them: "First Last", or the address when no name is kept. */
function personName(person: { email: string; firstName: string | null; lastName: string | null }) {
  return [person.firstName, person.lastName].filter(Boolean).join(" ") || person.email;
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

function whenLabel(visit: Pick<VisitForMail, "scheduledDate" | "startTime" | "endTime">) {
  return `${longDate(visit.scheduledDate)}, ${minuteLabel(minuteOfDay(visit.startTime))} to ${minuteLabel(minuteOfDay(visit.endTime))}`;
}

async function calendarMail(
  tx: Tx,
  visit: VisitForMail,
  kind: "booked" | "moved" | "canceled" | "handymen",
  sequence: number,
  /** Why the business canceled it (a closure): the e-mail asks the member to choose again. */
  why?: string,
) {
  const place = await mailContext(tx, visit.id);
  const handyman = kind !== "canceled" && place.handymanId ? await handymanLine(tx, place) : null;
  const handymen = handyman ? await handymenNamesLine(tx, handyman, place.secondHandymanId) : null;
  const ics = appointmentIcs(
    {
      ...visit,
      address: place.address,
      city: place.city,
      state: place.state,
      tasks: place.tasks,
      handymen: handymen?.names,
    },
    {
      organizer: { name: business().name, email: business().email },
      attendee: { name: personName(place), email: place.email },
      sequence,
      method: kind === "canceled" ? "CANCEL" : "REQUEST",
    },
  );
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
  if (kind !== "handymen")
    await textCustomer(tx, {
      recipientId: place.customerId,
      kind: "visit-changes",
      body: visitChangeText(kind, textWhen(visit), siteUrl("/dashboard?tab=schedule")),
      fallbackSubject: subject,
    });
  await enqueue(
    tx,
    "email",
    {
      to: place.email,
      subject,
      text: [
        hello,
        "",
        lead,
        ...(apology.length ? ["", ...apology] : []),
        "",
        ...lines,
        "",
        `Your visits: ${dashboard}`,
        "",
        `Questions? Call us at ${business().phone}.`,
      ].join("\n"),
      html: emailLayout({
        heading: subject,
        paragraphs: [
          `${hello} ${lead}`,
          ...apology,
          ...lines,
          `Questions? Call us at ${business().phone}.`,
        ],
        action: apology.length
          ? { label: "Choose another time", url: rebook }
          : { label: "See your visits", url: dashboard },
      }),
      attachments: [
        {
          filename: appointmentIcsFileName(visit.scheduledDate),
          content: ics,
          contentType: `text/calendar; charset=utf-8; method=${kind === "canceled" ? "CANCEL" : "REQUEST"}`,
        },
      ],
    },
    { recipientId: place.customerId },
  );
}

/**
 * The member's 'Your visit is booked' e-mail (with the calendar file) and text, whoever booked
 * it: staff's Create Appointment sends exactly what the member's own booking sends.
 */
export function mailVisitBooked(tx: Tx, visit: VisitForMail) {
  return calendarMail(tx, visit, "booked", 0);
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

/** The office hears of a visit a member moved or canceled themselves. */
async function alertOfficeOfMemberChange(
  tx: Tx,
  visit: VisitForMail & { customerId: string },
  change: "moved" | "canceled",
) {
  const name = await customerName(tx, visit.customerId);
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

/**
 * The reminder e-mail and text, held in the outbox until 24 hours before the start (a text due
 * in quiet hours waits for 8 AM).
 */
async function scheduleReminder(tx: Tx, visit: VisitForMail, now: Date) {
  const due = new Date(
    visitStart(visit.scheduledDate, visit.startTime).getTime() - REMINDER_LEAD_MS,
  );
  // Booked (or moved) less than 24 hours ahead: the confirmation itself is the reminder.
  if (due.getTime() <= now.getTime()) return { email: null, text: null };
  const place = await mailContext(tx, visit.id);
  const when = whenLabel(visit);
  const first = place.handymanId ? await handymanLine(tx, place) : null;
  const handyman = first ? (await handymenNamesLine(tx, first, place.secondHandymanId)).line : null;
  const message: MailMessage = {
    to: place.email,
    subject: `Reminder: your visit tomorrow, ${when}`,
    text: [
      `Hello${place.firstName ? ` ${place.firstName}` : ""},`,
      "",
      `A reminder: your handyman from ${business().name} comes ${when}.`,
      `Address: ${place.address}, ${place.city}, ${place.state} ${place.zipCode}`,
      ...(handyman ? [handyman] : []),
      "",
      `To change it, call us at ${business().phone}.`,
    ].join("\n"),
    html: emailLayout({
      heading: "Your visit is tomorrow",
      paragraphs: [
        `A reminder: your handyman from ${business().name} comes ${when}.`,
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
    body: reminderText(textWhen(visit), siteUrl("/dashboard?tab=schedule")),
    fallbackSubject: message.subject,
    notBefore: due,
  });
  return { email: row.id, text };
}

/** Withdraws reminders not sent yet (a reminder being sent right now finishes first). */
async function withdrawReminder(tx: Tx, ...reminderIds: (string | null)[]) {
  const ids = reminderIds.filter((id): id is string => Boolean(id));
  if (!ids.length) return;
  await tx.delete(outbox).where(and(inArray(outbox.id, ids), isNull(outbox.deliveredAt)));
}

async function checkSlot(input: {
  customerId: string;
  block: VisitBlock;
  date: IsoDate;
  startMinute: number;
  employeeId?: string;
  now: Date;
  excludeAppointmentId?: string;
  /** 'Two handymen' (ADR 091): the start must have two free; the second is returned. */
  twoHandymen?: boolean;
}) {
  const { days } = await offerVisits({
    customerId: input.customerId,
    block: input.block,
    now: input.now,
    onlyDate: input.date,
    excludeAppointmentId: input.excludeAppointmentId,
    handymenNeeded: input.twoHandymen ? 2 : 1,
  });
  const slot = days[0]?.slots.find((s) => s.startMinute === input.startMinute);
  const handyman = input.employeeId
    ? slot?.handymen.find((h) => h.id === input.employeeId)
    : slot?.handymen[0];
  if (!handyman) throw new VisitRejectedError(SLOT_UNAVAILABLE_MESSAGE);
  return { ...handyman, second: input.twoHandymen ? secondHandymanOf(slot!, handyman.id) : null };
}

/**
 * Starts a visit's calendar record: SEQUENCE 0 (its first e-mail's) and the reminder due 24
 * hours before it. Staff-created appointments call this in their own transaction too.
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

export type BookVisitInput = {
  block: VisitBlock;
  date: IsoDate;
  startMinute: number;
  employeeId?: string;
  requestIds: string[];
  /** 'Two handymen' (ADR 091). */
  twoHandymen?: boolean;
};

/**
 * Books a visit for a member. `reserve` runs inside the transaction after the appointment is
 * written (the hours bank's reservation); throwing from it undoes everything.
 */
export async function bookVisit(
  customerId: string,
  input: BookVisitInput,
  options: { now?: Date; reserve?: (tx: Tx, appointmentId: string) => Promise<void> } = {},
) {
  const now = options.now ?? new Date();
  const [home] = await db()
    .select({ id: homes.id })
    .from(homes)
    .where(eq(homes.customerId, customerId));
  if (!home) throw new VisitRejectedError("Add your home's address in Profile Settings first.");
  const requestIds = [...new Set(input.requestIds)];
  if (!requestIds.length) throw new VisitRejectedError("Choose at least one task for the visit.");
  const handyman = await checkSlot({ customerId, ...input, now });
  // Booked with another than her dedicated handyman: he covers for him (ADR 088).
  const [her] = await db()
    .select({ dedicated: profiles.dedicatedHandymanId })
    .from(profiles)
    .where(eq(profiles.userId, customerId));
  const coveringForId = her?.dedicated && her.dedicated !== handyman.id ? her.dedicated : null;
  try {
    return await db().transaction(async (tx) => {
      // The member's bookings take turns on their home's row, so the task rules below read
      // what the booking before this one wrote (issue 26: five parallel posts booked one
      // request five times, and two 3-task first visits went through at once).
      await tx.select({ id: homes.id }).from(homes).where(eq(homes.id, home.id)).for("update");
      const requests = await tx
        .select({ id: serviceRequests.id, title: serviceRequests.title })
        .from(serviceRequests)
        .where(
          and(
            eq(serviceRequests.customerId, customerId),
            inArray(serviceRequests.id, requestIds),
            ne(serviceRequests.status, "complete"),
          ),
        );
      if (requests.length !== requestIds.length)
        throw new VisitRejectedError("A chosen task is not one of your open requests.");
      // A task already on another upcoming visit is shown, not offered (issue 40 item 3); a
      // forged post is refused here, and a race by the unique index.
      const held = await tx
        .select({ id: appointmentTasks.id })
        .from(appointmentTasks)
        .where(
          and(
            inArray(appointmentTasks.serviceRequestId, requestIds),
            eq(appointmentTasks.visitOpen, true),
          ),
        )
        .limit(1);
      if (held.length) throw new VisitRejectedError(REQUEST_BOOKED_MESSAGE);
      if (requests.length > FIRST_VISIT_TASK_LIMIT && (await isFirstVisit(customerId, tx)))
        throw new VisitRejectedError(
          `Your first visit can take at most ${FIRST_VISIT_TASK_LIMIT} tasks.`,
        );
      const [visit] = await tx
        .insert(appointments)
        .values({
          customerId,
          homeId: home.id,
          assignedEmployeeId: handyman.id,
          secondHandymanId: handyman.second?.id ?? null,
          coveringForId,
          scheduledDate: input.date,
          startTime: timeOfDay(input.startMinute),
          endTime: timeOfDay(input.startMinute + input.block),
          status: "booked",
          createdBy: customerId,
        })
        .returning();
      // Titles in the member's order of choice.
      const byId = new Map(requests.map((r) => [r.id, r]));
      await tx.insert(appointmentTasks).values(
        requestIds.map((id) => ({
          appointmentId: visit.id,
          taskDescription: byId.get(id)!.title,
          serviceRequestId: id,
        })),
      );
      await tx
        .update(serviceRequests)
        .set({ status: "scheduled" })
        .where(
          and(inArray(serviceRequests.id, requestIds), eq(serviceRequests.customerId, customerId)),
        );
      await options.reserve?.(tx, visit.id);
      await calendarMail(tx, visit, "booked", 0);
      const reminder = await scheduleReminder(tx, visit, now);
      await tx.insert(visitCalendar).values({
        appointmentId: visit.id,
        sequence: 0,
        reminderOutboxId: reminder.email,
        reminderTextOutboxId: reminder.text,
      });
      return { ...visit, handyman };
    });
  } catch (error) {
    if (isDoubleBooking(error)) throw new VisitRejectedError(SLOT_TAKEN_MESSAGE);
    if (isRequestOnAnotherVisit(error)) throw new VisitRejectedError(REQUEST_BOOKED_MESSAGE);
    throw error;
  }
}

export const REQUEST_BOOKED_MESSAGE = "A chosen task is already on another upcoming visit.";

/** The unique index that holds a request to one open visit (migration 0008). */
export function isRequestOnAnotherVisit(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === "object") {
    const e = current as { code?: string; constraint?: string };
    if (e.code === "23505" && e.constraint === "appointment_tasks_one_open_visit_per_request")
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A visit the actor may act on: a member's own, or any for staff. */
export async function findVisit(actor: Actor, appointmentId: string) {
  const [row] = await db()
    .select({
      id: appointments.id,
      customerId: appointments.customerId,
      kind: appointments.kind,
      assignedEmployeeId: appointments.assignedEmployeeId,
      secondHandymanId: appointments.secondHandymanId,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      status: appointments.status,
      notes: appointments.notes,
    })
    .from(appointments)
    .where(
      actor.isEmployee
        ? eq(appointments.id, appointmentId)
        : and(eq(appointments.id, appointmentId), eq(appointments.customerId, actor.id)),
    );
  // A walk-thru (ADR 061) is not a member's visit: it has its own page and rules.
  if (!row || row.kind !== "visit" || !row.customerId) return undefined;
  const customerId = row.customerId;
  const block = minuteOfDay(row.endTime) - minuteOfDay(row.startTime);
  return { ...row, customerId, block, start: visitStart(row.scheduledDate, row.startTime) };
}

async function lockCalendar(tx: Tx, appointmentId: string) {
  await tx.insert(visitCalendar).values({ appointmentId }).onConflictDoNothing();
  const [state] = await tx
    .select()
    .from(visitCalendar)
    .where(eq(visitCalendar.appointmentId, appointmentId))
    .for("update");
  return state;
}

export const COMPLETED_NOT_MOVED_MESSAGE = "This visit is completed and cannot be moved.";

function moveRefusal(status: VisitStatus) {
  if (status === "completed") return COMPLETED_NOT_MOVED_MESSAGE;
  if (status === "canceled") return "This visit is already canceled.";
  return `A visit that is ${VISIT_STATUS_LABELS[status].toLowerCase()} cannot be moved.`;
}

/**
 * Only a booked visit moves; a booked one (and, for staff, one whose handyman is on the way)
 * can be canceled; a completed visit neither (ADR 046). Members change up to 24 hours before.
 */
function guardChange(
  actor: Actor,
  visit: { status: VisitStatus; start: Date },
  now: Date,
  change: "move" | "cancel",
) {
  if (change === "move" && visit.status !== "booked")
    throw new VisitRejectedError(moveRefusal(visit.status));
  if (
    change === "cancel" &&
    !(visit.status === "booked" || (actor.isEmployee && visit.status === "on_the_way"))
  )
    throw new VisitRejectedError(refusalMessage(visit.status, "canceled"));
  if (!actor.isEmployee && !memberMayChange(visit.start, now))
    throw new VisitRejectedError(TOO_LATE_MESSAGE);
}

/** Moves a visit to another offered start (same block); staff may also pick the handyman. */
export async function moveVisit(
  actor: Actor,
  appointmentId: string,
  input: { date: IsoDate; startMinute: number; employeeId?: string },
  options: { now?: Date; respend?: (tx: Tx, appointmentId: string) => Promise<void> } = {},
) {
  const now = options.now ?? new Date();
  const visit = await findVisit(actor, appointmentId);
  if (!visit) throw new VisitRejectedError("Visit not found.");
  guardChange(actor, visit, now, "move");
  if (visit.block !== 105 && visit.block !== 210)
    throw new VisitRejectedError("Please call us to move this visit.");
  const handyman = await checkSlot({
    customerId: visit.customerId,
    block: visit.block,
    date: input.date,
    startMinute: input.startMinute,
    employeeId: input.employeeId ?? visit.assignedEmployeeId ?? undefined,
    now,
    excludeAppointmentId: visit.id,
    twoHandymen: Boolean(visit.secondHandymanId),
  }).catch(async (error: unknown) => {
    // The same handyman is not free then: anyone free is fine unless staff chose one.
    if (input.employeeId || !(error instanceof VisitRejectedError)) throw error;
    return checkSlot({
      customerId: visit.customerId,
      block: visit.block as VisitBlock,
      date: input.date,
      startMinute: input.startMinute,
      now,
      excludeAppointmentId: visit.id,
      twoHandymen: Boolean(visit.secondHandymanId),
    });
  });
  const secondHandymanId = handyman.second?.id ?? null;
  return writeMove(
    actor,
    visit,
    { ...input, employeeId: handyman.id, secondHandymanId },
    options,
  ).then((moved) => ({
    ...moved,
    handyman,
  }));
}

/**
 * Writes a checked move in one transaction: the visit (only while booked), the bank decided
 * again, the calendar e-mail with the next SEQUENCE, the reminder, and the override when staff
 * booked it anyway.
 */
async function writeMove(
  actor: Actor,
  visit: { id: string; block: number },
  input: {
    date: IsoDate;
    startMinute: number;
    employeeId: string | null;
    /** The second handyman the move found free; unsaid, he stays (unless he becomes first). */
    secondHandymanId?: string | null;
  },
  options: {
    now?: Date;
    respend?: (tx: Tx, appointmentId: string) => Promise<void>;
    override?: { warnings: string[]; reason?: string | null };
  },
) {
  const now = options.now ?? new Date();
  try {
    return await db().transaction(async (tx) => {
      const state = await lockCalendar(tx, visit.id);
      const [moved] = await tx
        .update(appointments)
        .set({
          scheduledDate: input.date,
          startTime: timeOfDay(input.startMinute),
          endTime: timeOfDay(input.startMinute + visit.block),
          assignedEmployeeId: input.employeeId,
          secondHandymanId: secondAfterMove(input),
          // With another than her dedicated handyman: he covers for him (ADR 088).
          coveringForId: input.employeeId
            ? sql`(select p.dedicated_handyman_id from profiles p where p.user_id = ${appointments.customerId} and p.dedicated_handyman_id <> ${input.employeeId})`
            : null,
        })
        .where(and(eq(appointments.id, visit.id), eq(appointments.status, "booked")))
        .returning();
      if (!moved) {
        const [current] = await tx
          .select({ status: appointments.status })
          .from(appointments)
          .where(eq(appointments.id, visit.id));
        throw new VisitRejectedError(moveRefusal(current?.status ?? "canceled"));
      }
      await options.respend?.(tx, visit.id);
      await settleSecondHandymanFee(tx, visit.id, actor.id);
      if (options.override?.warnings.length)
        await recordOverride(tx, {
          appointmentId: visit.id,
          staffId: actor.id,
          action: "move",
          warnings: options.override.warnings,
          reason: options.override.reason,
        });
      const sequence = state.sequence + 1;
      await withdrawReminder(tx, state.reminderOutboxId, state.reminderTextOutboxId);
      await calendarMail(tx, moved, "moved", sequence);
      const reminder = await scheduleReminder(tx, moved, now);
      await tx
        .update(visitCalendar)
        .set({ sequence, reminderOutboxId: reminder.email, reminderTextOutboxId: reminder.text })
        .where(eq(visitCalendar.appointmentId, visit.id));
      if (!actor.isEmployee && moved.customerId)
        await alertOfficeOfMemberChange(tx, { ...moved, customerId: moved.customerId }, "moved");
      return { ...moved, sequence };
    });
  } catch (error) {
    if (isDoubleBooking(error))
      throw new VisitRejectedError(actor.isEmployee ? DOUBLE_BOOKING_MESSAGE : SLOT_TAKEN_MESSAGE);
    throw error;
  }
}

export const INSIDE_CLOSURE_MESSAGE =
  "That time is inside the closure being saved. Please choose another time.";

/**
 * Staff move a visit to a day, start and handyman they choose (not only the offered times):
 * a closed day, time off, outside working hours or the past are warned about and need 'Book
 * anyway' (kept on the visit); a handyman's overlapping visit stays refused (ADR 016, 050).
 */
export async function staffMoveVisit(
  actor: Actor,
  appointmentId: string,
  input: { date: IsoDate; startMinute: number; employeeId: string | null },
  options: {
    now?: Date;
    override?: Override;
    respend?: (tx: Tx, appointmentId: string) => Promise<void>;
    /** A closure about to be saved: a time inside it is refused, not warned about. */
    closure?: Closure;
  } = {},
) {
  if (!actor.isEmployee) throw new VisitRejectedError("Only staff can choose any time.");
  const now = options.now ?? new Date();
  const visit = await findVisit(actor, appointmentId);
  if (!visit) throw new VisitRejectedError("Visit not found.");
  guardChange(actor, visit, now, "move");
  const end = input.startMinute + visit.block;
  if (end > 24 * 60) throw new VisitRejectedError("The visit must end by midnight.");
  const placed = { date: input.date, employeeId: input.employeeId, start: input.startMinute, end };
  if (options.closure && insideClosure(options.closure, placed))
    throw new VisitRejectedError(INSIDE_CLOSURE_MESSAGE);
  const warnings = await staffBookingWarnings(
    { ...placed, excludeAppointmentId: visit.id },
    { now },
  );
  if (warnings.length && !options.override?.bookAnyway) throw new BookAnywayNeededError(warnings);
  return writeMove(actor, visit, input, {
    now,
    respend: options.respend,
    override: { warnings, reason: options.override?.reason },
  });
}

/**
 * Cancels a visit: its requests go back to the member's lists, the reminder is withdrawn and
 * the calendar entry too (METHOD:CANCEL). `release` returns the reserved minutes to the bank in
 * the same transaction.
 */
export async function cancelVisit(
  actor: Actor,
  appointmentId: string,
  options: {
    now?: Date;
    release?: (tx: Tx, appointmentId: string) => Promise<void>;
    /** Why the business cancels it (a closure, staff only): said in the member's e-mail. */
    why?: string;
  } = {},
) {
  const now = options.now ?? new Date();
  const visit = await findVisit(actor, appointmentId);
  if (!visit) throw new VisitRejectedError("Visit not found.");
  guardChange(actor, visit, now, "cancel");
  const result = await db().transaction(async (tx) => {
    await lockCalendar(tx, visit.id);
    const current = await lockVisit(tx, visit.id);
    // Checked again under the lock: a visit completed meanwhile stays completed.
    guardChange(actor, { ...visit, status: current.status }, now, "cancel");
    const canceled = await changeVisitState(tx, visit.id, "canceled");
    const linked = await tx
      .select({ id: appointmentTasks.serviceRequestId })
      .from(appointmentTasks)
      .where(eq(appointmentTasks.appointmentId, visit.id));
    const ids = linked.flatMap((l) => (l.id ? [l.id] : []));
    if (ids.length) {
      await tx
        .update(serviceRequests)
        .set({ status: "reviewed" })
        .where(and(inArray(serviceRequests.id, ids), eq(serviceRequests.status, "scheduled")));
    }
    await options.release?.(tx, visit.id);
    const sequence = await withdrawFromCalendar(
      tx,
      canceled,
      actor.id,
      now,
      actor.isEmployee ? options.why : undefined,
    );
    if (!actor.isEmployee)
      await alertOfficeOfMemberChange(
        tx,
        { ...canceled, customerId: visit.customerId },
        "canceled",
      );
    return { ...canceled, sequence };
  });
  nudgeOutbox();
  return result;
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

/** The visit's tasks and handyman, for its page (call after findVisit has checked access). */
export async function visitDetails(appointmentId: string, employeeId: string | null) {
  const tasks = await db()
    .select({ description: appointmentTasks.taskDescription })
    .from(appointmentTasks)
    .where(eq(appointmentTasks.appointmentId, appointmentId));
  const [handyman] = employeeId
    ? await db()
        .select({ firstName: profiles.firstName, lastName: profiles.lastName })
        .from(profiles)
        .where(eq(profiles.userId, employeeId))
    : [];
  const [customer] = await db()
    .select({
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      coveringForId: appointments.coveringForId,
    })
    .from(appointments)
    .innerJoin(user, eq(user.id, appointments.customerId))
    .leftJoin(profiles, eq(profiles.userId, appointments.customerId))
    .where(eq(appointments.id, appointmentId));
  return {
    extra: await extraVisitCharge(db(), appointmentId),
    customerName: customer ? personName(customer) : "the member",
    tasks: tasks.map((t) => t.description),
    // "Sam Reyes, covering for Dana Whitfield" when booked with the covering handyman.
    handymanName: handyman
      ? [handyman.firstName, handyman.lastName].filter(Boolean).join(" ") +
        (customer?.coveringForId
          ? `, covering for ${await customerName(db(), customer.coveringForId)}`
          : "")
      : null,
  };
}
