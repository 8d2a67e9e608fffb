import type { Route } from "./+types/dashboard.requests.$requestId";
import { deleteRequestPhotoFolder } from "~/features/photos/request-photos.server";
import { isMultipart } from "~/features/photos/multipart.server";
import { respond } from "~/features/service-requests/respond.server";
import {
  updateFromForm,
  updateRequestWithPhotos,
} from "~/features/service-requests/with-photos.server";
import { UUID_PATTERN } from "~/lib/uuid";
import {
  deleteServiceRequest,
  moveServiceRequest,
} from "~/features/service-requests/service-requests.server";
import { logger } from "~/lib/logger.server";
import { requireCustomerForAction } from "~/lib/session.server";

/**
 * One request of the signed-in customer: intent=update (title, description, priority, the
 * photos marked for removal, and new photos when posted as a plain multipart form),
 * intent=delete, intent=move-up / move-down.
 * Every change is scoped to the customer in its query: another customer's id is not found.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireCustomerForAction(request);
  const requestId = params.requestId;

  if (isMultipart(request)) {
    const outcome = await updateRequestWithPhotos(request, user.id, requestId);
    return respond(request, context, outcome.notice, outcome);
  }

  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "update");
  const failure = {
    update: "update-failed",
    delete: "delete-failed",
    "move-up": "order-failed",
    "move-down": "order-failed",
  } as const;
  if (!(intent in failure)) return respond(request, context, "update-failed", { status: 400 });
  const failed = failure[intent as keyof typeof failure];
  if (!UUID_PATTERN.test(requestId)) return respond(request, context, failed, { status: 404 });

  try {
    switch (intent) {
      case "update": {
        const outcome = await updateFromForm(user.id, requestId, formData);
        return respond(request, context, outcome.notice, outcome);
      }
      case "delete": {
        const deleted = await deleteServiceRequest(user.id, requestId);
        if (!deleted) return respond(request, context, "delete-failed", { status: 404 });
        await deleteRequestPhotoFolder(requestId);
        return respond(request, context, "deleted", { requestId });
      }
      default: {
        const result = await moveServiceRequest(
          user.id,
          requestId,
          intent === "move-up" ? "up" : "down",
        );
        if (result === "moved") return respond(request, context, "order-updated", { requestId });
        return respond(request, context, "order-failed", {
          status: result === "at-end" ? 409 : 404,
        });
      }
    }
  } catch (error) {
    logger.error({ err: (error as Error).message, intent }, "service request action failed");
    return respond(request, context, failed, { status: 500 });
  }
}
