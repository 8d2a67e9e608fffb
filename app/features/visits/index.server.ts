/** What other features may use of this feature on the server (ESLint enforces it). */
export { startVisitCalendar, withdrawFromCalendar } from "./visits.server";
