import { and, asc, eq, gte, inArray, lte, ne, notInArray, sql } from "drizzle-orm";
import { db, type Database } from "~/db/client.server";
import {
  appointments,
  appointmentTasks,
  homes,
  membershipParts,
  profiles,
  prospects,
  requestPhotos,
  serviceRequests,
  user,
} from "~/db/schema";
import type { TaskOutcome } from "~/db/visit-status";
import { addPart, formatCents, MembershipRejectedError } from "~/features/memberships/index.server";
import {
  alertOffice,
  customerName,
  onMyWayText,
  textCustomer,
  wantsEmail,
} from "~/features/notifications/index.server";
import { claimActionKey, isActionKeyClaimed } from "~/lib/action-keys.server";
import { formatPhone } from "~/lib/phone";
import {
  addDays,
  businessToday,
  longDate,
  minuteLabel,
  minuteOfDay,
  type IsoDate,
} from "~/lib/business-calendar";
import { business } from "~/lib/business.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue, nudgeOutbox } from "~/lib/outbox.server";
import { changeVisitState, completeVisit, lockVisit, WORK_STEP_MINUTES } from "./visit-life.server";
import type { VisitStatus } from "./visit-state";
import { VisitRejectedError } from "./visits.server";
import { handymanOnVisit, otherHandymanName } from "./second-handyman.server";

/*
 * 'Today' (issue 26 items 9-10, ADR 047-049): the handyman's visits for a day or a week, with
 * everything needed at the door, and the actions taken from a phone. Every action takes the
 * handyman's id and touches only a visit assigned to them; each carries an idempotency key
 * claimed in the action's own transaction, so a form sent twice is applied once.
 */

export type TodayView = "today" | "tomorrow" | "week";
export const TODAY_VIEWS: readonly TodayView[] = ["today", "tomorrow", "week"];

export const NOT_YOUR_VISIT_MESSAGE = "This visit is not on your schedule.";
export const CONFIRM_WORKED_MESSAGE = "Please confirm the time worked.";
export const ALREADY_DONE_MESSAGE = "Already done: this was sent twice and applied once.";

export function isTodayView(value: unknown): value is TodayView {
  return (TODAY_VIEWS as readonly unknown[]).includes(value);
}

/** The days a view covers, from the business day `today`. */
export function viewDays(view: TodayView, today: IsoDate): { from: IsoDate; to: IsoDate } {
  if (view === "tomorrow") return { from: addDays(today, 1), to: addDays(today, 1) };
  if (view === "week") return { from: today, to: addDays(today, 6) };
  return { from: today, to: today };
}

export type TodayTask = {
  id: string;
  description: string;
  requestId: string | null;
  notes: string | null;
  staffNotes: string | null;
  outcome: TaskOutcome | null;
  /** `taken`: the handyman's before or after photo on this visit; null: the member's own. */
  photos: { id: string; name: string; taken: "before" | "after" | null }[];
};

export type TodayPart = {
  id: string;
  description: string;
  costCents: number;
  status: string;
  /** A receipt photo at /part-receipts/:id. */
  hasReceipt: boolean;
};

export type TodayVisit = {
  id: string;
  date: IsoDate;
  dateLabel: string;
  startLabel: string;
  endLabel: string;
  block: number;
  status: VisitStatus;
  /** A walk-thru (ADR 061) is for a lead or customer, in the home, without tasks or hours. */
  isWalkThru: boolean;
  startedAt: string | null;
  customerName: string;
  phone: string | null;
  address: string;
  propertyNotes: string | null;
  /** The member's home, whose record (ADR 087) the handyman sees on the visit's day. */
  homeId: string | null;
  visitNotes: string | null;
  /** Booked with him while the member's dedicated handyman is away (ADR 088). */
  coveringFor: string | null;
  /** The other handyman of a two-handymen visit (ADR 091). */
  withHandyman: string | null;
  tasks: TodayTask[];
  parts: TodayPart[];
};

/**
 * A handyman's visits in the view's days, in order, with the customer's details, the tasks (with
 * their notes and photos) and the parts to buy. Four reads whatever the number of visits.
 */
