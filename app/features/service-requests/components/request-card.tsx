import { href } from "react-router";
import { LineIcon } from "~/components/ui/line-icon";
import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";
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

/** "Photo of {title}", numbered when the request has several. */
export function photoAlt(title: string, index: number, count: number) {
  return count > 1 ? `Photo of ${title}, ${index + 1} of ${count}` : `Photo of ${title}`;
}

export type MoveControls = {
  isFirst: boolean;
  isLast: boolean;
  pending: boolean;
  /** Where a move posted without JavaScript returns to: the lists' pages ("npage=2"). */
  pageQuery?: string;
  onMove(event: React.FormEvent<HTMLFormElement>, direction: "up" | "down"): void;
};

/*
 * A page carries up to ten cards per list, each with three controls and its thumbnails, so the
 * card's markup is kept short (ADR 031): component classes (.icon-control, .badge, app.css)
 * instead of long utility lists, line icons of one path, one form for both moves, and each
 * accessible name written as one string.
 */

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
  const count = request.photos.length;
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
      {request.fromPlan && (
        <p className="text-sm font-medium text-primary">From your maintenance plan</p>
      )}
      {request.description && (
        <p className="text-sm break-words whitespace-pre-line text-muted-foreground">
          {request.description}
        </p>
      )}
      {count > 0 && (
        <ul aria-label={`Images of ${request.title}`} className="flex flex-wrap gap-2">
          {request.photos.map((photo, index) => (
            <li key={photo.id}>
              <a
                href={href("/request-photos/:photoId/:variant?", { photoId: photo.id })}
                target="_blank"
                rel="noopener"
                className="block rounded-md"
              >
                <img
                  src={href("/request-photos/:photoId/:variant?", {
                    photoId: photo.id,
                    variant: "thumbnail",
                  })}
                  alt={photoAlt(request.title, index, count)}
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
        <p className="text-xs text-muted-foreground">{`Created ${formatCreated(request.createdAt)}`}</p>
        <div className="flex items-center gap-1">
          {move && <MoveForm request={request} move={move} />}
          {canEdit && (
            <button
              type="submit"
              form={editForm}
              name="edit"
              value={request.id}
              title="Edit"
              className="icon-control"
            >
              <LineIcon name="pencil" />
              <span className="sr-only">{`Edit ${request.title}`}</span>
            </button>
          )}
        </div>
      </div>
    </article>
  );
}

/** Move up and move down: one form, the pressed button says which (intent=move-up|move-down). */
function MoveForm({ request, move }: { request: CustomerRequest; move: MoveControls }) {
  const className = move.pending ? "icon-control cursor-progress" : "icon-control";
  return (
    <form
      method="post"
      action={`${href("/dashboard/requests/:requestId", { requestId: request.id })}${move.pageQuery ? `?${move.pageQuery}` : ""}`}
      className="flex items-center gap-1"
      onSubmit={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        move.onMove(event, submitter?.value === "move-down" ? "down" : "up");
      }}
    >
      <button
        type="submit"
        name="intent"
        value="move-up"
        disabled={move.isFirst}
        title="Move up"
        className={className}
      >
        <LineIcon name="arrow-up" />
        <span className="sr-only">{`Move ${request.title} up`}</span>
      </button>
      <button
        type="submit"
        name="intent"
        value="move-down"
        disabled={move.isLast}
        title="Move down"
        className={className}
      >
        <LineIcon name="arrow-down" />
        <span className="sr-only">{`Move ${request.title} down`}</span>
      </button>
    </form>
  );
}
