import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { appointments, profiles } from "~/db/schema";
import { DOUBLE_BOOKING_MESSAGE, isDoubleBooking } from "~/features/availability";
import { staffBookingWarnings } from "~/features/availability/index.server";
import { chargeSecondHandyman, reverseSecondHandyman } from "~/features/memberships/index.server";
import { claimActionKey } from "~/lib/action-keys.server";
import { minuteOfDay } from "~/lib/business-calendar";
import { nudgeOutbox } from "~/lib/outbox.server";
import { SAME_HANDYMAN_TWICE_MESSAGE, VisitRejectedError, type Actor } from "./visit-errors";
import { lockVisit } from "./visit-lock.server";
import { mailVisitHandymenChanged } from "./visit-calendar.server";

/*
 * The office adds or removes a booked visit's second handyman (ADR 091): one transaction, once
 * per form key, with the fee charged or reversed and the member's e-mail (the calendar file
 * updated). His time is checked as staff's booking checks it (closed day, time off, working
 * hours); an overlapping visit is refused by the database.
 */

export type SecondHandymanChange = "added" | "removed" | "unchanged" | "already done";

export async function setSecondHandyman(
  actor: Actor,
  appointmentId: string,
  secondId: string | null,
  key: string,
  options: { now?: Date } = {},
): Promise<SecondHandymanChange> {
  if (!actor.isEmployee) throw new VisitRejectedError("Only the office can change the handymen.");
  const now = options.now ?? new Date();
  try {
    const change = await db().transaction(async (tx) => {
      if (
        !(await claimActionKey(tx, { key, actorId: actor.id, action: `second:${appointmentId}` }))
      )
        return "already done" as const;
      const visit = await lockVisit(tx, appointmentId);
      if (!visit || visit.kind !== "visit") throw new VisitRejectedError("Visit not found.");
      if (visit.status !== "booked")
        throw new VisitRejectedError("Only a booked visit's handymen can be changed.");
      if ((visit.secondHandymanId ?? null) === secondId) return "unchanged" as const;
      if (secondId) {
        if (secondId === visit.assignedEmployeeId)
          throw new VisitRejectedError(SAME_HANDYMAN_TWICE_MESSAGE);
        const [employee] = await tx
          .select({ id: profiles.userId })
          .from(profiles)
          .where(and(eq(profiles.userId, secondId), eq(profiles.isEmployee, true)));
        if (!employee) throw new VisitRejectedError("Choose a handyman.");
        const warnings = await staffBookingWarnings(
          {
            date: visit.scheduledDate,
            start: minuteOfDay(visit.startTime),
            end: minuteOfDay(visit.endTime),
            employeeId: secondId,
            excludeAppointmentId: visit.id,
          },
          { now, database: tx },
        );
        if (warnings.length) throw new VisitRejectedError(warnings.join(" "));
      }
      const [changed] = await tx
        .update(appointments)
        .set({ secondHandymanId: secondId })
        .where(eq(appointments.id, visit.id))
        .returning();
      if (secondId) await chargeSecondHandyman(tx, visit.id, actor.id);
      else await reverseSecondHandyman(tx, visit.id, actor.id, "one handyman");
      await mailVisitHandymenChanged(tx, changed);
      return secondId ? ("added" as const) : ("removed" as const);
    });
    nudgeOutbox();
    return change;
  } catch (error) {
    if (isDoubleBooking(error)) throw new VisitRejectedError(DOUBLE_BOOKING_MESSAGE);
    throw error;
  }
}
