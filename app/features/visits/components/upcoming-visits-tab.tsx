import { href } from "react-router";
import { CalendarDays, CalendarPlus, Clock, MapPin, StickyNote, Wrench } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Avatar, AvatarFallback, AvatarImage } from "~/components/ui/avatar";
import { Button } from "~/components/ui/button";
import type { CustomerAppointment } from "../types";
import { VISIT_STATUS_LABELS } from "../visit-state";
import { longDate, minuteLabel } from "~/lib/business-calendar";
import { personName } from "~/lib/names";

/** 'Upcoming Appointments (count)': the customer's approved visits, soonest first. */
export function AppointmentsTab({
  appointments,
  meter = null,
}: {
  appointments: CustomerAppointment[];
  /** A member's hours bank ('12 h 15 min of 42 h left'); null for others. */
  meter?: string | null;
}) {
  return (
    <section aria-labelledby="appointments-title" className="grid gap-4">
      <h2 id="appointments-title" className="text-lg font-semibold">
        Upcoming Appointments ({appointments.length})
      </h2>
      {meter ? (
        <p className="text-sm">
          Hours bank: <span data-testid="appointments-hours-meter">{meter}</span>
        </p>
      ) : null}
      {appointments.length === 0 ? (
        <div className="grid justify-items-center gap-2 rounded-lg border border-dashed p-8 text-center">
          <CalendarDays aria-hidden="true" className="size-10 text-muted-foreground" />
          <p className="text-sm text-muted-foreground">No appointments scheduled</p>
        </div>
      ) : (
        <ul className="grid gap-4">
          {appointments.map((appointment) => (
            <li key={appointment.id}>
              <AppointmentCard appointment={appointment} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AppointmentCard({ appointment }: { appointment: CustomerAppointment }) {
  const headingId = `appointment-${appointment.id}-title`;
  const { home, handyman } = appointment;
  const handymanName = handyman
    ? personName(handyman.firstName, handyman.lastName) || "Your handyman"
    : null;
  return (
    <article
      aria-labelledby={headingId}
      className="grid gap-4 rounded-lg border bg-card p-4 shadow-xs sm:p-5"
      data-appointment-id={appointment.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <h3 id={headingId} className="font-semibold">
            {longDate(appointment.scheduledDate)}
          </h3>
          {appointment.kind === "walk_thru" ? (
            <p className="text-sm font-medium">Free walk-thru</p>
          ) : null}
          <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
            <Clock aria-hidden="true" className="size-4" />
            {minuteLabel(appointment.startTime)} - {minuteLabel(appointment.endTime)}
          </p>
          {appointment.status !== "booked" ? (
            <p data-status={appointment.status} className="text-sm font-medium">
              {VISIT_STATUS_LABELS[appointment.status]}
            </p>
          ) : null}
        </div>
        <CalendarExportButton appointment={appointment} />
      </div>

      <p className="flex items-start gap-1.5 text-sm">
        <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
        <span>
          {home.city
            ? `${home.address}, ${home.city}, ${home.state} ${home.zipCode}`
            : home.address}
        </span>
      </p>

      {appointment.tasks.length > 0 && (
        <div className="grid gap-1.5">
          <h4 className="flex items-center gap-1.5 text-sm font-medium">
            <Wrench aria-hidden="true" className="size-4 text-muted-foreground" />
            Planned tasks
          </h4>
          <ul className="ml-6 list-disc text-sm">
            {appointment.tasks.map((task, index) => (
              <li key={index}>{task}</li>
            ))}
          </ul>
        </div>
      )}

      {appointment.notes && (
        <div className="grid gap-1.5">
          <h4 className="flex items-center gap-1.5 text-sm font-medium">
            <StickyNote aria-hidden="true" className="size-4 text-muted-foreground" />
            Notes
          </h4>
          <p className="text-sm whitespace-pre-line text-muted-foreground">{appointment.notes}</p>
        </div>
      )}

      <div className="flex items-center gap-3 border-t pt-3">
        {handyman ? (
          <>
            <Avatar className="size-10">
              {handyman.photoUrl && (
                <AvatarImage src={handyman.photoUrl} alt={`Photo of ${handymanName}`} />
              )}
              <AvatarFallback>
                {(handyman.firstName || handymanName || "?").charAt(0).toUpperCase()}
              </AvatarFallback>
            </Avatar>
            <p className="grid text-sm">
              <span className="text-xs text-muted-foreground">
                {handyman.second ? "Your handymen" : "Your handyman"}
              </span>
              <span className="font-medium">
                {handyman.second ? `${handymanName} and ${handyman.second}` : handymanName}
              </span>
              {handyman.coveringFor ? (
                <span className="text-xs text-muted-foreground">
                  Covering for {handyman.coveringFor}
                </span>
              ) : null}
            </p>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">A handyman will be assigned soon.</p>
        )}
      </div>
    </article>
  );
}

/**
 * Downloads the appointment's .ics file (SPEC section 9). A GET form whose button the browser
 * follows without JavaScript (the file comes as an attachment, so the page stays); with it,
 * the file is fetched first so the toast only follows a real download.
 */
function CalendarExportButton({ appointment }: { appointment: CustomerAppointment }) {
  const [working, setWorking] = useState(false);
  const calendarHref = href("/dashboard/appointments/:visitId/calendar", {
    visitId: appointment.id,
  });
  const fileName = `appointment-${appointment.scheduledDate}.ics`;
  return (
    <form
      method="get"
      action={calendarHref}
      onSubmit={async (event) => {
        event.preventDefault();
        if (working) return;
        setWorking(true);
        try {
          const response = await fetch(calendarHref);
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const url = URL.createObjectURL(await response.blob());
          const link = document.createElement("a");
          link.href = url;
          link.download = fileName;
          document.body.append(link);
          link.click();
          link.remove();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
          toast.success("Calendar Event Downloaded", {
            description: "The appointment has been saved to your downloads folder.",
          });
        } catch (error) {
          console.error(error);
          toast.error("Error", { description: "Failed to download the calendar event." });
        } finally {
          setWorking(false);
        }
      }}
    >
      <Button type="submit" variant="outline" size="sm" aria-disabled={working || undefined}>
        <CalendarPlus aria-hidden="true" />
        Add to Calendar
      </Button>
    </form>
  );
}
