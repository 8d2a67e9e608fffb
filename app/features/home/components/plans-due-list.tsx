import { Link, useLocation } from "react-router";
import { Pager } from "~/components/ui/pager";
import type { PlanStatusView } from "../types";

/** The office's 'Plans due' list (ADR 087): soonest first, overdue ones at the top. */
export function PlansDueList({
  plans,
  total,
  page,
  pageCount,
}: {
  plans: { customerId: string; name: string; address: string; status: PlanStatusView }[];
  total: number;
  page: number;
  pageCount: number;
}) {
  const location = useLocation();
  const toPage = (n: number) => {
    const params = new URLSearchParams(location.search);
    if (n > 1) params.set("ppage", String(n));
    else params.delete("ppage");
    return `?${params.toString()}`;
  };
  return (
    <section aria-labelledby="plans-due-title" className="grid gap-3">
      <h2 id="plans-due-title" className="text-lg font-semibold">
        Plans due
      </h2>
      {pageCount > 1 ? (
        <p className="text-sm text-muted-foreground">{total} members' plans are due.</p>
      ) : null}
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
      <Pager label="Plans due pages" page={page} pageCount={pageCount} to={toPage} />
    </section>
  );
}
