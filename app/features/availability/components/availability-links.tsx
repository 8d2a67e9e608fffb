import { href, Link } from "react-router";

/**
 * Staff's way to the week view per handyman and to working hours, time off and closed days. A
 * handyman (ADR 047) gets their day and their own hours: the week view and closed days are the
 * office's.
 */
export function AvailabilityLinks({ handyman = false }: { handyman?: boolean }) {
  return (
    <nav aria-label="Schedules" className="mb-3 flex flex-wrap gap-x-4 gap-y-2 text-sm">
      {handyman ? (
        <Link to={href("/employee/today")} className="underline underline-offset-4">
          Today
        </Link>
      ) : (
        <Link to={href("/employee/schedule")} className="underline underline-offset-4">
          Week view
        </Link>
      )}
      <Link to={href("/employee/availability")} className="underline underline-offset-4">
        Working hours and time off
      </Link>
      {handyman ? null : (
        <Link
          to={`${href("/employee/availability")}#closed-days`}
          className="underline underline-offset-4"
        >
          Closed days
        </Link>
      )}
    </nav>
  );
}
