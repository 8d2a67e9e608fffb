import { ArrowDown, ArrowUp, Pencil } from "lucide-react";
import { Link } from "react-router";
import { cn } from "~/lib/utils";
import type { CustomerRequest } from "../types";
import { StatusBadge } from "./status-badge";

const createdFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "America/New_York",
});

export function formatCreated(iso: string) {
  return createdFormat.format(new Date(iso));
}

/*
 * A member may have hundreds of cards, three icon controls each: they use this short class list
 * instead of <Button>'s long one, which kept the page at twice the HTML for the same look.
 */
const ICON_CONTROL =
  "inline-flex size-10 items-center justify-center rounded-md hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-hidden disabled:pointer-events-none disabled:opacity-40 [&_svg]:size-4";

export type MoveControls = {
  isFirst: boolean;
  isLast: boolean;
  pending: boolean;
  onMove(event: React.FormEvent<HTMLFormElement>, direction: "up" | "down"): void;
};

/**
 * One request: title, description, status, photo thumbnails (full image on click) and created
 * date, with move up / move down inside its group and an edit control (not for completed
 * work). The controls are plain forms and links, so they also work without JavaScript.
 */
export function RequestCard({
  request,
  headingLevel = "h4",
  move,
  editHref,
}: {
  request: CustomerRequest;
  headingLevel?: "h3" | "h4";
  move?: MoveControls;
  editHref?: string;
}) {
  const Heading = headingLevel;
  const headingId = `request-${request.id}-title`;
  const canEdit = request.status !== "complete" && editHref;
  return (
    <article
      aria-labelledby={headingId}
      className="grid gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-xs"
      data-request-id={request.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <Heading id={headingId} className="min-w-0 font-semibold break-words">
          {request.title}
        </Heading>
        <StatusBadge status={request.status} />
      </div>
      {request.description && (
        <p className="text-sm break-words whitespace-pre-line text-muted-foreground">
          {request.description}
        </p>
      )}
      {request.photos.length > 0 && (
        <ul aria-label={`Photos of ${request.title}`} className="flex flex-wrap gap-2">
          {request.photos.map((photo, index) => (
            <li key={photo.id}>
              <a
                href={`/request-photos/${photo.id}`}
                target="_blank"
                rel="noopener"
                className="block rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-hidden"
              >
                <img
                  src={`/request-photos/${photo.id}/thumbnail`}
                  alt={`Photo ${index + 1} of ${request.photos.length}, full size`}
                  width={80}
                  height={80}
                  loading="lazy"
                  className="size-20 rounded-md border object-cover"
                />
              </a>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">Created {formatCreated(request.createdAt)}</p>
        <div className="flex items-center gap-1">
          {move && (
            <>
              <MoveForm request={request} direction="up" move={move} disabled={move.isFirst} />
              <MoveForm request={request} direction="down" move={move} disabled={move.isLast} />
            </>
          )}
          {canEdit && (
            <Link
              to={editHref}
              replace
              preventScrollReset
              aria-label={`Edit ${request.title}`}
              title="Edit"
              className={ICON_CONTROL}
            >
              <Pencil aria-hidden="true" />
            </Link>
          )}
        </div>
      </div>
    </article>
  );
}

function MoveForm({
  request,
  direction,
  move,
  disabled,
}: {
  request: CustomerRequest;
  direction: "up" | "down";
  move: MoveControls;
  disabled: boolean;
}) {
  const Icon = direction === "up" ? ArrowUp : ArrowDown;
  return (
    <form
      method="post"
      action={`/dashboard/requests/${request.id}`}
      onSubmit={(event) => move.onMove(event, direction)}
    >
      <input type="hidden" name="intent" value={direction === "up" ? "move-up" : "move-down"} />
      <button
        type="submit"
        disabled={disabled}
        aria-label={`Move ${request.title} ${direction}`}
        title={direction === "up" ? "Move up" : "Move down"}
        className={cn(ICON_CONTROL, move.pending && "cursor-progress")}
      >
        <Icon aria-hidden="true" />
      </button>
    </form>
  );
}
