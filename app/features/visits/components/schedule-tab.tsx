import { href, Link } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import type { CustomerAppointment } from "../types";
import { longDate, minuteLabel, minuteOfDay } from "~/lib/business-calendar";

/** The customer dashboard's Schedule tab: 'Book a Visit' and each upcoming visit to move or cancel. */
export function ScheduleTab({
  appointments,
  meter,
}: {
  appointments: CustomerAppointment[];
  /** The hours bank ('12 h 15 min of 42 h left'), or null without an active membership. */
  meter: string | null;
}) {
  return (
    <div className="grid gap-4">
      {meter === null ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-muted-foreground">
            Members book visits here, at a time that suits them, from the hours of their plan.
          </p>
          <Link
            to={`${href("/dashboard")}?tab=membership`}
            className={buttonVariants({ className: "w-full sm:w-fit" })}
          >
            See the plans
          </Link>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="grid gap-1">
            <p className="text-muted-foreground">
              Book a visit for the tasks on your lists, at a time that suits you.
            </p>
            <p className="text-sm">
              Hours bank: <span data-testid="schedule-hours-meter">{meter}</span>
            </p>
          </div>
          <Link
            to={href("/dashboard/book")}
            className={buttonVariants({ className: "w-full sm:w-fit" })}
          >
            Book a Visit
          </Link>
        </div>
      )}
      {appointments.length ? (
        <ul className="grid gap-3" aria-label="Your upcoming visits">
          {appointments.map((visit) => (
            <li
              key={visit.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-card p-4"
            >
              <div>
                <p className="font-medium">{longDate(visit.scheduledDate)}</p>
                <p className="text-sm text-muted-foreground">
                  {minuteLabel(minuteOfDay(visit.startTime))} to{" "}
                  {minuteLabel(minuteOfDay(visit.endTime))}
                  {visit.tasks.length ? ` · ${visit.tasks.join(", ")}` : ""}
                </p>
              </div>
              <Link
                to={href("/dashboard/visits/:visitId", { visitId: visit.id })}
                className="text-sm underline underline-offset-4"
                aria-label={`Move or cancel the visit on ${longDate(visit.scheduledDate)}`}
              >
                Move or cancel
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="py-6 text-center text-muted-foreground">No visits booked yet.</p>
      )}
    </div>
  );
}
