import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { appointments, homes } from "~/db/schema";
import { VisitRejectedError } from "./visit-errors";
import { mayTransition, refusalMessage, type VisitStatus } from "./visit-state";

/*
 * The visit's locks. Every change of a visit's state goes through changeVisitState (ADR 046):
 * moving and canceling (change-visit.server.ts) and the visit's life (visit-life.server.ts) both
 * call it, from this module of their own so that neither imports the other (ADR 090). Every
 * booking takes its home's lock first (lockHomeForBooking, ADR 094).
 */

/**
 * The one locking rule of a booking, whoever books (the member, staff, a walk-thru): bookings
 * of a home take turns on its row, so the task rules read what the booking before wrote (issue
 * 26: five parallel posts booked one request five times, and two 3-task first visits went
 * through at once). A walk-thru for a lead without a home has nothing to take turns on.
 */
export async function lockHomeForBooking(tx: Tx, homeId: string | null) {
  if (!homeId) return;
  await tx.select({ id: homes.id }).from(homes).where(eq(homes.id, homeId)).for("update");
}

/** The appointment, locked for this transaction. */
export async function lockVisit(tx: Tx, appointmentId: string) {
  const [row] = await tx
    .select()
    .from(appointments)
    .where(eq(appointments.id, appointmentId))
    .for("update");
  return row;
}

/**
 * Moves a visit (locked by the caller or not) to `to` when the table allows it; otherwise
 * throws VisitRejectedError with the reason. Returns the updated appointment.
 */
export async function changeVisitState(tx: Tx, appointmentId: string, to: VisitStatus) {
  const visit = await lockVisit(tx, appointmentId);
  if (!visit) throw new VisitRejectedError("Visit not found.");
  if (!mayTransition(visit.status, to))
    throw new VisitRejectedError(refusalMessage(visit.status, to));
  const [changed] = await tx
    .update(appointments)
    .set({ status: to })
    .where(eq(appointments.id, appointmentId))
    .returning();
  return changed;
}
