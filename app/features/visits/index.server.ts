/** What other features may use of this feature on the server (ESLint enforces it). */
export {
  isRequestOnAnotherVisit,
  mailVisitBooked,
  REQUEST_BOOKED_MESSAGE,
  startVisitCalendar,
  withdrawFromCalendar,
} from "./visits.server";
export { changeVisitState } from "./visit-life.server";
export { staffMoveMemberVisit } from "./member-visits.server";
export { BookAnywayNeededError, recordOverride } from "./overrides.server";
export {
  bookWalkThru,
  customerWalkThrus,
  offerWalkThrus,
  walkThruDefaults,
  walkThruOffer,
  walkThruSchema,
  WALK_THRU_MINUTES,
} from "./walk-thru.server";
