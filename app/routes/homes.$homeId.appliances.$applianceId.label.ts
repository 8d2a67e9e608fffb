import { createReadableStreamFromReadable } from "@react-router/node";
import type { Route } from "./+types/homes.$homeId.appliances.$applianceId.label";
import { applianceLabelPhoto, homeAccess } from "~/features/home/index.server";
import { getSessionUser } from "~/lib/session.server";
import { storage } from "~/lib/storage.server";
import { isUuid } from "~/lib/uuid";

/*
 * An appliance's label photo (ADR 087): private, served to those who may see the home's record
 * (the member, the office, the day's handyman). ?thumbnail=1 is the small one. Anyone else gets
 * 404, like a missing one.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  if (!user) return new Response("Sign in to see this photo", { status: 401 });
  if (!isUuid(params.homeId) || !isUuid(params.applianceId))
    return new Response("Not found", { status: 404 });
  const access = await homeAccess(user, params.homeId);
  const photo = access ? await applianceLabelPhoto(access, params.applianceId) : null;
  const thumbnail = new URL(request.url).searchParams.get("thumbnail") === "1";
  const key = photo && (thumbnail ? (photo.thumbnailPath ?? photo.filePath) : photo.filePath);
  const object = key ? await storage().get(key) : null;
  if (!object) return new Response("Not found", { status: 404 });
  return new Response(createReadableStreamFromReadable(object.body), {
    headers: {
      "Cache-Control": "private, max-age=3600",
      Vary: "Cookie",
      "Content-Type": object.contentType,
      "Content-Length": String(object.size),
      "Content-Disposition": "inline",
    },
  });
}
