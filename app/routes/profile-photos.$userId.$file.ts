import { createReadableStreamFromReadable } from "@react-router/node";
import type { Route } from "./+types/profile-photos.$userId.$file";
import { profilePhotoKeyFor } from "~/features/employee/profile-photo.server";
import { storage } from "~/lib/storage.server";

/*
 * Employees' profile photos, public (customers see them on appointment cards). Served with the
 * stored Content-Type (always an image we re-encoded) and nosniff (server/app.ts). A versioned
 * URL (?v=) never changes content, so it may be cached for good.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const key = profilePhotoKeyFor(params.userId, params.file);
  if (!key) return new Response("Not found", { status: 404 });
  const object = await storage().get(key);
  if (!object) return new Response("Not found", { status: 404 });
  const versioned = new URL(request.url).searchParams.has("v");
  return new Response(createReadableStreamFromReadable(object.body), {
    headers: {
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      "Cache-Control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=300",
      "Content-Disposition": "inline",
    },
  });
}
