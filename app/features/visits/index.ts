/** What other features may use of this feature in the browser (ESLint enforces it). */
export {
  isFinalVisit,
  isOpenVisit,
  mayTransition,
  onVisitLabel,
  VISIT_STATUS_LABELS,
  type VisitStatus,
} from "./visit-state";
export {
  APPOINTMENT_NOTES_MAX_LENGTH,
  TASK_MAX_LENGTH,
  createAppointmentSchema,
} from "./staff-booking-schema";
export type { CustomerAppointment } from "./types";
