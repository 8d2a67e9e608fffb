import { getInputProps, getTextareaProps } from "@conform-to/react";
import { Loader2, Trash2, Undo2, X } from "lucide-react";
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
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { DESCRIPTION_MAX, REMOVE_PHOTO_FIELD, TITLE_MAX } from "../schema";
import type { CustomerRequest } from "../types";
import { photoAlt } from "./request-card";
import type { RequestFormFields } from "./use-request-form";

/** The parts of the request form (request-dialog.tsx): its fields, photos and buttons. */

export const DELETE_TITLE = "Delete Service Request";
export const DELETE_TEXT =
  "Are you sure you want to delete this service request? This action cannot be undone and will permanently remove the request and all associated photos.";

/** Title, description and priority. */
export function RequestFields({ fields, busy }: { fields: RequestFormFields; busy: boolean }) {
  return (
    <>
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
    </>
  );
}

/** The edited request's photos, each with a checkbox that marks it for removal. */
export function CurrentPhotos({ request, busy }: { request: CustomerRequest; busy: boolean }) {
  const photos = request.photos;
  return (
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
              alt={photoAlt(request.title, index, photos.length)}
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
              <X aria-hidden="true" className="pointer-events-none size-4 peer-checked:hidden" />
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
  );
}

/**
 * 'Delete': with JavaScript a confirmation dialog that posts; without, a link to the inline
 * confirmation (?edit=id&confirm=delete).
 */
export function DeleteRequestButton({
  request,
  hydrated,
  busy,
  deleting,
  confirmOpen,
  onConfirmOpen,
  onDelete,
}: {
  request: CustomerRequest;
  hydrated: boolean;
  busy: boolean;
  deleting: boolean;
  confirmOpen: boolean;
  onConfirmOpen(open: boolean): void;
  onDelete(): Promise<void>;
}) {
  if (!hydrated) {
    return (
      <Button asChild variant="outline" className="border-destructive text-destructive sm:mr-auto">
        <Link to={`?edit=${request.id}&confirm=delete`} replace>
          <Trash2 aria-hidden="true" />
          Delete
        </Link>
      </Button>
    );
  }
  return (
    <AlertDialog open={confirmOpen} onOpenChange={(open) => !deleting && onConfirmOpen(open)}>
      <Button
        type="button"
        variant="outline"
        className="border-destructive text-destructive hover:bg-destructive/10 hover:text-destructive sm:mr-auto"
        disabled={busy}
        onClick={() => onConfirmOpen(true)}
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
            onClick={() => void onDelete()}
          >
            {deleting ? "Deleting..." : "Delete"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** 'Cancel' (a button with JavaScript, a link back to the dashboard without) and the submit. */
export function CancelAndSubmit({
  editing,
  hydrated,
  busy,
  submitting,
  onCancel,
}: {
  editing: boolean;
  hydrated: boolean;
  busy: boolean;
  submitting: boolean;
  onCancel(): Promise<void> | void;
}) {
  return (
    <>
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
    </>
  );
}
