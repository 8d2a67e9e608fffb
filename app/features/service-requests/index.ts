/** What other features may use of this feature (ESLint enforces it); server code: ./index.server. */
export { showRequestNotice } from "./client-actions";
export { NOTES_MAX_LENGTH, requestStatusSchema, statusLabel } from "./schema";
export { MATCH_COUNT_CAP, shortId } from "./staff-list";
