import crypto from "node:crypto";
import { and, count, eq, inArray, ne, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import {
  appointments,
  appointmentTasks,
  requestPhotos,
  serviceRequests,
  type RequestPhoto,
} from "~/db/schema";
import { logger } from "~/lib/logger.server";
import { storage } from "~/lib/storage.server";
import { PhotoRejectedError, processPhoto } from "./image.server";
import { MAX_PHOTO_BYTES, MAX_PHOTOS_PER_REQUEST, UPLOAD_BODY_LIMIT } from "./limits";
import { MultipartError, readMultipart } from "./multipart.server";
import { limitPhotoUpload } from "./upload-limits.server";

/*
 * Photos of service requests: stored under "request-photos/<requestId>/<random>.<ext>" (the
 * user's file name is kept only as a label), served only to the request's owner and to
 * employees. Callers have already checked that the acting customer owns the request.
 */

export const REQUEST_PHOTOS_PREFIX = "request-photos";

export function requestPhotoFolder(requestId: string) {
  return `${REQUEST_PHOTOS_PREFIX}/${requestId}/`;
}

/** A display label from a browser-sent file name: no path, no control characters, short. */
export function photoLabel(filename: string) {
  const base = filename.split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (clean || "photo").slice(0, 200);
}

export type SkippedPhoto = { filename: string; reason: string };

/** Over the 20 photos of a request: nothing of the photo is kept. */
function overTheCap() {
  return new PhotoRejectedError("too-large", `a request holds at most ${MAX_PHOTOS_PER_REQUEST}`);
}

/**
 * Checks, re-encodes and stores one photo. Throws PhotoRejectedError for files that are not
 * acceptable images or that would take the request past its photo limit; anything that fails
 * leaves no file behind.
 *
 * The limit holds under concurrency (ADR 022): the row is written in a transaction that first
 * locks the request's row (SELECT ... FOR UPDATE) and then counts its photos, so parallel
 * uploads to one request take turns at the count and the 21st is refused, on PostgreSQL and on
 * PGlite alike. The early count only saves decoding a photo that has no room anyway.
 */
/** A handyman's photo taken on a visit, before or after the work (neither: the member's own). */
export type VisitPhoto = { afterVisitId?: string; beforeVisitId?: string };

export async function saveRequestPhoto(
  requestId: string,
  file: { filename: string; data: Buffer },
  options: VisitPhoto = {},
): Promise<RequestPhoto> {
  if (file.data.length > MAX_PHOTO_BYTES) {
    throw new PhotoRejectedError("too-large", "over 10 MB");
  }
  if ((await countPhotos(db(), requestId)) >= MAX_PHOTOS_PER_REQUEST) throw overTheCap();

  const processed = await processPhoto(file.data);
  const name = crypto.randomBytes(16).toString("hex");
  const folder = requestPhotoFolder(requestId);
  const filePath = `${folder}${name}.${processed.full.extension}`;
  const thumbnailPath = `${folder}${name}-thumb.${processed.thumbnail.extension}`;
  const written: string[] = [];
  try {
    await storage().put(filePath, processed.full.data, processed.full.contentType);
    written.push(filePath);
    await storage().put(thumbnailPath, processed.thumbnail.data, processed.thumbnail.contentType);
    written.push(thumbnailPath);
    return await db().transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: serviceRequests.id })
        .from(serviceRequests)
        .where(eq(serviceRequests.id, requestId))
        .for("update");
      if (!locked) throw new Error("the request no longer exists");
      if ((await countPhotos(tx, requestId)) >= MAX_PHOTOS_PER_REQUEST) throw overTheCap();
      const [row] = await tx
        .insert(requestPhotos)
        .values({
          requestId,
          filePath,
          thumbnailPath,
          fileName: photoLabel(file.filename),
          fileSize: processed.full.data.length,
          contentType: processed.full.contentType,
          width: processed.full.width,
          height: processed.full.height,
          afterVisitId: options.afterVisitId ?? null,
          beforeVisitId: options.beforeVisitId ?? null,
        })
        .returning();
      return row;
    });
  } catch (error) {
    // Refused at the count, the request deleted meanwhile, or storage failed half way.
    await Promise.allSettled(written.map((key) => storage().delete(key)));
    throw error;
  }
}

async function countPhotos(tx: DbOrTx, requestId: string) {
  const [{ photos }] = await tx
    .select({ photos: count() })
    .from(requestPhotos)
    .where(eq(requestPhotos.requestId, requestId));
  return photos;
}

/** What became of a multipart form's photos. */
export type PhotoUploadResult = {
  fields: Record<string, string>;
  saved: RequestPhoto[];
  skipped: SkippedPhoto[];
};

/**
 * A multipart form with photos, read as it streams, in two steps the caller takes in turn:
 * `fields` (the form's fields sent before its first photo, or all of them when it has none),
 * then `storeInto(requestId)`, which stores each acceptable photo into that request (null skips
 * them all) and reads the rest of the body. So a request can be created from the fields before
 * the first photo is stored, without the photo pipeline calling back into anyone.
 *
 * A photo that fails is logged and skipped (SPEC section 8), so one bad file never loses the
 * others. Each photo counts against its customer's hourly limit before it is decoded; past it
 * the photo is skipped as "rate-limited". `fields` rejects when the body cannot be read before
 * its first photo, `storeInto` when it cannot be read at all (MultipartError: 400, 413, 415).
 */
