import { href, Link } from "react-router";
import { formatMinutes } from "../bank";
import type { ActiveMembership } from "../counters.server";

/** On staff's customer views: the member's plan and hours, linking to their membership page. */
export function MembershipLink({
  customerId,
  membership,
  name,
}: {
  customerId: string;
  membership?: ActiveMembership | null;
  name?: string;
}) {
  const to = href("/employee/customers/:customerId/membership", {
    customerId: encodeURIComponent(customerId),
  });
  const whose = name ? ` for ${name}` : "";
  if (!membership) {
    return (
      <Link to={to} className="text-primary underline" aria-label={`Start membership${whose}`}>
        Start membership
      </Link>
    );
  }
  return (
    <Link
      to={to}
      className="text-primary underline"
      aria-label={`${membership.planName}, ${formatMinutes(membership.minutesLeft)} left: manage membership${whose}`}
    >
      {membership.planName}, {formatMinutes(membership.minutesLeft)} left
    </Link>
  );
}
