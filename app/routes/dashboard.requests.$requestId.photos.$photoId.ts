import type { Route } from "./+types/dashboard.requests.$requestId.photos.$photoId";
import { removeRequestPhoto } from "~/features/photos/request-photos.server";
import { respond } from "~/features/service-requests/respond.server";
import { UUID_PATTERN } from "~/lib/uuid";
import { logger } from "~/lib/logger.server";
import { requireCustomerForAction } from "~/lib/session.server";

/** Removes one photo from one of the customer's open requests ('Photo removed successfully'). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireCustomerForAction(request);
  if (!UUID_PATTERN.test(params.requestId) || !UUID_PATTERN.test(params.photoId)) {
    return respond(request, context, "photo-remove-failed", { status: 404 });
  }
  try {
    const removed = await removeRequestPhoto(user.id, params.requestId, params.photoId);
    if (!removed) return respond(request, context, "photo-remove-failed", { status: 404 });
    return respond(request, context, "photo-removed", { requestId: params.requestId });
  } catch (error) {
    logger.error({ err: (error as Error).message }, "removing a photo failed");
    return respond(request, context, "photo-remove-failed", { status: 500 });
  }
}