export async function handymanVisits(
  handymanId: string,
  view: TodayView,
  today: IsoDate = businessToday(),
): Promise<TodayVisit[]> {
  const { from, to } = viewDays(view, today);
  const rows = await db()
    .select({
      id: appointments.id,
      date: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      status: appointments.status,
      startedAt: appointments.startedAt,
      notes: appointments.notes,
      kind: appointments.kind,
      contactName: appointments.contactName,
      contactEmail: appointments.contactEmail,
      walkThruAddress: appointments.address,
      leadPhone: prospects.phone,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      mobilePhone: profiles.mobilePhone,
      address: homes.address,
      city: homes.city,
      state: homes.state,
      zipCode: homes.zipCode,
      propertyNotes: homes.propertyNotes,
      homeId: appointments.homeId,
      coveringFor: sql<
        string | null
      >`(select nullif(btrim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')), '') from profiles c where c.user_id = ${appointments.coveringForId})`,
      withHandyman: otherHandymanName(handymanId),
    })
    .from(appointments)
    // A walk-thru for a lead has no account or home yet: its person and address are its own.
    .leftJoin(homes, eq(homes.id, appointments.homeId))
    .leftJoin(user, eq(user.id, appointments.customerId))
    .leftJoin(profiles, eq(profiles.userId, appointments.customerId))
    .leftJoin(prospects, eq(prospects.id, appointments.leadId))
    .where(
      and(
        handymanOnVisit(handymanId),
        gte(appointments.scheduledDate, from),
        lte(appointments.scheduledDate, to),
        ne(appointments.status, "canceled"),
      ),
    )
    .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [tasks, parts] = await Promise.all([
    db()
      .select({
        id: appointmentTasks.id,
        appointmentId: appointmentTasks.appointmentId,
        description: appointmentTasks.taskDescription,
        requestId: appointmentTasks.serviceRequestId,
        outcome: appointmentTasks.outcome,
        notes: serviceRequests.description,
        staffNotes: serviceRequests.employeeNotes,
      })
      .from(appointmentTasks)
      .leftJoin(serviceRequests, eq(serviceRequests.id, appointmentTasks.serviceRequestId))
      .where(inArray(appointmentTasks.appointmentId, ids))
      .orderBy(asc(appointmentTasks.id)),
    db()
      .select({
        id: membershipParts.id,
        appointmentId: membershipParts.appointmentId,
        description: membershipParts.description,
        costCents: membershipParts.costCents,
        status: membershipParts.status,
        receiptPath: membershipParts.receiptPath,
      })
      .from(membershipParts)
      .where(
        and(
          inArray(membershipParts.appointmentId, ids),
          // A part removed by the office or withdrawn at a cancel is no longer the handyman's.
          notInArray(membershipParts.status, ["removed", "withdrawn"]),
        ),
      )
      .orderBy(asc(membershipParts.createdAt)),
  ]);
  const requestIds = tasks.flatMap((t) => (t.requestId ? [t.requestId] : []));
  const photos = requestIds.length
    ? await db()
        .select({
          id: requestPhotos.id,
          requestId: requestPhotos.requestId,
          name: requestPhotos.fileName,
          afterVisitId: requestPhotos.afterVisitId,
          beforeVisitId: requestPhotos.beforeVisitId,
        })
        .from(requestPhotos)
        .where(inArray(requestPhotos.requestId, requestIds))
        .orderBy(asc(requestPhotos.uploadedAt))
    : [];
  return rows.map((r) => {
    const start = minuteOfDay(r.startTime);
    const end = minuteOfDay(r.endTime);
    return {
      id: r.id,
      date: r.date,
      dateLabel: longDate(r.date),
      startLabel: minuteLabel(start),
      endLabel: minuteLabel(end),
      block: end - start,
      status: r.status,
      isWalkThru: r.kind === "walk_thru",
      startedAt: r.startedAt?.toISOString() ?? null,
      customerName:
        [r.firstName, r.lastName].filter(Boolean).join(" ") ||
        r.email ||
        r.contactName ||
        r.contactEmail ||
        "",
      phone: formatPhone(r.mobilePhone ?? r.leadPhone),
      address: r.address
        ? `${r.address}, ${r.city}, ${r.state} ${r.zipCode}`
        : (r.walkThruAddress ?? ""),
      propertyNotes: r.propertyNotes,
      homeId: r.kind === "visit" ? r.homeId : null,
      visitNotes: r.notes,
      coveringFor: r.coveringFor,
      withHandyman: r.withHandyman,
      tasks: tasks
        .filter((t) => t.appointmentId === r.id)
        .map((t) => ({
          id: t.id,
          description: t.description,
          requestId: t.requestId,
          notes: t.notes,
          staffNotes: t.staffNotes,
          outcome: t.outcome,
          photos: photos
            .filter((p) => p.requestId === t.requestId)
            .map((p) => ({
              id: p.id,
              name: p.name,
              taken:
                p.afterVisitId === r.id
                  ? ("after" as const)
                  : p.beforeVisitId === r.id
                    ? ("before" as const)
                    : null,
            })),
        })),
      parts: parts
        .filter((p) => p.appointmentId === r.id)
        .map((p) => ({
          id: p.id,
          description: p.description,
          costCents: p.costCents,
          status: p.status,
          hasReceipt: p.receiptPath !== null,
        })),
    };
  });
}

