import type { VisitStatus } from "~/db/visit-status";
import { longDate } from "~/lib/business-calendar";
import { bothHandymen } from "~/lib/two-handymen";
import { VISIT_STATUS_LABELS } from "../visit-state";

/** One visit as its page shows it. */
export type VisitShown = {
  id: string;
  status: VisitStatus;
  date: string;
  when: string;
  block: string;
  customerName: string;
  handymanName: string | null;
  tasks: string[];
  extra: { label: string; reason: string | null } | null;
};

/**
 * The visit's card: day, time and length, who comes (and the second handyman's fee), an extra
 * visit's charge, staff's 'Book anyway' records, its state, and the tasks planned.
 */
export function VisitDetails({
  visit,
  isEmployee,
  second,
  overrides,
  hasReport,
}: {
  visit: VisitShown;
  isEmployee: boolean;
  second: { name: string; feeLine: string | null } | null;
  overrides: {
    id: string;
    staffName: string;
    action: string;
    warnings: string[];
    reason: string | null;
  }[];
  /** A completed visit's report lists the tasks with their outcomes instead. */
  hasReport: boolean;
}) {
  return (
    <section className="grid gap-2 rounded-lg border bg-card p-4" aria-label="Visit details">
      <p className="text-lg font-semibold">{longDate(visit.date)}</p>
      <p>
        {visit.when} ({visit.block})
      </p>
      {isEmployee ? <p>Customer: {visit.customerName}</p> : null}
      {visit.handymanName ? (
        <p data-testid="visit-handymen">
          {second
            ? `Handymen: ${bothHandymen(visit.handymanName, second.name)}`
            : `Handyman: ${visit.handymanName}`}
        </p>
      ) : null}
      {second?.feeLine ? (
        <p data-testid="second-handyman-fee">
          <span className="font-medium">{second.feeLine}</span>, charged to the membership.
        </p>
      ) : null}
      {visit.extra ? (
        <p data-testid="extra-visit-charge">
          <span className="font-medium">{visit.extra.label}.</span>
          {visit.extra.reason ? ` ${visit.extra.reason}` : null}
        </p>
      ) : null}
      {overrides.map((o) => (
        <p key={o.id} className="text-sm">
          {o.action === "move" ? "Moved" : "Booked"} anyway by {o.staffName}: {o.warnings.join(" ")}
          {o.reason ? ` Reason: ${o.reason}` : ""}
        </p>
      ))}
      {visit.status === "canceled" ? (
        <p className="font-medium">This visit is canceled.</p>
      ) : visit.status === "completed" ? (
        <p className="font-medium">
          This visit is completed. A completed visit cannot be moved or canceled.
        </p>
      ) : visit.status !== "booked" ? (
        <p className="font-medium">Status: {VISIT_STATUS_LABELS[visit.status]}</p>
      ) : null}
      {visit.tasks.length && !hasReport ? (
        <ul className="list-disc pl-5">
          {visit.tasks.map((task, i) => (
            <li key={i}>{task}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
