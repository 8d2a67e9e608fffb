/** What other features may use of this feature on the server (ESLint enforces it). */
export { MultipartError, isMultipart } from "./multipart.server";
export { openPhotoUpload, removeRequestPhoto } from "./request-photos.server";
export { deleteStoredPhoto, readOnePhotoForm, type StoredPhoto } from "./one-photo-form.server";
