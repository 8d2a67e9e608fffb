import { getFormProps } from "@conform-to/react";
import { useRef, useState } from "react";
import { href, Link } from "react-router";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { PhotoPicker } from "~/features/photos";
import { useHydrated } from "~/lib/use-hydrated";
import type { Priority } from "../schema";
import type { CustomerRequest } from "../types";
import {
  CancelAndSubmit,
  CurrentPhotos,
  DELETE_TEXT,
  DELETE_TITLE,
  DeleteRequestButton,
  RequestFields,
} from "./request-form-fields";
import { useRequestForm } from "./use-request-form";

export type RequestDialogState =
  | { kind: "create"; priority: Priority }
  | { kind: "edit"; request: CustomerRequest; confirmDelete: boolean };

/**
 * 'How can we help' (create) and 'Update Service Request' (edit). The open dialog lives in the
 * URL (?new=next|later, ?edit=id, set by the buttons of a GET form), so the same buttons and
 * forms work without JavaScript: the server then renders the form inline on the page and the
 * form posts as multipart, photos included. With JavaScript it is a dialog that saves the
 * fields, then uploads each photo with its own progress bar.
 */
export function RequestDialog({
  state,
  onClose,
  onChanged,
}: {
  state: RequestDialogState | null;
  onClose(): Promise<void> | void;
  onChanged(): Promise<void> | void;
}) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  // The button that opened the dialog. It is no Radix trigger (the dialog opens from the URL),
  // so Radix would not know where to return focus on closing.
  const opener = useRef<HTMLElement | null>(null);
  if (!state) return null;

  const title = state.kind === "create" ? "How can we help" : "Update Service Request";
  const description =
    state.kind === "create"
      ? "Tell us what needs doing. Photos help your handyman come prepared."
      : "Change the details, remove photos or add new ones.";
  const form = (
    <RequestForm
      key={state.kind === "create" ? `create-${state.priority}` : `edit-${state.request.id}`}
      state={state}
      hydrated={hydrated}
      onBusy={setBusy}
      onDone={async () => {
        await onClose();
        await onChanged();
      }}
      onChanged={onChanged}
      onCancel={onClose}
    />
  );

  if (!hydrated) {
    // Without JavaScript (or before it starts) the form is part of the page.
    return (
      <section
        aria-labelledby="request-form-title"
        className="grid gap-4 rounded-lg border-2 border-primary/40 bg-card p-4 sm:p-6"
      >
        <header className="grid gap-1">
          <h2 id="request-form-title" className="text-lg font-semibold">
            {title}
          </h2>
          <p className="text-sm text-muted-foreground">{description}</p>
        </header>
        {state.kind === "edit" && state.confirmDelete ? (
          <DeleteConfirmInline request={state.request} />
        ) : (
          form
        )}
      </section>
    );
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open && !busy) void onClose();
      }}
    >
      <DialogContent
        onOpenAutoFocus={() => {
          const active = document.activeElement;
          opener.current =
            active instanceof HTMLElement && active !== document.body ? active : null;
        }}
        onCloseAutoFocus={(event) => {
          const target = opener.current;
          opener.current = null;
          if (target?.isConnected) {
            event.preventDefault();
            target.focus();
          }
        }}
        onInteractOutside={(event) => {
          if (busy) event.preventDefault();
        }}
      >
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {form}
      </DialogContent>
    </Dialog>
  );
}

function RequestForm({
  state,
  hydrated,
  onBusy,
  onDone,
  onChanged,
  onCancel,
}: {
  state: RequestDialogState;
  hydrated: boolean;
  onBusy(busy: boolean): void;
  onDone(): Promise<void>;
  onChanged(): Promise<void> | void;
  onCancel(): Promise<void> | void;
}) {
  const r = useRequestForm({ state, onBusy, onDone, onChanged });
  const { editing, busy } = r;
  // Photos marked for removal (checkboxes) go only with 'Update Request'; Cancel keeps them.
  return (
    <form
      {...getFormProps(r.form)}
      method="post"
      action={r.action}
      encType="multipart/form-data"
      className="grid gap-4"
      aria-busy={busy}
    >
      {editing && <input type="hidden" name="intent" value="update" />}
      <RequestFields fields={r.fields} busy={busy} />

      {editing && editing.photos.length > 0 && <CurrentPhotos request={editing} busy={busy} />}

      <PhotoPicker
        queue={r.queue}
        name="photos"
        hydrated={hydrated}
        disabled={busy}
        label={editing ? "Add photos" : "Photos"}
      />

      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:items-center">
        {editing && (
          <DeleteRequestButton
            request={editing}
            hydrated={hydrated}
            busy={busy}
            deleting={r.deleting}
            confirmOpen={r.confirmOpen}
            onConfirmOpen={r.setConfirmOpen}
            onDelete={r.deleteRequest}
          />
        )}
        <CancelAndSubmit
          editing={editing !== null}
          hydrated={hydrated}
          busy={busy}
          submitting={r.submitting}
          onCancel={onCancel}
        />
      </div>
    </form>
  );
}

/** The no-JavaScript delete confirmation (?edit=id&confirm=delete). */
function DeleteConfirmInline({ request }: { request: CustomerRequest }) {
  return (
    <div role="alertdialog" aria-labelledby="delete-title" aria-describedby="delete-text">
      <h3 id="delete-title" className="font-semibold">
        {DELETE_TITLE}
      </h3>
      <p id="delete-text" className="mt-2 text-sm text-muted-foreground">
        {DELETE_TEXT}
      </p>
      <form
        method="post"
        action={href("/dashboard/requests/:requestId", { requestId: request.id })}
        className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end"
      >
        <input type="hidden" name="intent" value="delete" />
        <Button asChild variant="outline">
          <Link to={`?edit=${request.id}`} replace>
            Cancel
          </Link>
        </Button>
        <Button type="submit" variant="destructive">
          Delete
        </Button>
      </form>
    </div>
  );
}
