import { and, eq } from "drizzle-orm";
import { db, type Database } from "~/db/client.server";
import { appointments, appointmentTasks, profiles, user } from "~/db/schema";
import type { TaskOutcome } from "~/db/visit-status";
import { addPart, MembershipRejectedError } from "~/features/memberships/index.server";
import {
  alertOffice,
  readPersonName,
  onMyWayText,
  textCustomer,
  wantsEmail,
} from "~/features/notifications/index.server";
import { claimActionKey, isActionKeyClaimed } from "~/lib/action-keys.server";
import { businessToday, longDate } from "~/lib/business-calendar";
import { business } from "~/lib/business.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue, nudgeOutbox } from "~/lib/outbox.server";
import { formatCents } from "~/lib/money";
import { changeVisitState, completeVisit, lockVisit } from "./visit-life.server";
import { VisitRejectedError } from "./visit-errors";
import { handymanOnVisit, onMyWayNames } from "./second-handyman.server";

export {
  handymanVisits,
  isTodayView,
  suggestedMinutes,
  TODAY_VIEWS,
  viewDays,
  type TodayPart,
  type TodayTask,
  type TodayView,
  type TodayVisit,
} from "./today-schedule.server";

/*
 * 'Today' (issue 26 items 9-10, ADR 047-049): the handyman's visits for a day or a week, with
 * everything needed at the door, and the actions taken from a phone. Every action takes the
 * handyman's id and touches only a visit assigned to them; each carries an idempotency key
 * claimed in the action's own transaction, so a form sent twice is applied once.
 */

export const NOT_YOUR_VISIT_MESSAGE = "This visit is not on your schedule.";
export const CONFIRM_WORKED_MESSAGE = "Please confirm the time worked.";
export const ALREADY_DONE_MESSAGE = "Already done: this was sent twice and applied once.";

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
  // Both handymen of a two-handymen visit, whichever of them pressed it (ADR 091, 099).
  const handymen = await onMyWayNames(tx, visit.id);
  const who = handymen ? `${handymen.names} from ${business().name}` : `Your handyman`;
  const are = handymen?.two ? "are" : "is";
  const subject = `${who} ${are} on the way`;
  const line = `${who} ${are} on the way to your home now.`;
  await textCustomer(tx, {
    recipientId: visit.customerId,
    kind: "on-my-way",
    body: onMyWayText(handymen?.names ?? null, handymen?.two),
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
    readPersonName(tx, handyman.id),
    readPersonName(tx, visit.customerId),
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
