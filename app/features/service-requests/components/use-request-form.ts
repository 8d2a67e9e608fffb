import { useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { href } from "react-router";
import { usePhotoQueue } from "~/features/photos";
import { formFields, postRequestAction, showRequestNotice } from "../client-actions";
import { REMOVE_PHOTO_FIELD, serviceRequestSchema } from "../schema";
import type { RequestDialogState } from "./request-dialog";

/**
 * The request form's state and its two posts: 'Create/Update Request' (the fields, then each
 * queued photo) and 'Delete'. `onBusy` tells the dialog, which then refuses to close.
 */
export function useRequestForm({
  state,
  onBusy,
  onDone,
  onChanged,
}: {
  state: RequestDialogState;
  onBusy(busy: boolean): void;
  onDone(): Promise<void>;
  onChanged(): Promise<void> | void;
}) {
  const editing = state.kind === "edit" ? state.request : null;
  const queue = usePhotoQueue();
  const [submitting, setSubmitting] = useState(false);
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

  return {
    editing,
    queue,
    action,
    form,
    fields,
    submitting,
    deleting,
    busy,
    confirmOpen,
    setConfirmOpen,
    deleteRequest,
  };
}

export type RequestFormFields = ReturnType<typeof useRequestForm>["fields"];
