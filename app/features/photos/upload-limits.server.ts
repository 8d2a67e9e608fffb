import { hit } from "~/lib/rate-limit.server";
import { MAX_PHOTO_UPLOADS_PER_HOUR } from "./limits";

const HOUR_MS = 60 * 60_000;

/** Counts one photo sent by `customerId`; refused past the hourly limit (ADR 022). */
export function limitPhotoUpload(customerId: string) {
  return hit(`request-photos:customer:${customerId}`, MAX_PHOTO_UPLOADS_PER_HOUR, HOUR_MS);
}
