import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { db, type Tx } from "~/db/client.server";
import { appointments, homes, profiles, user } from "~/db/schema";
import { offerVisits } from "~/features/availability/index.server";
import { leadWalkThruBooked, leadWalkThruCanceled } from "~/features/leads/index.server";
import { alertOffice } from "~/features/notifications/index.server";
import {
  longDate,
  minuteLabel,
  minuteOfDay,
  parseIsoDate,
  timeOfDay,
  type IsoDate,
} from "~/lib/business-calendar";
import { business } from "~/lib/business.server";
import { nudgeOutbox } from "~/lib/outbox.server";
import { withoutControlCharacters } from "~/lib/validation";
import { createVisit } from "./create-visit.server";
import { SLOT_UNAVAILABLE_MESSAGE, VisitRejectedError, type Actor } from "./visit-errors";
import { changeVisitState, lockVisit } from "./visit-lock.server";
import { enqueueVisitMail, type VisitForMail } from "./visit-mail.server";
import { personName } from "~/lib/names";

/*
 * The free in-home walk-thru (ADR 061): an appointment of kind 'walk_thru', 45 minutes with a
 * handyman, offered by the same rules as any visit (working hours, time off, closed days, the
 * no-double-booking constraint), for a lead or a customer; no membership, no hours.
 */

export const WALK_THRU_MINUTES = 45;
export const WALK_THRU_TITLE = "Free walk-thru";

