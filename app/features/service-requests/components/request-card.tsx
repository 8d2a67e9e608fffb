import { ArrowDown, ArrowUp, Pencil } from "lucide-react";
import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";
import { cn } from "~/lib/utils";
import type { CustomerRequest } from "../types";
import { StatusBadge } from "./status-badge";

const createdFormat = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: BUSINESS_TIME_ZONE,
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

/** "Photo of {title}", numbered when the request has several. */
export function photoAlt(title: string, index: number, count: number) {
  return count > 1 ? `Photo of ${title}, ${index + 1} of ${count}` : `Photo of ${title}`;
}

export type MoveControls = {
  isFirst: boolean;
  isLast: boolean;
  pending: boolean;
  onMove(event: React.FormEvent<HTMLFormElement>, direction: "up" | "down"): void;
};

/**
 * One request: title, description, status, photo thumbnails (full image on click) and created
 * date, with move up / move down inside its group and an edit control (not for completed
 * work). The controls are buttons of plain forms, so they also work without JavaScript: the
 * edit button submits the tab's GET form (`editForm`, its id) with edit=<id>.
 */
export function RequestCard({
  request,
  headingLevel = "h4",
  move,
  editForm,
}: {
  request: CustomerRequest;
  headingLevel?: "h3" | "h4";
  move?: MoveControls;
  /** The id of the GET form that opens the edit dialog; no edit control without it. */
  editForm?: string;
}) {
  const Heading = headingLevel;
  const headingId = `request-${request.id}-title`;
  const canEdit = request.status !== "complete" && editForm;
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
        <ul aria-label={`Images of ${request.title}`} className="flex flex-wrap gap-2">
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
                  alt={photoAlt(request.title, index, request.photos.length)}
                  width={80}
                  height={80}
                  loading="lazy"
                  className="size-20 rounded-md border object-cover"
                />
                <span className="sr-only">(opens full size in a new tab)</span>
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
            <button
              type="submit"
              form={editForm}
              name="edit"
              value={request.id}
              title="Edit"
              className={ICON_CONTROL}
            >
              <Pencil aria-hidden="true" />
              <span className="sr-only">Edit {request.title}</span>
            </button>
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
        title={direction === "up" ? "Move up" : "Move down"}
        className={cn(ICON_CONTROL, move.pending && "cursor-progress")}
      >
        <Icon aria-hidden="true" />
        <span className="sr-only">
          Move {request.title} {direction}
        </span>
      </button>
    </form>
  );
}
