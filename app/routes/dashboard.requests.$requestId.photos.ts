import { redirect } from "react-router";
import type { Route } from "./+types/dashboard.requests.$requestId.photos";
import { MultipartError } from "~/features/photos/multipart.server";
import { receiveRequestPhotos } from "~/features/photos/request-photos.server";
import { answerMode } from "~/lib/form-answer.server";
import { UUID_PATTERN } from "~/lib/uuid";
import { findCustomerRequest } from "~/features/service-requests/service-requests.server";
import { logger } from "~/lib/logger.server";
import { requireCustomerForAction } from "~/lib/session.server";

/**
 * Uploads photos to one of the customer's open requests (the dialogs send one photo per post,
 * to show each one's progress). The owner check happens before a byte of the body is read.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireCustomerForAction(request);
  const json = (body: unknown, status: number) =>
    Response.json(body, { status, headers: { "Cache-Control": "no-store" } });

  const owned = UUID_PATTERN.test(params.requestId)
    ? await findCustomerRequest(user.id, params.requestId)
    : null;
  if (!owned || owned.status === "complete") return json({ ok: false, error: "not-found" }, 404);

  try {
    const { saved, skipped } = await receiveRequestPhotos(request, owned.id, user.id);
    // Past the hourly limit the person is told so, in the dashboard's notice form.
    const limited = skipped.some((file) => file.reason === "rate-limited");
    if (answerMode(request, context) === "page")
      return redirect(limited ? "/dashboard?notice=photos-limited" : "/dashboard");
    const tooLarge = skipped.some((file) => file.reason === "too-large");
    const ok = saved.length > 0;
    return json(
      {
        ok,
        saved: saved.map((photo) => ({ id: photo.id })),
        skipped,
        ...(limited ? { notice: "photos-limited" } : {}),
      },
      ok || skipped.length === 0 ? 200 : limited ? 429 : tooLarge ? 413 : 422,
    );
  } catch (error) {
    const status = error instanceof MultipartError ? error.status : 500;
    logger.warn({ err: (error as Error).message, requestId: owned.id }, "photo upload failed");
    return json({ ok: false, error: "upload-failed" }, status);
  }
}
