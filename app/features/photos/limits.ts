/** Shared by the browser (drops oversize files early) and the server (enforces the same). */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

/** Several photos per request, but not without end: one request cannot fill the disk. */
export const MAX_PHOTOS_PER_REQUEST = 20;

/** A whole upload request: every photo at its limit, their part headers, the form's fields. */
export const UPLOAD_BODY_LIMIT =
  MAX_PHOTOS_PER_REQUEST * (MAX_PHOTO_BYTES + 64 * 1024) + 1024 * 1024;

/**
 * Photos one customer may send in an hour, over all requests (ADR 022): a full request's 20
 * five times over. Past it a photo is refused before it is decoded.
 */
export const MAX_PHOTO_UPLOADS_PER_HOUR = 100;
