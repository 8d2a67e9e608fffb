import { href, Link } from "react-router";
import { hoursLeftText } from "~/lib/hours";
import type { ActiveMembership } from "../counters.server";
import { formatCents } from "~/lib/money";

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
  const open =
    membership && membership.balanceCents !== 0
      ? membership.balanceCents > 0
        ? `owes ${formatCents(membership.balanceCents)}`
        : `credit ${formatCents(-membership.balanceCents)}`
      : null;
  if (!membership || (membership.status !== "active" && !open)) {
    return (
      <Link to={to} className="text-primary underline" aria-label={`Start membership${whose}`}>
        Start membership
      </Link>
    );
  }
  const label =
    membership.status === "active"
      ? `${membership.planName}, ${hoursLeftText(membership.minutesLeft)}${open ? `, ${open}` : ""}`
      : `${membership.planName}, canceled, ${open}`;
  return (
    <Link
      to={to}
      className="text-primary underline"
      aria-label={`${label}: manage membership${whose}`}
      data-testid="membership-balance"
    >
      {label}
    </Link>
  );
}
