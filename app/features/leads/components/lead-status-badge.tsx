import { Badge } from "~/components/ui/badge";
import { LEAD_STATUS_LABELS, type LeadStatus } from "~/db/lead-status";
import { timestampLabel } from "~/lib/business-calendar";

/** A lead's status as staff read it; 'Lost' with its reason. */
export function LeadStatusBadge({
  status,
  lostReason,
}: {
  status: LeadStatus;
  lostReason: string | null;
}) {
  return (
    <span className="grid gap-1" data-lead-status={status}>
      <Badge
        variant={status === "lost" ? "outline" : status === "member" ? "default" : "secondary"}
      >
        {LEAD_STATUS_LABELS[status]}
      </Badge>
      {status === "lost" && lostReason ? (
        <span className="text-xs text-muted-foreground">Reason: {lostReason}</span>
      ) : null}
    </span>
  );
}

/** Where a lead's entry came from, in words: the home page, a city page, the intro-call page. */
export function sourceLabel(source: string) {
  if (source === "home") return "Home page";
  if (source === "intro-call") return "Intro call (/book-call)";
  if (source === "account") return "Customer account";
  return `/${source}`;
}

export function whenLabel(iso: string) {
  return timestampLabel(iso);
}
