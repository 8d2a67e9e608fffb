import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import { db, type Database, type DbOrTx, type Tx } from "~/db/client.server";
import { appointmentTasks, homePlanTasks, membershipParts, serviceRequests } from "~/db/schema";
import type { TaskOutcome } from "~/db/visit-status";
import {
  MembershipRejectedError,
  meterTextOf,
  settleVisitMinutes,
  SHOPPING_FEE_CENTS,
  type SettledVisit,
} from "~/features/memberships/index.server";
import { setRequestStatus } from "~/features/service-requests/index.server";
import { businessToday, longDate, minuteOfDay, type IsoDate } from "~/lib/business-calendar";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue, nudgeOutbox } from "~/lib/outbox.server";
import { mayTransition, refusalMessage } from "./visit-state";
import { VisitRejectedError, type Actor } from "./visit-errors";
import { changeVisitState, lockVisit } from "./visit-lock.server";
import { mailContext } from "./visit-mail.server";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";

export { changeVisitState, lockVisit } from "./visit-lock.server";

/*
 * The visit's life on the server (ADR 046): every change of a visit's state goes through
 * changeVisitState, which locks the appointment and applies the table of visit-state.ts; the
 * trigger appointments_visit_life refuses the same changes in the database, so a forgotten
 * guard or a raw UPDATE cannot slip past. Booking (create-visit.server.ts), moving and
 * canceling (change-visit.server.ts) call it too.
 */

export const WORK_STEP_MINUTES = 15;
export const TASKS_UNMARKED_MESSAGE = "Please mark each task Done or Not done.";
export const COMPLETE_TOO_EARLY_MESSAGE = "A visit can be completed on or after its day.";
export const NOT_ITS_DAY_MESSAGE = "This can be done on the visit's day only.";
export const STAFF_ONLY_MESSAGE = "Only staff can change a visit's progress.";

/** A walk-thru (ADR 061) spends no hours: it is not finished through the member's visit form. */
export const WALK_THRU_NOT_HERE = "A walk-thru is not a member's visit: it spends no hours.";

export function workedMinutesMessage(block: number) {
  return `Time worked is in ${WORK_STEP_MINUTES}-minute steps, from ${WORK_STEP_MINUTES} minutes up to the visit's ${hoursText(block)}.`;
}

