import { Link, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { LineIcon, LineIconSprite, LineIconUse } from "~/components/ui/line-icon";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { EmployeeAppointment } from "~/features/visits/index.server";
import { VISIT_STATUS_LABELS } from "~/features/visits";
import type { IntroCallListing } from "~/features/intro-calls/index.server";
import { formatDateTime } from "../format";
import { withParams } from "./requests-panel";
import { formatPhone, phoneHref } from "~/lib/phone";
import { longDate, minuteLabel } from "~/lib/business-calendar";
import { customerName } from "~/lib/names";
import { Pager } from "~/components/ui/pager";

export function AppointmentsPanel({
  view,
  appointments,
  hasMore,
  page,
  scheduledCount,
  introCalls,
}: {
  view: "upcoming" | "past";
  appointments: EmployeeAppointment[];
  hasMore: boolean;
  page: number;
  scheduledCount: number;
  introCalls: IntroCallListing[];
}) {
  const location = useLocation();
  const upcoming = view === "upcoming";
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2 className="text-xl">Appointments Management</h2>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="text-lg font-semibold">
              {upcoming
                ? `Scheduled Appointments (${scheduledCount})`
                : `Past Appointments (page ${page})`}
            </h3>
            <Button asChild variant="outline" size="sm">
              <Link
                to={withParams(location.search, {
                  tab: "appointments",
                  appts: upcoming ? "past" : null,
                  apage: null,
                })}
                preventScrollReset
              >
                {upcoming ? "Show past appointments" : "Show scheduled appointments"}
              </Link>
            </Button>
          </div>
          <LineIconSprite names={["map-pin", "calendar", "clock", "list-checks", "user"]} />
          {appointments.length === 0 ? (
            <p className="py-8 text-center text-muted-foreground">
              {upcoming ? "No appointments scheduled" : "No past appointments"}
            </p>
          ) : (
            <ul
              className="grid gap-3 md:grid-cols-2"
              aria-label={upcoming ? "Scheduled appointments" : "Past appointments"}
            >
              {appointments.map((appointment) => (
                <li key={appointment.id}>
                  <AppointmentCard appointment={appointment} />
                </li>
              ))}
            </ul>
          )}
          <Pager
            label="Appointment pages"
            page={page}
            hasMore={hasMore}
            to={(n) => withParams(location.search, { apage: String(n), tab: "appointments" })}
            className="flex justify-between"
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2 className="text-xl">Upcoming Intro Calls ({introCalls.length})</h2>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {introCalls.length === 0 ? (
            <p className="py-6 text-center text-muted-foreground">No intro calls booked</p>
          ) : (
            <ul className="divide-y" aria-label="Upcoming intro calls">
              {introCalls.map((call) => (
                <li
                  key={call.id}
                  className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div>
                    <p className="font-medium">{formatDateTime(call.startsAt)}</p>
                    <p className="text-sm">
                      {call.name} ·{" "}
                      <a className="text-primary underline" href={`mailto:${call.email}`}>
                        {call.email}
                      </a>
                    </p>
                  </div>
                  {call.phone && (
                    <a
                      className="inline-flex items-center gap-1 text-sm text-primary underline"
                      href={phoneHref(call.phone)}
                    >
                      <LineIcon name="phone" className="size-4" />
                      {formatPhone(call.phone)}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** One short class per element (app.css `.appointment-card`): 25 cards a page. */
function AppointmentCard({ appointment }: { appointment: EmployeeAppointment }) {
  const assigned = customerName(appointment.assignedFirstName, appointment.assignedLastName);
  const tasks = appointment.taskCount;
  return (
    <article className="appointment-card" data-appointment-id={appointment.id}>
      <header>
        <h4 className="font-semibold">
          {customerName(appointment.customerFirstName, appointment.customerLastName)}
        </h4>
        <span
          className={`badge ${
            appointment.status === "completed"
              ? "border-gray-300 bg-gray-100 text-gray-900"
              : appointment.status === "no_show"
                ? "border-amber-300 bg-amber-100 text-amber-900"
                : "border-green-300 bg-green-100 text-green-900"
          }`}
          data-status={appointment.status}
        >
          {VISIT_STATUS_LABELS[appointment.status]}
        </span>
      </header>
      <p>
        <LineIconUse name="map-pin" />
        {appointment.city
          ? `${appointment.address}, ${appointment.city}, ${appointment.state}`
          : appointment.address}
      </p>
      <p>
        <LineIconUse name="calendar" />
        {longDate(appointment.scheduledDate)}
      </p>
      <p>
        <LineIconUse name="clock" />
        {minuteLabel(appointment.startTime)}
        <span className="text-muted-foreground">{`to ${minuteLabel(appointment.endTime)}`}</span>
      </p>
      <p>
        <LineIconUse name="list-checks" />
        {appointment.kind === "walk_thru"
          ? "Free walk-thru"
          : `${tasks} ${tasks === 1 ? "task" : "tasks"} planned`}
      </p>
      {appointment.assignedFirstName || appointment.assignedLastName ? (
        <p>
          <LineIconUse name="user" />
          {appointment.secondHandymanName
            ? `Handymen: ${assigned} and ${appointment.secondHandymanName}`
            : `Handyman: ${assigned}`}
        </p>
      ) : null}
    </article>
  );
}
