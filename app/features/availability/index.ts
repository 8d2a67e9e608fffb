/** What other features may use of this feature (ESLint enforces it); server code: ./index.server. */
export { DOUBLE_BOOKING_MESSAGE, isDoubleBooking } from "./double-booking";
export { VISIT_BLOCKS, isVisitBlock } from "./slots";
export type { OfferedDay, VisitBlock } from "./slots";
export { AvailabilityLinks } from "./components/availability-links";