/**
 * The time worked 'Finish visit' offers: from 'Start visit' to now, rounded to the bank's
 * 15-minute steps, at least one step and at most the visit's block. Without a start, the block.
 */
export function suggestedMinutes(startedAt: string | null, block: number, now = new Date()) {
  if (!startedAt) return block;
  const elapsed = (now.getTime() - new Date(startedAt).getTime()) / 60_000;
  const rounded = Math.round(elapsed / WORK_STEP_MINUTES) * WORK_STEP_MINUTES;
  return Math.min(block, Math.max(WORK_STEP_MINUTES, rounded));
}

type Handyman = { id: string };

/** The visit, locked, when it is this handyman's; otherwise refused. */
async function lockOwnVisit(tx: Parameters<typeof lockVisit>[0], handyman: Handyman, id: string) {
  const visit = await lockVisit(tx, id);
  if (
    !visit ||
    (visit.assignedEmployeeId !== handyman.id && visit.secondHandymanId !== handyman.id)
  )
    throw new VisitRejectedError(NOT_YOUR_VISIT_MESSAGE);
  return visit;
}

/** Whether `appointmentId` is a visit of this handyman's (for the photo upload's check). */
export async function isOwnVisit(handymanId: string, appointmentId: string) {
  const [row] = await db()
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.id, appointmentId), handymanOnVisit(handymanId)));
  return Boolean(row);
}

export type ActionResult = { applied: boolean };

/**
 * 'On my way' and 'Start visit', on the visit's day: the state changes (visit-life's table and
 * trigger), 'On my way' tells the member (an e-mail and, when they take texts, a text), 'Start
 * visit' records the start for 'Finish visit'. Applied once per key.
 */
export async function progressOwnVisit(
  handyman: Handyman,
  input: { appointmentId: string; to: "on_the_way" | "in_progress"; key: string },
  options: { now?: Date } = {},
): Promise<ActionResult> {
  const now = options.now ?? new Date();
  const applied = await db().transaction(async (tx) => {
    const visit = await lockOwnVisit(tx, handyman, input.appointmentId);
    const fresh = await claimActionKey(tx, {
      key: input.key,
      actorId: handyman.id,
      action: `${input.to}:${input.appointmentId}`,
    });
    if (!fresh) return false;
    if (visit.scheduledDate !== businessToday(now))
      throw new VisitRejectedError("This can be done on the visit's day only.");
    await changeVisitState(tx, visit.id, input.to);
    if (input.to === "in_progress")
      await tx.update(appointments).set({ startedAt: now }).where(eq(appointments.id, visit.id));
    // A walk-thru for a lead has no account to tell (ADR 061).
    else if (visit.customerId)
      await tellMemberOnMyWay(tx, { ...visit, customerId: visit.customerId });
    return true;
  });
  if (applied && input.to === "on_the_way") nudgeOutbox();
  return { applied };
}

async function tellMemberOnMyWay(
  tx: Parameters<typeof lockVisit>[0],
  visit: { id: string; customerId: string; assignedEmployeeId: string | null },
) {
  const [member] = await tx
    .select({ email: user.email, firstName: profiles.firstName })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, visit.customerId));
  const handymanName = visit.assignedEmployeeId
    ? await customerName(tx, visit.assignedEmployeeId)
    : null;
  const who = handymanName ? `${handymanName} from ${business().name}` : `Your handyman`;
  const subject = `${who} is on the way`;
  const line = `${who} is on the way to your home now.`;
  await textCustomer(tx, {
    recipientId: visit.customerId,
    kind: "on-my-way",
    body: onMyWayText(handymanName),
    fallbackSubject: subject,
  });
  if (!(await wantsEmail(tx, visit.customerId, "on-my-way"))) return;
  const hello = `Hello${member?.firstName ? ` ${member.firstName}` : ""},`;
  const call = `Questions? Call us at ${business().phone}.`;
  await enqueue(
    tx,
    "email",
    {
      to: member.email,
      subject,
      text: [hello, "", line, "", call].join("\n"),
      html: emailLayout({ heading: subject, paragraphs: [hello, line, call] }),
    },
    { recipientId: visit.customerId },
  );
}