/** The days and starts a walk-thru can be booked on, with who is free for each. */
export async function offerWalkThrus(input: {
  customerId?: string | null;
  now?: Date;
  onlyDate?: IsoDate;
}) {
  const { days } = await offerVisits({
    customerId: input.customerId ?? null,
    block: WALK_THRU_MINUTES,
    now: input.now,
    onlyDate: input.onlyDate,
  });
  return days;
}

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be less than ${max} characters`)
    .refine(withoutControlCharacters, `${label} contains characters that are not allowed`);

/** The walk-thru booking form: the time (a day and a start), the person's name and address. */
export const walkThruSchema = z.object({
  date: z
    .string({ error: "Please choose a time" })
    .refine((v) => Boolean(parseIsoDate(v)), "Please choose a time"),
  startMinute: z.coerce
    .number({ error: "Please choose a time" })
    .int("Please choose a time")
    .min(0, "Please choose a time")
    .max(24 * 60, "Please choose a time"),
  name: text("Name", 100),
  address: text("Address", 300),
  employeeId: z
    .string()
    .max(100)
    .optional()
    .transform((v) => v || undefined),
});

export type WalkThruInput = z.output<typeof walkThruSchema>;

/** A customer's name and home address, to fill the form in. */
export async function walkThruDefaults(customerId: string) {
  const [row] = await db()
    .select({
      name: user.name,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      address: homes.address,
      city: homes.city,
      state: homes.state,
      zipCode: homes.zipCode,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .leftJoin(homes, eq(homes.customerId, user.id))
    .where(eq(user.id, customerId))
    .orderBy(asc(homes.createdAt))
    .limit(1);
  if (!row) return null;
  return {
    name: personName(row.firstName, row.lastName) || row.name,
    email: row.email,
    address: row.address ? `${row.address}, ${row.city}, ${row.state} ${row.zipCode}`.trim() : "",
  };
}

/**
 * Books a walk-thru at an offered start: with the chosen handyman (staff) or the first one free.
 * The lead reads 'Walk-thru booked'; the person gets the calendar file by e-mail; a walk-thru a
 * customer booked themselves is announced to the office. Throws VisitRejectedError with the
 * reason when the time is not (or no longer) free.
 */
export async function bookWalkThru(
  input: WalkThruInput & { leadId: string; customerId: string | null; email: string },
  actor: Actor,
  options: { now?: Date } = {},
) {
  const now = options.now ?? new Date();
  const [day] = await offerWalkThrus({
    customerId: input.customerId,
    now,
    onlyDate: input.date,
  });
  const slot = day?.slots.find((s) => s.startMinute === input.startMinute);
  const handyman = input.employeeId
    ? slot?.handymen.find((h) => h.id === input.employeeId)
    : slot?.handymen[0];
  if (!slot || !handyman) throw new VisitRejectedError(SLOT_UNAVAILABLE_MESSAGE);
  const [home] = input.customerId
    ? await db()
        .select({ id: homes.id })
        .from(homes)
        .where(eq(homes.customerId, input.customerId))
        .orderBy(asc(homes.createdAt))
        .limit(1)
    : [];
  const when = `${longDate(input.date)}, ${minuteLabel(input.startMinute)} to ${minuteLabel(input.startMinute + WALK_THRU_MINUTES)}`;
  const row = await createVisit(
    {
      customerId: input.customerId,
      homeId: home?.id ?? null,
      assignedEmployeeId: handyman.id,
      scheduledDate: input.date,
      startTime: timeOfDay(input.startMinute),
      endTime: timeOfDay(input.startMinute + WALK_THRU_MINUTES),
      tasks: [],
      walkThru: {
        leadId: input.leadId,
        contactName: input.name,
        contactEmail: input.email,
        address: input.address,
      },
    },
    {
      bookedBy: actor.isEmployee ? "staff" : "member",
      actorId: actor.id,
      time: "offered",
      now,
      confirm: async (tx, visit) => {
        await leadWalkThruBooked(tx, input.leadId);
        await mailWalkThruBooked(tx, visit, { ...input, when, handyman });
        if (!actor.isEmployee) {
          await alertOffice(tx, {
            subject: `Walk-thru booked: ${input.name}, ${when}`,
            customerName: input.name,
            lines: [
              `${input.name} booked a free walk-thru for ${when}.`,
              `Address: ${input.address}`,
              `Handyman: ${handyman.name}`,
            ],
            staffPath: `/employee/leads/${input.leadId}`,
          });
        }
      },
    },
  );
  nudgeOutbox();
  return { ...row, when, handyman };
}

/** The person's 'Your free walk-thru is booked' e-mail, with the calendar file. */
function mailWalkThruBooked(
  tx: Tx,
  visit: VisitForMail,
  booked: {
    name: string;
    email: string;
    address: string;
    customerId: string | null;
    when: string;
    handyman: { name: string };
  },
) {
  const subject = `Your free walk-thru is booked: ${booked.when}`;
  const lines = [
    `When: ${booked.when}`,
    `Where: ${booked.address}`,
    `Your handyman: ${booked.handyman.name}`,
    "No membership needed: we look at your home together and answer your questions.",
  ];
  const hello = `Hello ${booked.name},`;
  const questions = `Questions? Call us at ${business().phone}.`;
  return enqueueVisitMail(tx, {
    to: booked.email,
    recipientId: booked.customerId,
    subject,
    text: [[hello], lines, [questions]],
    paragraphs: [hello, ...lines, questions],
    calendar: {
      visit: {
        ...visit,
        address: booked.address,
        city: "",
        state: "",
        tasks: [],
        notes: `A free ${WALK_THRU_MINUTES}-minute walk-thru of your home with ${booked.handyman.name}.`,
      },
      title: WALK_THRU_TITLE,
      attendee: { name: booked.name, email: booked.email },
      sequence: 0,
      method: "REQUEST",
    },
  });
}

/** A customer's own upcoming walk-thrus (their Membership tab says when). */
export async function customerWalkThrus(customerId: string, today: IsoDate) {
  const rows = await db()
    .select({
      id: appointments.id,
      date: appointments.scheduledDate,
      startTime: appointments.startTime,
      status: appointments.status,
    })
    .from(appointments)
    .where(and(eq(appointments.customerId, customerId), eq(appointments.kind, "walk_thru")))
    .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime));
  return rows.filter((r) => r.date >= today && r.status === "booked");
}

/** The offer for the booking form: the free days, and the starts of the day asked for. */
export async function walkThruOffer(input: {
  customerId?: string | null;
  date: string | null;
  now?: Date;
  /**
   * Staff chose the handyman first: only the days and starts when that handyman is free (their
   * visits, time off and hours counted), so no time is offered that the booking would refuse.
   */
  handymanId?: string | null;
}) {
  const all = await offerWalkThrus({ customerId: input.customerId, now: input.now });
  const wanted = input.handymanId;
  const days = wanted
    ? all.flatMap((d) => {
        const slots = d.slots.flatMap((s) => {
          const handymen = s.handymen.filter((h) => h.id === wanted);
          return handymen.length ? [{ ...s, handymen }] : [];
        });
        return slots.length ? [{ ...d, slots }] : [];
      })
    : all;
  const chosen = days.find((d) => d.date === input.date) ?? null;
  return {
    days: days.map((d) => ({ date: d.date, label: d.label })),
    handymanId: wanted ?? null,
    day: chosen && {
      date: chosen.date,
      label: chosen.label,
      slots: chosen.slots.map((s) => ({
        startMinute: s.startMinute,
        label: s.label,
        handymen: s.handymen,
      })),
    },
  };
}

export const WALK_THRU_NOT_FOUND_MESSAGE = "This walk-thru is not one of this lead's.";

/**
 * Staff cancel a walk-thru of this lead (the lead page asks first): its state changes as any
 * visit's does (ADR 046: a completed one is refused), and the person is told by e-mail with the
 * calendar file's cancellation. Returns when it was.
 */
export async function cancelWalkThru(
  actor: Actor,
  input: { leadId: string; appointmentId: string },
) {
  if (!actor.isEmployee) throw new VisitRejectedError("Only staff can cancel a walk-thru here.");
  const canceled = await db().transaction(async (tx) => {
    const visit = await lockVisit(tx, input.appointmentId);
    if (!visit || visit.kind !== "walk_thru" || visit.leadId !== input.leadId)
      throw new VisitRejectedError(WALK_THRU_NOT_FOUND_MESSAGE);
    await changeVisitState(tx, visit.id, "canceled");
    await leadWalkThruCanceled(tx, input.leadId);
    const start = minuteOfDay(visit.startTime);
    const end = minuteOfDay(visit.endTime);
    const when = `${longDate(visit.scheduledDate)}, ${minuteLabel(start)} to ${minuteLabel(end)}`;
    if (visit.contactEmail) {
      const name = visit.contactName ?? "there";
      const hello = `Hello ${name},`;
      const lines = [
        `We had to cancel your free walk-thru (${when}).`,
        `To choose another time, call us at ${business().phone} or reply to this e-mail.`,
      ];
      await enqueueVisitMail(tx, {
        to: visit.contactEmail,
        recipientId: visit.customerId,
        subject: `Your free walk-thru on ${longDate(visit.scheduledDate)} is canceled`,
        text: [[hello], lines],
        paragraphs: [hello, ...lines],
        calendar: {
          visit: {
            id: visit.id,
            scheduledDate: visit.scheduledDate,
            startTime: visit.startTime,
            endTime: visit.endTime,
            address: visit.address ?? "",
            city: "",
            state: "",
            tasks: [],
            notes: null,
            status: "canceled",
          },
          title: WALK_THRU_TITLE,
          attendee: { name, email: visit.contactEmail },
          sequence: 1,
          method: "CANCEL",
        },
      });
    }
    return { when };
  });
  nudgeOutbox();
  return canceled;
}
