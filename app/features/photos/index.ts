/** What other features may use of this feature (ESLint enforces it); server code: ./index.server. */
export { PhotoPicker } from "./components/photo-picker";
export { usePhotoQueue } from "./use-photo-queue";
