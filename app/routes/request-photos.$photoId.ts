import { createReadableStreamFromReadable } from "@react-router/node";
import type { Route } from "./+types/request-photos.$photoId";
import { findViewablePhoto } from "~/features/photos/request-photos.server";
import { UUID_PATTERN } from "~/lib/uuid";
import { storage } from "~/lib/storage.server";
import { getSessionUser } from "~/lib/session.server";

/*
 * Request photos are private (docs/design.md decision 4): only the request's owner and employees get
 * them, with the stored Content-Type, nosniff (set for every response in server/app.ts) and
 * private caching. /request-photos/:id is the full image, /request-photos/:id/thumbnail the
 * small one used in lists. Someone else's photo answers 404, like a missing one.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) return new Response("Sign in to see this photo", { status: 401 });
  const variant = params.variant ?? "full";
  if (!UUID_PATTERN.test(params.photoId) || (variant !== "full" && variant !== "thumbnail")) {
    return new Response("Not found", { status: 404 });
  }
  const photo = await findViewablePhoto(user, params.photoId);
  const key = photo && (variant === "thumbnail" ? photo.thumbnailPath : photo.filePath);
  if (!photo || !key) return new Response("Not found", { status: 404 });

  const etag = `"${photo.id}-${variant}"`;
  const headers = new Headers({
    "Cache-Control": "private, max-age=3600",
    ETag: etag,
    Vary: "Cookie",
  });
  if (request.headers.get("if-none-match") === etag) {
    return new Response(null, { status: 304, headers });
  }
  const object = await storage().get(key);
  if (!object) return new Response("Not found", { status: 404 });
  headers.set("Content-Type", object.contentType);
  headers.set("Content-Length", String(object.size));
  headers.set("Content-Disposition", "inline");
  return new Response(createReadableStreamFromReadable(object.body), { status: 200, headers });
}
