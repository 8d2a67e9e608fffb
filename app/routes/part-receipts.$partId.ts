import { createReadableStreamFromReadable } from "@react-router/node";
import type { Route } from "./+types/part-receipts.$partId";
import { findViewableReceipt } from "~/features/memberships/index.server";
import { getSessionUser } from "~/lib/session.server";
import { storage } from "~/lib/storage.server";
import { UUID_PATTERN } from "~/lib/uuid";

/*
 * A part's receipt photo ('Add part' on 'Today'): private like a request's photos, served only to
 * office staff, the handyman of the part's visit and the member. /part-receipts/:id is the full
 * image, /part-receipts/:id/thumbnail the small one. Anyone else gets 404, like a missing one.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) return new Response("Sign in to see this receipt", { status: 401 });
  const variant = params.variant ?? "full";
  if (!UUID_PATTERN.test(params.partId) || (variant !== "full" && variant !== "thumbnail")) {
    return new Response("Not found", { status: 404 });
  }
  const receipt = await findViewableReceipt(user, params.partId);
  const key = receipt && (variant === "thumbnail" ? receipt.thumbnailPath : receipt.filePath);
  if (!receipt || !key) return new Response("Not found", { status: 404 });
  const object = await storage().get(key);
  if (!object) return new Response("Not found", { status: 404 });
  return new Response(createReadableStreamFromReadable(object.body), {
    status: 200,
    headers: {
      "Cache-Control": "private, max-age=3600",
      Vary: "Cookie",
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      "Content-Disposition": "inline",
    },
  });
}
