import type { Route } from "./+types/dashboard.appointments.$visitId.calendar";
import { findCustomerAppointmentForCalendar } from "~/features/visits/visit-lists.server";
import { appointmentIcs, appointmentIcsFileName } from "~/features/visits/ics.server";
import { UUID_PATTERN } from "~/lib/uuid";
import { business } from "~/lib/business.server";
import { requireCustomerForAction } from "~/lib/session.server";
import { personName } from "~/lib/names";

/** The .ics file of one of the customer's appointments (SPEC section 9 "Calendar export"). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCustomerForAction(request);
  const appointment = UUID_PATTERN.test(params.visitId)
    ? await findCustomerAppointmentForCalendar(user.id, params.visitId)
    : null;
  if (!appointment) return new Response("Not found", { status: 404 });
  // The same event as the e-mailed invitation (UID, organizer, attendee), so importing it
  // and receiving a later move or cancel leave one event, not two.
  const ics = appointmentIcs(appointment, {
    productId: business().name,
    organizer: { name: business().name, email: business().email },
    attendee: {
      name: personName(user.firstName, user.lastName) || user.email,
      email: user.email,
    },
  });
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${appointmentIcsFileName(appointment.scheduledDate)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
