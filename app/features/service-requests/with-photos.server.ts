import { isMultipart, MultipartError } from "~/features/photos/index.server";
import { openPhotoUpload, removeRequestPhoto } from "~/features/photos/index.server";
import { logger } from "~/lib/logger.server";
import { UUID_PATTERN } from "~/lib/uuid";
import { fieldsToFormData, parseServiceRequestForm } from "./form-data.server";
import { limitRequestCreation } from "./limits.server";
import type { RequestActionResult } from "./notices";
import { photosToRemove } from "./schema";
import { createServiceRequest, NoHomeError, updateServiceRequest } from "./service-requests.server";

/** What a request form's post came to: the notice, its HTTP status, the request it concerns. */
export type RequestOutcome = Pick<RequestActionResult, "notice" | "requestId" | "result"> & {
  status?: number;
};

/*
 * A request's form arrives either as plain fields (the page's own script, which then uploads
 * each photo on its own to show progress) or as one multipart post with its photos (a form
 * without JavaScript). In the multipart case the request is created (or updated) as soon as its
 * fields are read, before the first photo is stored, so photos always have their request and a
 * broken upload loses photos, never the request. The routes call one of these once.
 */

/** 'How can we help': creates the customer's request, with its photos when posted with them. */
export async function createRequestWithPhotos(
  request: Request,
  customerId: string,
): Promise<RequestOutcome> {
  if (!isMultipart(request)) {
    try {
      return await createFromForm(customerId, await request.formData());
    } catch (error) {
      logger.warn({ err: (error as Error).message }, "service request form could not be read");
      return { notice: "create-failed", status: 400 };
    }
  }
  const upload = openPhotoUpload(request, customerId);
  let fields: Record<string, string>;
  try {
    fields = await upload.fields;
  } catch (error) {
    return unreadable(error, "create-failed");
  }
  const outcome = await createFromForm(customerId, fieldsToFormData(fields));
  try {
    await upload.storeInto(outcome.notice === "created" ? (outcome.requestId ?? null) : null);
  } catch (error) {
    // A broken upload after the request was made loses photos, not the request.
    if (outcome.notice !== "created") return unreadable(error, "create-failed");
    logger.warn({ err: (error as Error).message }, "photos of a new request could not be read");
  }
  return outcome;
}

/**
 * 'Update Request' posted as one multipart form (no JavaScript): the fields, the photos marked
 * for removal, and new photos.
 */
export async function updateRequestWithPhotos(
  request: Request,
  customerId: string,
  requestId: string,
): Promise<RequestOutcome> {
  if (!UUID_PATTERN.test(requestId)) return { notice: "update-failed", status: 404 };
  const upload = openPhotoUpload(request, customerId);
  let fields: Record<string, string>;
  try {
    fields = await upload.fields;
  } catch (error) {
    return unreadable(error, "update-failed");
  }
  const outcome = await updateFromForm(customerId, requestId, fieldsToFormData(fields));
  try {
    await upload.storeInto(outcome.notice === "updated" ? requestId : null);
  } catch (error) {
    if (outcome.notice !== "updated") return unreadable(error, "update-failed");
    logger.warn(
      { err: (error as Error).message },
      "photos of an updated request could not be read",
    );
  }
  return outcome;
}

/** A form whose body could not be read: its status (400, 413, 415), nothing changed. */
function unreadable(error: unknown, notice: "create-failed" | "update-failed"): RequestOutcome {
  logger.warn({ err: (error as Error).message }, "service request form could not be read");
  return { notice, status: error instanceof MultipartError ? error.status : 400 };
}

async function createFromForm(customerId: string, formData: FormData): Promise<RequestOutcome> {
  const parsed = parseServiceRequestForm(formData);
  if (!parsed.ok) {
    return { notice: "create-failed", result: parsed.result, status: 400 };
  }
  const limit = await limitRequestCreation(customerId);
  if (!limit.allowed) {
    logger.warn({ customerId }, "service request refused: hourly limit reached");
    return { notice: "create-limited", status: 429 };
  }
  try {
    const row = await createServiceRequest(customerId, parsed.value);
    return { notice: "created", requestId: row.id, status: 201 };
  } catch (error) {
    if (error instanceof NoHomeError) return { notice: "no-home", status: 409 };
    logger.error({ err: (error as Error).message }, "creating a service request failed");
    return { notice: "create-failed", status: 500 };
  }
}

/**
 * 'Update Request' from plain fields: title, description, priority and the photos marked for
 * removal (applied only now, with the update: Cancel in the dialog never removes one).
 */
export async function updateFromForm(
  customerId: string,
  requestId: string,
  formData: FormData,
): Promise<RequestOutcome> {
  const parsed = parseServiceRequestForm(formData);
  if (!parsed.ok) return { notice: "update-failed", result: parsed.result, status: 400 };
  const row = await updateServiceRequest(customerId, requestId, parsed.value);
  if (!row) return { notice: "update-failed", status: 404 };
  // The photos marked in the form go now, before any new ones are stored. One already gone
  // (removed on another device) is simply not there any more.
  for (const photoId of photosToRemove(formData)) {
    if (UUID_PATTERN.test(photoId)) await removeRequestPhoto(customerId, requestId, photoId);
  }
  return { notice: "updated", requestId };
}
