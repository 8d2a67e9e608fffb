import type { Route } from "./+types/dashboard.requests.$requestId";
import {
  deleteRequestPhotoFolder,
  receiveRequestPhotos,
  removeRequestPhoto,
} from "~/features/photos/request-photos.server";
import { isMultipart, MultipartError } from "~/features/photos/multipart.server";
import {
  fieldsToFormData,
  parseServiceRequestForm,
} from "~/features/service-requests/form-data.server";
import type { RequestActionResult } from "~/features/service-requests/notices";
import { respond } from "~/features/service-requests/respond.server";
import { photosToRemove } from "~/features/service-requests/schema";
import { UUID_PATTERN } from "~/lib/uuid";
import {
  deleteServiceRequest,
  moveServiceRequest,
  updateServiceRequest,
} from "~/features/service-requests/service-requests.server";
import { logger } from "~/lib/logger.server";
import { requireCustomerForAction } from "~/lib/session.server";

/**
 * One request of the signed-in customer: intent=update (title, description, priority, the
 * photos marked for removal, and new photos when posted as a plain multipart form),
 * intent=delete, intent=move-up / move-down.
 * Every change is scoped to the customer in its query: another customer's id is not found.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireCustomerForAction(request);
  const requestId = params.requestId;

  if (isMultipart(request)) {
    if (!UUID_PATTERN.test(requestId)) return respond(request, "update-failed", { status: 404 });
    let outcome: Omit<RequestActionResult, "ok"> & { status?: number } = {
      notice: "update-failed",
      status: 404,
    };
    try {
      await receiveRequestPhotos(
        request,
        async (fields) => {
          outcome = await update(user.id, requestId, fieldsToFormData(fields));
          return outcome.notice === "updated" ? requestId : null;
        },
        user.id,
      );
    } catch (error) {
      if (outcome.notice !== "updated") {
        outcome = {
          notice: "update-failed",
          status: error instanceof MultipartError ? error.status : 400,
        };
      }
      logger.warn({ err: (error as Error).message }, "request form could not be read");
    }
    return respond(request, outcome.notice, outcome);
  }

  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "update");
  const failure = {
    update: "update-failed",
    delete: "delete-failed",
    "move-up": "order-failed",
    "move-down": "order-failed",
  } as const;
  if (!(intent in failure)) return respond(request, "update-failed", { status: 400 });
  const failed = failure[intent as keyof typeof failure];
  if (!UUID_PATTERN.test(requestId)) return respond(request, failed, { status: 404 });

  try {
    switch (intent) {
      case "update": {
        const outcome = await update(user.id, requestId, formData);
        return respond(request, outcome.notice, outcome);
      }
      case "delete": {
        const deleted = await deleteServiceRequest(user.id, requestId);
        if (!deleted) return respond(request, "delete-failed", { status: 404 });
        await deleteRequestPhotoFolder(requestId);
        return respond(request, "deleted", { requestId });
      }
      default: {
        const result = await moveServiceRequest(
          user.id,
          requestId,
          intent === "move-up" ? "up" : "down",
        );
        if (result === "moved") return respond(request, "order-updated", { requestId });
        return respond(request, "order-failed", { status: result === "at-end" ? 409 : 404 });
      }
    }
  } catch (error) {
    logger.error({ err: (error as Error).message, intent }, "service request action failed");
    return respond(request, failed, { status: 500 });
  }
}

async function update(
  customerId: string,
  requestId: string,
  formData: FormData,
): Promise<Omit<RequestActionResult, "ok"> & { status?: number }> {
  const parsed = parseServiceRequestForm(formData);
  if (!parsed.ok) return { notice: "update-failed", fieldErrors: parsed.fieldErrors, status: 400 };
  const row = await updateServiceRequest(customerId, requestId, parsed.value);
  if (!row) return { notice: "update-failed", status: 404 };
  // The photos marked in the form go now, before any new ones are stored. One already gone
  // (removed on another device) is simply not there any more.
  for (const photoId of photosToRemove(formData)) {
    if (UUID_PATTERN.test(photoId)) await removeRequestPhoto(customerId, requestId, photoId);
  }
  return { notice: "updated", requestId };
}
