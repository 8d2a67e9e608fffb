import { statusLabel } from "../schema";

/*
 * Customer-side status colours (docs/design.md decision 1): new blue, reviewed purple, scheduled
 * green, complete grey; the spec's other card statuses keep their colours. The label is always
 * shown, so colour is never the only signal. Pairs are AA on their backgrounds.
 */
const STATUS_CLASSES: Record<string, string> = {
  new: "border-blue-200 bg-blue-50 text-blue-800",
  submitted: "border-blue-200 bg-blue-50 text-blue-800",
  under_review: "border-yellow-200 bg-yellow-50 text-yellow-900",
  reviewed: "border-purple-200 bg-purple-50 text-purple-800",
  scheduled: "border-green-200 bg-green-50 text-green-800",
  in_progress: "border-orange-200 bg-orange-50 text-orange-900",
  complete: "border-gray-200 bg-gray-100 text-gray-700",
  completed: "border-gray-200 bg-gray-100 text-gray-700",
};

/** One per request card: the .badge class and three colours, nothing merged per render. */
export function StatusBadge({ status, className }: { status: string; className?: string }) {
  const colours = STATUS_CLASSES[status] ?? "border-gray-200 bg-gray-100 text-gray-700";
  return (
    <span
      data-status={status}
      className={className ? `badge ${colours} ${className}` : `badge ${colours}`}
    >
      {statusLabel(status)}
    </span>
  );
}
