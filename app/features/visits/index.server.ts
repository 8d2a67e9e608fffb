/** What other features may use of this feature on the server (ESLint enforces it). */
export { createVisit, isRequestOnAnotherVisit } from "./create-visit.server";
export { REQUEST_BOOKED_MESSAGE, VisitRejectedError } from "./visit-errors";
export { mailVisitBooked } from "./visit-mail.server";
export { startVisitCalendar, withdrawFromCalendar } from "./visit-calendar.server";
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
export { listEmployeeAppointments, nextWalkThruOf } from "./visit-lists.server";
export type { EmployeeAppointment } from "./visit-lists.server";
export { appointmentIcs, appointmentIcsFileName, calendarContact } from "./ics.server";
