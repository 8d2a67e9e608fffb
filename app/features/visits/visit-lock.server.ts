import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { appointments } from "~/db/schema";
import { VisitRejectedError } from "./visit-errors";
import { mayTransition, refusalMessage, type VisitStatus } from "./visit-state";

/*
 * Every change of a visit's state goes through changeVisitState (ADR 046): booking
 * (visits.server.ts) and the visit's life (visit-life.server.ts) both call it, from this module
 * of their own so that neither imports the other (ADR 090).
 */

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
