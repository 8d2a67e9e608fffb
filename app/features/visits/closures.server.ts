import {
  insideClosure,
  staffBookingWarnings,
  visitsInClosure,
  type Closure,
  type StrandedVisit,
} from "~/features/availability/index.server";
import type { IsoDate } from "~/lib/business-calendar";
import { cancelMemberVisit, staffMoveMemberVisit } from "./member-visits.server";
import type { Override } from "./overrides.server";
import { INSIDE_CLOSURE_MESSAGE, VisitRejectedError, type Actor } from "./visit-errors";

/*
 * A closure never strands a visit (issue 26, item 4; ADR 050): the visits inside it are moved
 * (to another handyman free then, or to times staff choose) or canceled with an e-mail that
 * asks the member to choose another time, each through the visit's own module; only then is
 * the closure saved, and saving checks again.
 */

export type MoveTarget = {
  date: IsoDate;
  startMinute: number;
  employeeId: string | null;
  /** A two-handymen visit's second handyman there (ADR 091); unsaid, he stays. */
  secondHandymanId?: string | null;
};

/** Staff chose times with warnings and have not chosen 'Book anyway': nothing was changed. */
export class ClosureWarningsError extends Error {
  constructor(readonly warnings: Record<string, string[]>) {
    super("Please check the new times before moving the visits.");
    this.name = "ClosureWarningsError";
  }
}

export const CHOOSE_EACH_TIME_MESSAGE = "Please choose a new day and start time for each visit.";

/** The visits the closure would strand (staff only). */
export function strandedVisits(actor: Actor, closure: Closure, options: { now?: Date } = {}) {
  if (!actor.isEmployee) throw new VisitRejectedError("Only staff can close time.");
  return visitsInClosure(closure, options);
}

/**
 * Cancels every visit inside the closure: the member's minutes return to the bank and their
 * one cancellation e-mail says why and links to choosing another time.
 */
export async function cancelStrandedVisits(
  actor: Actor,
  closure: Closure,
  why: string,
  options: { now?: Date } = {},
) {
  const visits = await strandedVisits(actor, closure, options);
  for (const visit of visits) await cancelMemberVisit(actor, visit.id, { ...options, why });
  return visits.length;
}

/**
 * Moves every visit inside the closure to the time staff chose for it. Every target is checked
 * first: none may be inside the closure; warnings (a closed day, time off, outside hours, the
 * past) need 'Book anyway' for all of them. Then each moves in its own transaction.
 */
export async function moveStrandedVisits(
  actor: Actor,
  closure: Closure,
  targets: Record<string, MoveTarget | undefined>,
  override: Override,
  options: { now?: Date } = {},
) {
  const visits = await strandedVisits(actor, closure, options);
  const warnings: Record<string, string[]> = {};
  for (const visit of visits) {
    const target = targets[visit.id];
    if (!target) throw new VisitRejectedError(CHOOSE_EACH_TIME_MESSAGE);
    const end = target.startMinute + (visit.end - visit.start);
    const placed = {
      date: target.date,
      employeeId: target.employeeId,
      secondHandymanId: secondAt(visit, target),
      start: target.startMinute,
      end,
    };
    if (insideClosure(closure, placed))
      throw new VisitRejectedError(`${visit.customerName}: ${INSIDE_CLOSURE_MESSAGE}`);
    const found = await staffBookingWarnings(
      { ...placed, excludeAppointmentId: visit.id },
      options,
    );
    if (found.length) warnings[visit.id] = found;
  }
  if (Object.keys(warnings).length && !override.bookAnyway)
    throw new ClosureWarningsError(warnings);
  for (const visit of visits)
    await staffMoveMemberVisit(actor, visit.id, targets[visit.id]!, {
      ...options,
      override,
      closure,
    });
  return visits.length;
}

/** The second handyman a stranded visit keeps at its target (ADR 091): never the first one. */
function secondAt(visit: StrandedVisit, target: MoveTarget) {
  if (!visit.secondHandymanId) return null;
  const second =
    target.secondHandymanId === undefined ? visit.secondHandymanId : target.secondHandymanId;
  return second === target.employeeId ? null : second;
}
