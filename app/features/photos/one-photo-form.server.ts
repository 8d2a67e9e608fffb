import crypto from "node:crypto";
import { logger } from "~/lib/logger.server";
import { storage } from "~/lib/storage.server";
import { PhotoRejectedError, processPhoto } from "./image.server";
import { MAX_PHOTO_BYTES, ONE_PHOTO_BODY_LIMIT } from "./limits";
import { readMultipart } from "./multipart.server";
import { limitPhotoUpload } from "./upload-limits.server";

/*
 * A form with at most one photo beside its fields (the handyman's 'Add part' with its receipt
 * photo): the photo goes through the same pipeline as a request's photos (ADR 009, ADR 022):
 * the 10 MB limit, the type decided by the bytes, the pixel limit, re-encoded so that no EXIF
 * survives, a thumbnail, the uploader's hourly limit. It is stored under `folder` with a
 * random name; the caller records the paths with its row, or calls `deleteStoredPhoto`.
 */

export type StoredPhoto = { filePath: string; thumbnailPath: string };

export type OnePhotoForm = {
  fields: Record<string, string>;
  photo: StoredPhoto | null;
  /** Why the photo sent was not kept (null: kept, or none sent). */
  rejected: "too-large" | "not-an-image" | "rate-limited" | "refused" | null;
};

export async function readOnePhotoForm(
  request: Request,
  options: {
    uploaderId: string;
    folder: string;
    /** Asked with the fields sent before the photo: false keeps nothing (a repeated form). */
    accept(fields: Record<string, string>): Promise<boolean>;
  },
): Promise<OnePhotoForm> {
  let photo: StoredPhoto | null = null;
  let rejected: OnePhotoForm["rejected"] = null;
  const { fields } = await readMultipart(request, {
    maxFileBytes: MAX_PHOTO_BYTES,
    maxFiles: 1,
    maxTotalBytes: ONE_PHOTO_BODY_LIMIT,
    async onOversize() {
      rejected = "too-large";
    },
    async onFile(file, fieldsSoFar) {
      if (!(await options.accept(fieldsSoFar))) {
        rejected = "refused";
        return;
      }
      if (!(await limitPhotoUpload(options.uploaderId)).allowed) {
        rejected = "rate-limited";
        return;
      }
      try {
        const processed = await processPhoto(file.data);
        const name = crypto.randomBytes(16).toString("hex");
        const stored = {
          filePath: `${options.folder}${name}.${processed.full.extension}`,
          thumbnailPath: `${options.folder}${name}-thumb.${processed.thumbnail.extension}`,
        };
        await storage().put(stored.filePath, processed.full.data, processed.full.contentType);
        try {
          await storage().put(
            stored.thumbnailPath,
            processed.thumbnail.data,
            processed.thumbnail.contentType,
          );
        } catch (error) {
          await storage()
            .delete(stored.filePath)
            .catch(() => {});
          throw error;
        }
        photo = stored;
      } catch (error) {
        if (!(error instanceof PhotoRejectedError)) throw error;
        rejected = error.reason === "too-large" ? "too-large" : "not-an-image";
        logger.warn({ reason: error.reason, err: error.message }, "photo refused");
      }
    },
  });
  return { fields, photo, rejected };
}

/** Removes a stored photo that no row records (a refused or repeated form). */
export async function deleteStoredPhoto(photo: StoredPhoto) {
  await Promise.allSettled([photo.filePath, photo.thumbnailPath].map((k) => storage().delete(k)));
}
