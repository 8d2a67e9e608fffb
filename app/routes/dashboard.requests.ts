import type { Route } from "./+types/dashboard.requests";
import { respond } from "~/features/service-requests/respond.server";
import { createRequestWithPhotos } from "~/features/service-requests/with-photos.server";
import { requireCustomerForAction } from "~/lib/session.server";

/**
 * Creates a service request ('How can we help'). Scripts post the fields and then upload each
 * photo with progress; a plain form posts everything at once as multipart, photos included.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCustomerForAction(request);
  const outcome = await createRequestWithPhotos(request, user.id);
  return respond(request, context, outcome.notice, outcome);
}
