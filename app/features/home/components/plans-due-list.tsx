import { Link } from "react-router";
import type { PlanStatusView } from "../types";

/** The office's 'Plans due' list (ADR 087): soonest first, overdue ones at the top. */
export function PlansDueList({
  plans,
}: {
  plans: { customerId: string; name: string; address: string; status: PlanStatusView }[];
}) {
  return (
    <section aria-labelledby="plans-due-title" className="grid gap-3">
      <h2 id="plans-due-title" className="text-lg font-semibold">
        Plans due
      </h2>
      {plans.length === 0 ? (
        <p className="text-sm text-muted-foreground">Every member's plan is on time.</p>
      ) : (
        <ul className="grid gap-2">
          {plans.map((plan) => (
            <li key={plan.customerId} className="rounded-md border bg-background p-3 text-sm">
              <Link
                to={`/employee/customers/${plan.customerId}/membership#home-title`}
                className="font-medium underline"
              >
                {plan.name}
              </Link>
              <span className="text-muted-foreground"> · {plan.address}</span>
              <p className={plan.status.overdue ? "font-medium text-destructive" : undefined}>
                {plan.status.sentence.replace(/^Your plan/, "The plan")}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