/** 'Finish visit' from 'Today': completeVisit (visit-life) on one of the handyman's visits, once. */
export async function finishOwnVisit(
  handyman: Handyman,
  input: {
    appointmentId: string;
    minutesWorked: number;
    outcomes: Record<string, TaskOutcome>;
    key: string;
    /** The handyman confirmed the time worked: an untouched default is never taken as said. */
    confirmed: boolean;
  },
  options: { now?: Date } = {},
) {
  if (!input.confirmed) throw new VisitRejectedError(CONFIRM_WORKED_MESSAGE);
  const result = await db().transaction(async (tx) => {
    await lockOwnVisit(tx, handyman, input.appointmentId);
    const fresh = await claimActionKey(tx, {
      key: input.key,
      actorId: handyman.id,
      action: `complete:${input.appointmentId}`,
    });
    if (!fresh) return { applied: false as const };
    const completed = await completeVisit(
      { id: handyman.id, isEmployee: true },
      input.appointmentId,
      { minutesWorked: input.minutesWorked, outcomes: input.outcomes },
      { now: options.now, database: tx as unknown as Database },
    );
    return { applied: true as const, ...completed };
  });
  // The 'Visit completed' e-mail is committed now.
  nudgeOutbox();
  return result;
}

/**
 * 'Add part' from 'Today': the memberships feature records it (over $100 it waits for the
 * member's approval, as for the office). Once per key.
 */
export async function addPartToOwnVisit(
  handyman: Handyman,
  input: {
    appointmentId: string;
    description: string;
    costCents: number;
    key: string;
    /** The receipt's photo, stored by the photo pipeline; the caller removes it if not applied. */
    receipt?: { filePath: string; thumbnailPath: string } | null;
  },
) {
  try {
    return await db().transaction(async (tx) => {
      const visit = await lockOwnVisit(tx, handyman, input.appointmentId);
      const fresh = await claimActionKey(tx, {
        key: input.key,
        actorId: handyman.id,
        action: `part:${input.appointmentId}`,
      });
      if (!fresh) return { applied: false as const, part: null };
      const part = await addPart(
        {
          appointmentId: input.appointmentId,
          description: input.description,
          costCents: input.costCents,
          receipt: input.receipt,
        },
        handyman.id,
        tx,
      );
      if (visit.customerId)
        await alertOfficeOfPart(tx, handyman, { ...visit, customerId: visit.customerId }, part);
      return { applied: true as const, part };
    });
  } catch (error) {
    if (error instanceof MembershipRejectedError) throw new VisitRejectedError(error.message);
    throw error;
  } finally {
    nudgeOutbox();
  }
}

/**
 * The office hears of every part a handyman adds (an e-mail, and a text to OFFICE_MOBILE): what
 * it costs, for whose visit, and what happens to it (charged with its receipt, waiting for the
 * member's approval, or to be marked bought).
 */
async function alertOfficeOfPart(
  tx: Parameters<typeof lockVisit>[0],
  handyman: Handyman,
  visit: { customerId: string; scheduledDate: string },
  part: Awaited<ReturnType<typeof addPart>>,
) {
  const [handymanName, name] = await Promise.all([
    customerName(tx, handyman.id),
    customerName(tx, visit.customerId),
  ]);
  const price = formatCents(part.costCents);
  const what =
    part.status === "bought"
      ? "It was bought with its receipt photo: charged now, with the visit's $10 shopping fee once."
      : part.status === "pending_approval"
        ? "It costs over $100: it waits for the member's approval (the member was e-mailed)."
        : "No receipt photo yet: press 'Mark Bought' once it is bought.";
  await alertOffice(tx, {
    subject: `Part added for ${name}: ${part.description} (${price})`,
    customerName: name,
    lines: [
      `${handymanName} added a part for ${name}'s visit on ${longDate(visit.scheduledDate)}: ${part.description}, ${price}.`,
      what,
      "If it is wrong, 'Correct part' or 'Remove part' on the membership page.",
    ],
    staffPath: `/employee/customers/${visit.customerId}/membership`,
  });
}

/** The request of a task on one of the handyman's visits (where 'Add photo' stores the photo). */
export async function ownTaskRequest(handymanId: string, appointmentId: string, taskId: string) {
  const [row] = await db()
    .select({ requestId: appointmentTasks.serviceRequestId, customerId: appointments.customerId })
    .from(appointmentTasks)
    .innerJoin(appointments, eq(appointments.id, appointmentTasks.appointmentId))
    .where(
      and(
        eq(appointmentTasks.id, taskId),
        eq(appointmentTasks.appointmentId, appointmentId),
        handymanOnVisit(handymanId),
      ),
    );
  // A task's request is always a member's: a walk-thru (no customer) has none.
  return row?.requestId && row.customerId
    ? { requestId: row.requestId, customerId: row.customerId }
    : null;
}

/** Whether the form with this key was already applied ('Add photo' checks before storing). */
export function wasApplied(key: string) {
  return isActionKeyClaimed(db(), key);
}

/** Claims an 'Add photo' form's key once its photo is stored: false when it lost a race. */
export function claimPhotoKey(handymanId: string, key: string) {
  return claimActionKey(db(), { key, actorId: handymanId, action: "photo" });
}
