/** What other features may use of this feature on the server (ESLint enforces it). */
export { loadOfferContext, offerVisits } from "./availability.server";
export type { OfferContext } from "./availability.server";
export { loadClosedDays } from "./closed-days.server";
export {
  handymanWarnings,
  insideClosure,
  staffBookingWarnings,
  strandedHeadline,
  visitsInClosure,
  visitTimeLabel,
} from "./closures.server";
export type { Closure, StrandedVisit } from "./closures.server";
export { loadHandymen } from "./availability.server";
export type { Handyman } from "./slots";
