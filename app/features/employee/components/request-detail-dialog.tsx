import { useCallback, useState } from "react";
import { href, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { REQUEST_STATUSES } from "~/db/request-status";
import { MembershipLink } from "~/features/memberships";
import type { ActiveMembership } from "~/features/memberships/index.server";
import { NOTES_MAX_LENGTH, statusLabel } from "~/features/service-requests";
import { shortId } from "~/features/service-requests";
import type { RequestDetail as RequestDetailRow } from "~/features/service-requests/index.server";
import { formatLongDate } from "../format";
import { useActionToast } from "../use-action-toast";
import { PriorityBadge, StatusBadge } from "./request-badges";
import { formatPhone, phoneHref } from "~/lib/phone";
import { customerName } from "~/lib/names";

/** A request's detail, with the customer's active membership (ADR 014) when they have one. */
type DetailWithMembership = RequestDetailRow & { membership?: ActiveMembership | null };

export function RequestDetailDialog({
  detail,
  onClose,
}: {
  detail: DetailWithMembership | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={Boolean(detail)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-4xl">
        {detail && <RequestDetail key={detail.id} detail={detail} />}
      </DialogContent>
    </Dialog>
  );
}

function RequestDetail({ detail }: { detail: DetailWithMembership }) {
  const photoCount = detail.photos.length;
  return (
    <>
      <DialogHeader>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-mono text-muted-foreground">#{shortId(detail.id, 8)}</span>
          <StatusBadge status={detail.status} />
          <PriorityBadge priority={detail.priority} />
        </div>
        <DialogTitle className="text-xl">{detail.title}</DialogTitle>
        <DialogDescription>Created {formatLongDate(detail.createdAt)}</DialogDescription>
      </DialogHeader>

      <div className="grid gap-6 md:grid-cols-[1fr_18rem]">
        <div className="grid content-start gap-6">
          <section aria-labelledby="detail-description">
            <h3 id="detail-description" className="mb-2 font-semibold">
              Description
            </h3>
            {detail.description ? (
              <p className="whitespace-pre-wrap">{detail.description}</p>
            ) : (
              <p className="text-muted-foreground">No description provided</p>
            )}
          </section>

          <section aria-labelledby="detail-customer">
            <h3 id="detail-customer" className="mb-2 font-semibold">
              Customer
            </h3>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Name</dt>
              <dd>{customerName(detail.customerFirstName, detail.customerLastName)}</dd>
              <dt className="text-muted-foreground">Phone</dt>
              <dd>
                {detail.customerPhone ? (
                  <a className="text-primary underline" href={phoneHref(detail.customerPhone)}>
                    {formatPhone(detail.customerPhone)}
                  </a>
                ) : (
                  "Not provided"
                )}
              </dd>
              <dt className="text-muted-foreground">Address</dt>
              <dd>{detail.address}</dd>
              <dt className="text-muted-foreground">City/State/ZIP</dt>
              <dd>
                {detail.city}, {detail.state} {detail.zipCode}
              </dd>
              <dt className="text-muted-foreground">Property notes</dt>
              <dd className="whitespace-pre-wrap">{detail.propertyNotes || "None"}</dd>
              <dt className="text-muted-foreground">Membership</dt>
              <dd>
                <MembershipLink customerId={detail.customerId} membership={detail.membership} />
              </dd>
            </dl>
          </section>

          <section aria-labelledby="detail-photos">
            <h3 id="detail-photos" className="mb-2 font-semibold">
              Photos ({photoCount})
            </h3>
            {photoCount === 0 ? (
              <p className="text-sm text-muted-foreground">No photos</p>
            ) : (
              <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
                {detail.photos.map((photo, index) => (
                  <li key={photo.id}>
                    <a
                      href={href("/request-photos/:photoId/:variant?", { photoId: photo.id })}
                      target="_blank"
                      rel="noreferrer"
                      className="block overflow-hidden rounded-md border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                    >
                      <img
                        src={href("/request-photos/:photoId/:variant?", {
                          photoId: photo.id,
                          variant: photo.thumbnailPath ? "thumbnail" : undefined,
                        })}
                        alt={`Photo ${index + 1} of ${photoCount}: ${photo.fileName} (opens full size in a new tab)`}
                        loading="lazy"
                        className="aspect-square w-full object-cover"
                      />
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>

        <aside
          aria-label="Request management"
          className="grid content-start gap-5 rounded-lg bg-muted p-4"
        >
          <StatusControl id={detail.id} status={detail.status} />
          <NotesControl id={detail.id} notes={detail.employeeNotes} />
          <div className="grid gap-1 text-sm">
            <h3 className="font-semibold">Request ID</h3>
            <p className="font-mono text-xs break-all">{detail.id}</p>
          </div>
          <div className="grid gap-1 text-sm">
            <h3 className="font-semibold">Photos</h3>
            <p>
              {photoCount} {photoCount === 1 ? "photo" : "photos"}
            </p>
          </div>
        </aside>
      </div>
    </>
  );
}

function StatusControl({ id, status }: { id: string; status: string }) {
  const fetcher = useFetcher();
  useActionToast(fetcher, {
    success: "Status updated successfully",
    failure: "Failed to update status",
  });
  // While saving, show the chosen value; afterwards the revalidated data.
  const pending = fetcher.formData?.get("status");
  const value = typeof pending === "string" ? pending : status;
  return (
    <fetcher.Form
      method="post"
      action={href("/employee/requests/:requestId", { requestId: id })}
      className="grid gap-1.5"
    >
      <input type="hidden" name="intent" value="status" />
      <Label htmlFor="detail-status">Status</Label>
      <NativeSelect
        id="detail-status"
        name="status"
        value={value}
        onChange={(event) => fetcher.submit(event.currentTarget.form)}
        className="bg-background"
      >
        {REQUEST_STATUSES.map((option) => (
          <NativeSelectOption key={option} value={option}>
            {statusLabel(option)}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    </fetcher.Form>
  );
}

function NotesControl({ id, notes }: { id: string; notes: string | null }) {
  const fetcher = useFetcher();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(notes ?? "");
  const stopEditing = useCallback(() => setEditing(false), []);
  useActionToast(fetcher, {
    success: "Notes saved successfully",
    failure: "Failed to save notes",
    onSuccess: stopEditing,
  });
  const saving = fetcher.state !== "idle";

  return (
    <div className="grid gap-1.5">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold" id="detail-notes-heading">
          Notes
        </h3>
        {!editing && (
          <Button
            type="button"
            size="sm"
            variant="outline"
            className="bg-background"
            onClick={() => {
              setDraft(notes ?? "");
              setEditing(true);
            }}
          >
            Edit<span className="sr-only"> notes</span>
          </Button>
        )}
      </div>
      {editing ? (
        <fetcher.Form
          method="post"
          action={href("/employee/requests/:requestId", { requestId: id })}
          className="grid gap-2"
        >
          <input type="hidden" name="intent" value="notes" />
          <Label htmlFor="detail-notes" className="sr-only">
            Notes
          </Label>
          <Textarea
            id="detail-notes"
            name="notes"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            maxLength={NOTES_MAX_LENGTH}
            rows={5}
            autoFocus
            className="bg-background"
            placeholder="Internal notes for the team"
          />
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={saving}>
              {saving ? "Saving..." : "Save"}
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              className="bg-background"
              onClick={() => setEditing(false)}
              disabled={saving}
            >
              Cancel
            </Button>
          </div>
        </fetcher.Form>
      ) : notes ? (
        <p className="text-sm whitespace-pre-wrap" aria-labelledby="detail-notes-heading">
          {notes}
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">No notes added yet</p>
      )}
    </div>
  );
}