/** The database's own refusal (trigger appointments_visit_life, SQLSTATE 23514). */
export function isVisitLifeRefusal(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === "object") {
    const e = current as { code?: string; constraint?: string };
    if (e.code === "23514" && e.constraint === "appointments_visit_life") return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

async function progress(
  actor: Actor,
  appointmentId: string,
  to: "on_the_way" | "in_progress" | "no_show",
  now: Date,
) {
  if (!actor.isEmployee) throw new VisitRejectedError(STAFF_ONLY_MESSAGE);
  const today = businessToday(now);
  return db().transaction(async (tx) => {
    const visit = await lockVisit(tx, appointmentId);
    if (!visit) throw new VisitRejectedError("Visit not found.");
    if (to === "no_show" ? visit.scheduledDate > today : visit.scheduledDate !== today)
      throw new VisitRejectedError(
        to === "no_show" ? COMPLETE_TOO_EARLY_MESSAGE : NOT_ITS_DAY_MESSAGE,
      );
    const changed = await changeVisitState(tx, appointmentId, to);
    // Nobody was home: the work was not done, so its requests go back to the member's lists.
    if (to === "no_show" && visit.customerId)
      await requestsBackToLists(tx, appointmentId, visit.customerId);
    return changed;
  });
}

async function requestsBackToLists(tx: Tx, appointmentId: string, customerId: string) {
  const linked = await tx
    .select({ id: appointmentTasks.serviceRequestId })
    .from(appointmentTasks)
    .where(eq(appointmentTasks.appointmentId, appointmentId));
  const ids = linked.flatMap((l) => (l.id ? [l.id] : []));
  await setRequestStatus(tx, ids, "reviewed", { customerId, from: ["scheduled"] });
}

/** The handyman is on the way (on the visit's day). */
export function markOnTheWay(actor: Actor, appointmentId: string, options: { now?: Date } = {}) {
  return progress(actor, appointmentId, "on_the_way", options.now ?? new Date());
}

/** The work begins (on the visit's day). */
export function startVisit(actor: Actor, appointmentId: string, options: { now?: Date } = {}) {
  return progress(actor, appointmentId, "in_progress", options.now ?? new Date());
}

/** Nobody was home (on or after the visit's day). */
export function markNoShow(actor: Actor, appointmentId: string, options: { now?: Date } = {}) {
  return progress(actor, appointmentId, "no_show", options.now ?? new Date());
}

export type CompleteVisitInput = {
  minutesWorked: number;
  /** Every task of the visit, by its id: 'done' or 'not_done'. */
  outcomes: Record<string, TaskOutcome>;
};

/**
 * Finishing a visit closes its work, in one transaction: the visit becomes completed (final),
 * each task is marked Done or Not done, done tasks complete their requests (they leave the
 * member's lists for Completed) and not-done ones go back to the lists, a member's unused
 * minutes return to the bank, and the member gets one 'Visit completed' e-mail.
 */
export async function completeVisit(
  actor: Actor,
  appointmentId: string,
  input: CompleteVisitInput,
  options: { now?: Date; database?: DbOrTx; notify?: boolean } = {},
) {
  if (!actor.isEmployee) throw new VisitRejectedError(STAFF_ONLY_MESSAGE);
  const today = businessToday(options.now);
  // A savepoint when called inside a transaction (the demo seed).
  const database = (options.database ?? db()) as Database;
  const result = await database.transaction(async (tx) => {
    const visit = await lockVisit(tx, appointmentId);
    if (!visit) throw new VisitRejectedError("Visit not found.");
    const customerId = visit.customerId;
    if (visit.kind !== "visit" || !customerId) throw new VisitRejectedError(WALK_THRU_NOT_HERE);
    if (!mayTransition(visit.status, "completed"))
      throw new VisitRejectedError(refusalMessage(visit.status, "completed"));
    if (visit.scheduledDate > today) throw new VisitRejectedError(COMPLETE_TOO_EARLY_MESSAGE);
    const block = minuteOfDay(visit.endTime) - minuteOfDay(visit.startTime);
    const worked = input.minutesWorked;
    if (
      !Number.isInteger(worked) ||
      worked < WORK_STEP_MINUTES ||
      worked > block ||
      worked % WORK_STEP_MINUTES !== 0
    )
      throw new VisitRejectedError(workedMinutesMessage(block));
    const tasks = await tx
      .select()
      .from(appointmentTasks)
      .where(eq(appointmentTasks.appointmentId, appointmentId));
    if (tasks.some((t) => !input.outcomes[t.id]))
      throw new VisitRejectedError(TASKS_UNMARKED_MESSAGE);

    await changeVisitState(tx, appointmentId, "completed");
    for (const outcome of ["done", "not_done"] as const) {
      const ids = tasks.filter((t) => input.outcomes[t.id] === outcome).map((t) => t.id);
      if (ids.length)
        await tx.update(appointmentTasks).set({ outcome }).where(inArray(appointmentTasks.id, ids));
      const requestIds = tasks
        .filter((t) => input.outcomes[t.id] === outcome && t.serviceRequestId)
        .map((t) => t.serviceRequestId!);
      if (requestIds.length && outcome === "done") await recordPlanTasksDone(tx, requestIds, today);
      await setRequestStatus(tx, requestIds, outcome === "done" ? "complete" : "reviewed", {
        customerId,
        from: ["new", "reviewed", "scheduled"],
      });
    }
    let settled: SettledVisit | null;
    try {
      settled = await settleVisitMinutes(tx, appointmentId, {
        minutesWorked: worked,
        actorId: actor.id,
      });
    } catch (error) {
      if (error instanceof MembershipRejectedError) throw new VisitRejectedError(error.message);
      throw error;
    }
    const done = tasks.filter((t) => input.outcomes[t.id] === "done").map((t) => t.taskDescription);
    const notDone = tasks
      .filter((t) => input.outcomes[t.id] === "not_done")
      .map((t) => t.taskDescription);
    if (options.notify !== false)
      await mailVisitCompleted(tx, {
        ...visit,
        today,
        customerId,
        minutesWorked: worked,
        done,
        notDone,
        settled,
      });
    return {
      minutesBack: settled?.minutesBack ?? 0,
      minutesLeft: settled?.membership.minutesAvailable ?? null,
      done,
      notDone,
    };
  });
  nudgeOutbox();
  return result;
}

/**
 * The maintenance plan's tasks among the requests done on a visit (ADR 087): last done on the
 * visit's completion day, so their next due moves on. Written against the table, not the home
 * feature, which sits above this one (it opens the requests through service-requests).
 */
async function recordPlanTasksDone(tx: DbOrTx, requestIds: string[], today: IsoDate) {
  await tx
    .update(homePlanTasks)
    .set({ lastDoneOn: today })
    .where(
      inArray(
        homePlanTasks.id,
        tx
          .select({ id: serviceRequests.planTaskId })
          .from(serviceRequests)
          .where(
            and(inArray(serviceRequests.id, requestIds), isNotNull(serviceRequests.planTaskId)),
          ),
      ),
    );
}

/** A visit's tasks, in the order they were added (for the seed and the completion forms). */
export async function visitTasks(appointmentId: string, database: DbOrTx = db()) {
  return database
    .select({ id: appointmentTasks.id, description: appointmentTasks.taskDescription })
    .from(appointmentTasks)
    .where(eq(appointmentTasks.appointmentId, appointmentId));
}

const PART_WORDS: Partial<Record<typeof membershipParts.$inferSelect.status, string>> = {
  bought: "bought, on your statement",
  approved: "to be bought",
  pending_approval: "waiting for your approval",
};

/**
 * The visit's parts as the completion e-mail lists them: each with its price and where it
 * stands (declined, removed and withdrawn ones are not the visit's), and the one shopping fee.
 */
async function visitPartLines(tx: Tx, appointmentId: string) {
  const parts = await tx
    .select({
      description: membershipParts.description,
      costCents: membershipParts.costCents,
      status: membershipParts.status,
    })
    .from(membershipParts)
    .where(
      and(
        eq(membershipParts.appointmentId, appointmentId),
        inArray(membershipParts.status, ["bought", "approved", "pending_approval"]),
      ),
    )
    .orderBy(asc(membershipParts.createdAt));
  if (!parts.length) return [];
  return [
    "Parts:",
    ...parts.map(
      (p) => `- ${p.description}: ${formatCents(p.costCents)} (${PART_WORDS[p.status]})`,
    ),
    ...(parts.some((p) => p.status === "bought")
      ? [`Shopping fee for the visit's parts: ${formatCents(SHOPPING_FEE_CENTS)} (once per visit).`]
      : []),
  ];
}

/** The one 'Visit completed' e-mail: the time used, the tasks done, the parts, the hours left. */
async function mailVisitCompleted(
  tx: Tx,
  visit: {
    id: string;
    customerId: string;
    scheduledDate: string;
    minutesWorked: number;
    done: string[];
    notDone: string[];
    settled: SettledVisit | null;
    /** The business day it is completed on (the meter's "now"). */
    today: string;
  },
) {
  const place = await mailContext(tx, visit.id);
  const m = visit.settled?.membership;
  const subject = `Visit completed on ${longDate(visit.scheduledDate)}`;
  const lines = [
    `Time used: ${hoursText(visit.minutesWorked)}${visit.settled?.isExtra ? " (an extra visit, not taken from your hours)" : ""}.`,
    ...(visit.done.length ? ["Tasks done:", ...visit.done.map((t) => `- ${t}`)] : []),
    ...(visit.notDone.length
      ? ["Not done this time (back on your list):", ...visit.notDone.map((t) => `- ${t}`)]
      : []),
    ...(await visitPartLines(tx, visit.id)),
    ...(visit.settled && visit.settled.minutesBack > 0
      ? [`${hoursText(visit.settled.minutesBack)} went back to your hours.`]
      : []),
    ...(m ? [`Your hours: ${meterTextOf(m, visit.today)}.`] : []),
  ];
  const hello = `Hello${place.firstName ? ` ${place.firstName}` : ""},`;
  const url = `${env().publicUrl}/dashboard?tab=completed`;
  await enqueue(
    tx,
    "email",
    {
      to: place.email,
      subject,
      text: [
        hello,
        "",
        ...lines,
        "",
        `Your completed work: ${url}`,
        "",
        `Questions? Call us at ${business().phone}.`,
      ].join("\n"),
      html: emailLayout({
        heading: "Your visit is complete",
        paragraphs: [hello, ...lines, `Questions? Call us at ${business().phone}.`],
        action: { label: "See your completed work", url },
      }),
    },
    { recipientId: visit.customerId },
  );
}
