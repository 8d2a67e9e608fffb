/** What other features may use of this feature on the server (ESLint enforces it). */
export { listIntroCallsForStaff } from "./queries.server";
export type { IntroCallListing } from "./queries.server";
