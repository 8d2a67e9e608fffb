import { and, eq, sql } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { appointments, appointmentTasks, visitCalendar } from "~/db/schema";
import { DOUBLE_BOOKING_MESSAGE, isDoubleBooking, type VisitBlock } from "~/features/availability";
import {
  insideClosure,
  staffBookingWarnings,
  type Closure,
} from "~/features/availability/index.server";
import { setRequestStatus } from "~/features/service-requests/index.server";
import { minuteOfDay, timeOfDay, type IsoDate } from "~/lib/business-calendar";
import { nudgeOutbox } from "~/lib/outbox.server";
import { checkSlot } from "./create-visit.server";
import { secondAfterMove, settleSecondHandymanFee } from "./second-handyman.server";
import { BookAnywayNeededError, recordOverride, type Override } from "./overrides.server";
import {
  lockCalendar,
  scheduleReminder,
  visitStart,
  withdrawFromCalendar,
  withdrawReminder,
} from "./visit-calendar.server";
import {
  COMPLETED_NOT_MOVED_MESSAGE,
  INSIDE_CLOSURE_MESSAGE,
  SAME_HANDYMAN_TWICE_MESSAGE,
  SLOT_TAKEN_MESSAGE,
  TOO_LATE_MESSAGE,
  VisitRejectedError,
  type Actor,
} from "./visit-errors";
import { changeVisitState, lockVisit } from "./visit-lock.server";
import { alertOfficeOfMemberChange, calendarMail } from "./visit-mail.server";
import { refusalMessage, VISIT_STATUS_LABELS, type VisitStatus } from "./visit-state";

/*
 * Moving and canceling a visit (ADR 017, 046): each change is one transaction with the
 * calendar e-mail (the next SEQUENCE), the reminder and, for a member's own change, the
 * office's alert. Members change up to 24 hours before the start; staff any time.
 */

/** A member moves or cancels up to this long before the start; later, they call. */
export const MEMBER_CHANGE_CUTOFF_MS = 24 * 60 * 60_000;

/** Whether a member may still move or cancel the visit themselves. */
export function memberMayChange(start: Date, now = new Date()) {
  return start.getTime() - now.getTime() >= MEMBER_CHANGE_CUTOFF_MS;
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

/**
 * Staff move a visit to a day, start and handyman they choose (not only the offered times):
 * a closed day, time off, outside working hours or the past are warned about and need 'Book
 * anyway' (kept on the visit); a handyman's overlapping visit stays refused (ADR 016, 050).
 */
export async function staffMoveVisit(
  actor: Actor,
  appointmentId: string,
  input: {
    date: IsoDate;
    startMinute: number;
    employeeId: string | null;
    /** A two-handymen visit's second handyman there (ADR 091); unsaid, he stays. */
    secondHandymanId?: string | null;
  },
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
  // The second handyman comes along (ADR 091): his closures, hours and time off count too.
  const second = visit.secondHandymanId
    ? input.secondHandymanId === undefined
      ? visit.secondHandymanId
      : input.secondHandymanId
    : null;
  if (second && second === input.employeeId && input.secondHandymanId !== undefined)
    throw new VisitRejectedError(SAME_HANDYMAN_TWICE_MESSAGE);
  const placed = {
    date: input.date,
    employeeId: input.employeeId,
    secondHandymanId: second === input.employeeId ? null : second,
    start: input.startMinute,
    end,
  };
  if (options.closure && insideClosure(options.closure, placed))
    throw new VisitRejectedError(INSIDE_CLOSURE_MESSAGE);
  const warnings = await staffBookingWarnings(
    { ...placed, excludeAppointmentId: visit.id },
    { now },
  );
  if (warnings.length && !options.override?.bookAnyway) throw new BookAnywayNeededError(warnings);
  const move = visit.secondHandymanId ? input : { ...input, secondHandymanId: undefined };
  return writeMove(actor, visit, move, {
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
    await setRequestStatus(tx, ids, "reviewed", { from: ["scheduled"] });
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
