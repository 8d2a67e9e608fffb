/** Shared by the browser (drops oversize files early) and the server (enforces the same). */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** SPEC section 5's words for a photo over it. */
export const PHOTO_TOO_LARGE = "Some files were too large (max 10MB per file)";

/** Several photos per request, but not without end: one request cannot fill the disk. */
export const MAX_PHOTOS_PER_REQUEST = 20;

/**
 * One photo's upload (the request dialogs post one photo per request to
 * /dashboard/requests/:id/photos): the photo at its limit, its part headers and a few fields.
 * A body declared larger is refused before a byte is read (ADR 043).
 */
export const ONE_PHOTO_BODY_LIMIT = MAX_PHOTO_BYTES + 128 * 1024;

/**
 * The photos one form post may carry in all (a request's form without JavaScript, its 'Add
 * photos'): 20 phone photos of a few MB each fit, and a post that declares more is refused
 * from its Content-Length before a byte is read (ADR 043). With JavaScript the dialogs post
 * one photo at a time and never come near it.
 */
export const MAX_PHOTOS_BYTES_PER_POST = 100 * 1024 * 1024;
/** SPEC section 5's words for a photo over its size, and these for a post over its total. */
export const PHOTOS_TOO_LARGE_IN_ALL =
  "Photos sent together can total at most 100MB. Save with fewer photos, then add the rest to the request.";

/** A whole upload request: its photos in all, their part headers, the form's fields. */
export const UPLOAD_BODY_LIMIT =
  MAX_PHOTOS_BYTES_PER_POST + MAX_PHOTOS_PER_REQUEST * 64 * 1024 + 1024 * 1024;

/**
 * Photos one customer may send in an hour, over all requests (ADR 022): a full request's 20
 * five times over. Past it a photo is refused before it is decoded.
 */
export const MAX_PHOTO_UPLOADS_PER_HOUR = 100;
