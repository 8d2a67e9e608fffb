import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Loader2, Trash2, Undo2, X } from "lucide-react";
import { useRef, useState } from "react";
import { href, Link } from "react-router";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "~/components/ui/dialog";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { PhotoPicker } from "~/features/photos";
import { usePhotoQueue } from "~/features/photos";
import { useHydrated } from "~/lib/use-hydrated";
import { formFields, postRequestAction, showRequestNotice } from "../client-actions";
import {
  DESCRIPTION_MAX,
  REMOVE_PHOTO_FIELD,
  serviceRequestSchema,
  TITLE_MAX,
  type Priority,
} from "../schema";
import type { CustomerRequest } from "../types";
import { photoAlt } from "./request-card";

export type RequestDialogState =
  | { kind: "create"; priority: Priority }
  | { kind: "edit"; request: CustomerRequest; confirmDelete: boolean };

const DELETE_TITLE = "Delete Service Request";
const DELETE_TEXT =
  "Are you sure you want to delete this service request? This action cannot be undone and will permanently remove the request and all associated photos.";

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
  const editing = state.kind === "edit" ? state.request : null;
  const queue = usePhotoQueue();
  const [submitting, setSubmitting] = useState(false);
  // Photos marked for removal (checkboxes) go only with 'Update Request'; Cancel keeps them.
  const photos = editing ? editing.photos : [];
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const busy = submitting || deleting;
  const action = editing
    ? href("/dashboard/requests/:requestId", { requestId: editing.id })
    : href("/dashboard/requests");

  const setBusyBoth = (value: boolean) => {
    setSubmitting(value);
    onBusy(value);
  };

  const [form, fields] = useForm({
    id: editing ? `edit-request-${editing.id}` : "create-request",
    constraint: getZodConstraint(serviceRequestSchema),
    defaultValue: editing
      ? {
          title: editing.title,
          description: editing.description ?? "",
          priority: editing.priority,
        }
      : { priority: state.kind === "create" ? state.priority : "later" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: serviceRequestSchema }),
    async onSubmit(event, { formData, submission }) {
      event.preventDefault();
      if (submission?.status !== "success") return;
      setBusyBoth(true);
      const body = formFields({
        intent: "update",
        title: submission.value.title,
        description: submission.value.description ?? "",
        priority: submission.value.priority,
      });
      for (const name of formData.keys()) {
        if (name.startsWith(REMOVE_PHOTO_FIELD)) body.set(name, "on");
      }
      const result = await postRequestAction(
        action,
        body,
        editing ? "update-failed" : "create-failed",
      );
      if (!result.ok || !result.requestId) {
        showRequestNotice(result.notice);
        setBusyBoth(false);
        if (editing && result.notice === "update-failed") void onChanged();
        return;
      }
      await queue.uploadAll(result.requestId);
      showRequestNotice(result.notice);
      setBusyBoth(false);
      await onDone();
    },
  });

  async function deleteRequest() {
    if (!editing) return;
    setDeleting(true);
    onBusy(true);
    const result = await postRequestAction(
      href("/dashboard/requests/:requestId", { requestId: editing.id }),
      formFields({ intent: "delete" }),
      "delete-failed",
    );
    showRequestNotice(result.notice);
    setDeleting(false);
    onBusy(false);
    setConfirmOpen(false);
    if (result.ok) await onDone();
    else await onChanged();
  }

  return (
    <form
      {...getFormProps(form)}
      method="post"
      action={action}
      encType="multipart/form-data"
      className="grid gap-4"
      aria-busy={busy}
    >
      {editing && <input type="hidden" name="intent" value="update" />}
      <div className="grid gap-2">
        <Label htmlFor={fields.title.id}>Title</Label>
        <Input
          {...getInputProps(fields.title, { type: "text" })}
          key={fields.title.key}
          maxLength={TITLE_MAX}
          placeholder="e.g. Kitchen faucet drips"
          autoComplete="off"
          disabled={busy}
        />
        {fields.title.errors && (
          <p id={fields.title.errorId} className="text-sm text-destructive">
            {fields.title.errors[0]}
          </p>
        )}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={fields.description.id}>
          Description <span className="font-normal text-muted-foreground">(optional)</span>
        </Label>
        <Textarea
          {...getTextareaProps(fields.description)}
          key={fields.description.key}
          maxLength={DESCRIPTION_MAX}
          rows={4}
          placeholder="What is wrong, where in the house, anything we should know"
          disabled={busy}
        />
        {fields.description.errors && (
          <p id={fields.description.errorId} className="text-sm text-destructive">
            {fields.description.errors[0]}
          </p>
        )}
      </div>
      <div className="grid gap-2">
        <Label htmlFor={fields.priority.id}>Priority</Label>
        <NativeSelect
          id={fields.priority.id}
          name={fields.priority.name}
          key={fields.priority.key}
          defaultValue={fields.priority.initialValue ?? "later"}
          aria-describedby={`${fields.priority.id}-hint`}
          disabled={busy}
        >
          <NativeSelectOption value="next">Next</NativeSelectOption>
          <NativeSelectOption value="later">Later</NativeSelectOption>
        </NativeSelect>
        <p id={`${fields.priority.id}-hint`} className="text-xs text-muted-foreground">
          Next: at the coming visit. Later: when there is time.
        </p>
      </div>

      {editing && photos.length > 0 && (
        <fieldset className="grid gap-2" aria-describedby="current-photos-hint">
          <legend className="mb-1 text-sm font-medium">Current photos</legend>
          <p id="current-photos-hint" className="text-xs text-muted-foreground">
            Photos you mark are removed when you select Update Request.
          </p>
          <ul className="flex flex-wrap gap-3 pt-2">
            {photos.map((photo, index) => (
              <li key={photo.id} className="group relative grid justify-items-center gap-1">
                <img
                  src={href("/request-photos/:photoId/:variant?", {
                    photoId: photo.id,
                    variant: "thumbnail",
                  })}
                  alt={photoAlt(editing.title, index, photos.length)}
                  width={80}
                  height={80}
                  className="size-20 rounded-md border object-cover transition-opacity group-has-checked:opacity-40 group-has-checked:grayscale"
                />
                {/* A checkbox, so marking works without JavaScript and posts with the form. */}
                <span className="absolute -top-2 -right-2 inline-flex size-7 items-center justify-center rounded-full bg-destructive text-white shadow-sm group-has-checked:bg-foreground has-disabled:opacity-50">
                  <input
                    type="checkbox"
                    name={`${REMOVE_PHOTO_FIELD}${photo.id}`}
                    className="peer absolute inset-0 m-0 size-full cursor-pointer appearance-none rounded-full outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed"
                    aria-label={`Remove photo ${index + 1}`}
                    title={`Remove photo ${index + 1}`}
                    disabled={busy}
                  />
                  <X
                    aria-hidden="true"
                    className="pointer-events-none size-4 peer-checked:hidden"
                  />
                  <Undo2
                    aria-hidden="true"
                    className="pointer-events-none hidden size-4 peer-checked:block"
                  />
                </span>
                <span className="hidden text-xs font-medium text-destructive group-has-checked:block">
                  Will be removed
                </span>
              </li>
            ))}
          </ul>
        </fieldset>
      )}

      <PhotoPicker
        queue={queue}
        name="photos"
        hydrated={hydrated}
        disabled={busy}
        label={editing ? "Add photos" : "Photos"}
      />

      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:items-center">
        {editing &&
          (hydrated ? (
            <AlertDialog
              open={confirmOpen}
              onOpenChange={(open) => !deleting && setConfirmOpen(open)}
            >
              <Button
                type="button"
                variant="outline"
                className="border-destructive text-destructive hover:bg-destructive/10 hover:text-destructive sm:mr-auto"
                disabled={busy}
                onClick={() => setConfirmOpen(true)}
              >
                <Trash2 aria-hidden="true" />
                Delete
              </Button>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>{DELETE_TITLE}</AlertDialogTitle>
                  <AlertDialogDescription>{DELETE_TEXT}</AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel disabled={deleting}>Cancel</AlertDialogCancel>
                  <Button
                    type="button"
                    variant="destructive"
                    disabled={deleting}
                    onClick={() => void deleteRequest()}
                  >
                    {deleting ? "Deleting..." : "Delete"}
                  </Button>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          ) : (
            <Button
              asChild
              variant="outline"
              className="border-destructive text-destructive sm:mr-auto"
            >
              <Link to={`?edit=${editing.id}&confirm=delete`} replace>
                <Trash2 aria-hidden="true" />
                Delete
              </Link>
            </Button>
          ))}
        {hydrated ? (
          <Button
            type="button"
            variant="outline"
            disabled={busy}
            onClick={() => void onCancel()}
            className={editing ? undefined : "sm:ml-auto"}
          >
            Cancel
          </Button>
        ) : (
          <Button asChild variant="outline" className={editing ? undefined : "sm:ml-auto"}>
            <Link to={href("/dashboard")} replace>
              Cancel
            </Link>
          </Button>
        )}
        <Button type="submit" disabled={busy}>
          {submitting && <Loader2 aria-hidden="true" className="animate-spin" />}
          {editing
            ? submitting
              ? "Saving..."
              : "Update Request"
            : submitting
              ? "Creating..."
              : "Create Request"}
        </Button>
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