export function openPhotoUpload(request: Request, customerId: string) {
  const saved: RequestPhoto[] = [];
  const skipped: SkippedPhoto[] = [];
  const fieldsRead = deferred<Record<string, string>>();
  const target = deferred<string | null>();
  let visitPhoto: VisitPhoto = {};
  const requestIdForFile = (fieldsSoFar: Record<string, string>) => {
    fieldsRead.resolve({ ...fieldsSoFar });
    return target.promise;
  };

  const reading = readMultipart(request, {
    maxFileBytes: MAX_PHOTO_BYTES,
    maxFiles: MAX_PHOTOS_PER_REQUEST,
    // The photos' total plus room for the form fields and multipart framing.
    maxTotalBytes: UPLOAD_BODY_LIMIT,
    async onOversize(file, fieldsSoFar) {
      const id = await requestIdForFile(fieldsSoFar);
      skipped.push({ filename: file.filename, reason: "too-large" });
      logger.warn({ requestId: id, file: photoLabel(file.filename) }, "photo over 10 MB skipped");
    },
    async onFile(file, fieldsSoFar) {
      const id = await requestIdForFile(fieldsSoFar);
      if (!id) return;
      if (!(await limitPhotoUpload(customerId)).allowed) {
        skipped.push({ filename: file.filename, reason: "rate-limited" });
        logger.warn(
          { requestId: id, customerId, file: photoLabel(file.filename) },
          "photo skipped: the customer's hourly photo limit is reached",
        );
        return;
      }
      try {
        saved.push(await saveRequestPhoto(id, file, visitPhoto));
      } catch (error) {
        const reason = error instanceof PhotoRejectedError ? error.reason : "failed";
        skipped.push({ filename: file.filename, reason });
        logger.warn(
          {
            requestId: id,
            file: photoLabel(file.filename),
            declaredType: file.declaredType,
            reason,
            err: (error as Error).message,
          },
          "photo upload skipped",
        );
      }
    },
  }).then(
    ({ fields }) => {
      // A form without files: its fields are all there is.
      fieldsRead.resolve(fields);
      return fields;
    },
    (error: unknown) => {
      fieldsRead.reject(error);
      throw error;
    },
  );
  // Whoever stops after `fields` (a refused form) still lets the body be read to its end.
  reading.catch(() => {});

  return {
    fields: fieldsRead.promise,
    /** `afterVisitId`/`beforeVisitId`: a handyman's photo of that visit ('Add photo'). */
    async storeInto(
      requestId: string | null,
      options: VisitPhoto = {},
    ): Promise<PhotoUploadResult> {
      visitPhoto = options;
      target.resolve(requestId);
      const fields = await reading;
      return { fields, saved, skipped };
    },
  };
}

/** Stores a multipart form's photos into an existing request (the photo uploads' route). */
export function receiveRequestPhotos(request: Request, requestId: string, customerId: string) {
  return openPhotoUpload(request, customerId).storeInto(requestId);
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Read or not, a rejection here is also thrown by `storeInto`: never unhandled.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

export { MultipartError };

/** Removes one photo of an owned request: its row, then its files. False when there is none. */
export async function removeRequestPhoto(customerId: string, requestId: string, photoId: string) {
  const [row] = await db()
    .delete(requestPhotos)
    .where(
      and(
        eq(requestPhotos.id, photoId),
        eq(requestPhotos.requestId, requestId),
        // Ownership lives in the query: the request must be this customer's, and still open.
        inArray(
          requestPhotos.requestId,
          db()
            .select({ id: serviceRequests.id })
            .from(serviceRequests)
            .where(
              and(
                eq(serviceRequests.id, requestId),
                eq(serviceRequests.customerId, customerId),
                ne(serviceRequests.status, "complete"),
              ),
            ),
        ),
      ),
    )
    .returning();
  if (!row) return false;
  await deletePhotoFiles([row]);
  return true;
}

/** Deletes stored files; a storage failure is logged (the rows are already gone). */
export async function deletePhotoFiles(photos: Pick<RequestPhoto, "filePath" | "thumbnailPath">[]) {
  const keys = photos.flatMap((photo) => [photo.filePath, photo.thumbnailPath ?? []].flat());
  const results = await Promise.allSettled(keys.map((key) => storage().delete(key)));
  for (const [index, result] of results.entries()) {
    if (result.status === "rejected") {
      logger.error({ key: keys[index], err: String(result.reason) }, "could not delete a photo");
    }
  }
}

/** Deletes everything stored for a request (after its rows are gone). */
export async function deleteRequestPhotoFolder(requestId: string) {
  try {
    await storage().deletePrefix(requestPhotoFolder(requestId));
  } catch (error) {
    logger.error({ requestId, err: (error as Error).message }, "could not delete request photos");
  }
}

/**
 * The photo if `viewer` may see it: its owner, office staff, or a handyman with the request on
 * a visit of theirs (ADR 047). Ownership is part of the query, so another customer's photo is
 * simply not found.
 */
export async function findViewablePhoto(
  viewer: { id: string; isEmployee: boolean; isHandyman?: boolean },
  photoId: string,
) {
  const ownership = viewer.isHandyman
    ? sql`exists (select 1 from ${appointmentTasks} inner join ${appointments} on ${appointments.id} = ${appointmentTasks.appointmentId} where ${appointmentTasks.serviceRequestId} = ${serviceRequests.id} and ${appointments.assignedEmployeeId} = ${viewer.id})`
    : viewer.isEmployee
      ? undefined
      : eq(serviceRequests.customerId, viewer.id);
  const [row] = await db()
    .select({
      id: requestPhotos.id,
      filePath: requestPhotos.filePath,
      thumbnailPath: requestPhotos.thumbnailPath,
      contentType: requestPhotos.contentType,
      fileName: requestPhotos.fileName,
    })
    .from(requestPhotos)
    .innerJoin(serviceRequests, eq(serviceRequests.id, requestPhotos.requestId))
    .where(and(eq(requestPhotos.id, photoId), ownership))
    .limit(1);
  return row ?? null;
}
