import { statusLabel } from "~/features/service-requests";

/*
 * Employee-side badge colours (SPEC section 4): status new yellow, reviewed blue, scheduled
 * green, complete grey; priority urgent red, high orange, medium yellow, low green. Our
 * customers choose next or later, which get their own colours. Every pair is at least 4.5:1,
 * and the label is always written out, so colour is never the only signal.
 */
const STATUS_CLASSES: Record<string, string> = {
  new: "border-yellow-300 bg-yellow-100 text-yellow-900",
  reviewed: "border-blue-300 bg-blue-100 text-blue-900",
  scheduled: "border-green-300 bg-green-100 text-green-900",
  complete: "border-gray-300 bg-gray-100 text-gray-800",
};

const PRIORITY_CLASSES: Record<string, string> = {
  urgent: "border-red-300 bg-red-100 text-red-900",
  high: "border-orange-300 bg-orange-100 text-orange-900",
  medium: "border-yellow-300 bg-yellow-100 text-yellow-900",
  low: "border-green-300 bg-green-100 text-green-900",
  next: "border-violet-300 bg-violet-100 text-violet-900",
  later: "border-sky-300 bg-sky-100 text-sky-900",
};

const FALLBACK = "border-gray-300 bg-gray-100 text-gray-800";

/** A row of the table has two badges: the .badge class and three colours, nothing merged per render. */
function badgeClass(colours: string, className?: string) {
  return className ? `badge ${colours} ${className}` : `badge ${colours}`;
}

export function StatusBadge({ status, className }: { status: string; className?: string }) {
  return (
    <span
      data-status={status}
      className={badgeClass(STATUS_CLASSES[status] ?? FALLBACK, className)}
    >
      {statusLabel(status)}
    </span>
  );
}

export function PriorityBadge({ priority, className }: { priority: string; className?: string }) {
  return (
    <span
      data-priority={priority}
      className={badgeClass(PRIORITY_CLASSES[priority] ?? FALLBACK, className)}
    >
      <span className="sr-only">Priority: </span>
      {statusLabel(priority)}
    </span>
  );
}
