import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { appointments, appointmentTasks, profiles, user } from "~/db/schema";
import { extraVisitCharge } from "~/features/memberships/index.server";
import { readPersonName } from "~/features/notifications/index.server";
import { openRequestsOf } from "~/features/service-requests/index.server";
import { personName } from "~/lib/names";

/*
 * A member's visits (ADR 017, 094), by job: booking in create-visit.server.ts (createVisit, for
 * every visit), moving and canceling in change-visit.server.ts, the e-mails in
 * visit-mail.server.ts, the calendar's SEQUENCE and reminders in visit-calendar.server.ts, the
 * refusals in visit-errors.ts. This module reads a visit for its page, and names them all for
 * the routes.
 */

export {
  COMPLETED_NOT_MOVED_MESSAGE,
  INSIDE_CLOSURE_MESSAGE,
  REQUEST_BOOKED_MESSAGE,
  SLOT_TAKEN_MESSAGE,
  SLOT_UNAVAILABLE_MESSAGE,
  TOO_LATE_MESSAGE,
  VisitRejectedError,
  type Actor,
} from "./visit-errors";
export {
  bookVisit,
  createVisit,
  FIRST_VISIT_TASK_LIMIT,
  isFirstVisit,
  isRequestOnAnotherVisit,
  type BookVisitInput,
} from "./create-visit.server";
export {
  cancelVisit,
  findVisit,
  MEMBER_CHANGE_CUTOFF_MS,
  memberMayChange,
  moveVisit,
  staffMoveVisit,
} from "./change-visit.server";
export {
  REMINDER_LEAD_MS,
  startVisitCalendar,
  visitStart,
  withdrawFromCalendar,
} from "./visit-calendar.server";
export { mailContext, mailVisitBooked, textWhen } from "./visit-mail.server";

/** The member's open requests (Next and Later lists) that can become a visit's tasks. */
export function bookableRequests(customerId: string) {
  return openRequestsOf(customerId);
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
    customerName: customer
      ? personName(customer.firstName, customer.lastName) || customer.email
      : "the member",
    tasks: tasks.map((t) => t.description),
    // "Sam Reyes, covering for Dana Whitfield" when booked with the covering handyman.
    handymanName: handyman
      ? personName(handyman.firstName, handyman.lastName) +
        (customer?.coveringForId
          ? `, covering for ${await readPersonName(db(), customer.coveringForId)}`
          : "")
      : null,
  };
}
