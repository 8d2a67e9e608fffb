import { href, Link } from "react-router";

/** Staff's way to the week view per handyman and to working hours, time off and closed days. */
export function AvailabilityLinks() {
  return (
    <nav aria-label="Schedules" className="mb-3 flex flex-wrap gap-x-4 gap-y-2 text-sm">
      <Link to={href("/employee/schedule")} className="underline underline-offset-4">
        Week view
      </Link>
      <Link to={href("/employee/availability")} className="underline underline-offset-4">
        Working hours and time off
      </Link>
      <Link
        to={`${href("/employee/availability")}#closed-days`}
        className="underline underline-offset-4"
      >
        Closed days
      </Link>
    </nav>
  );
}
