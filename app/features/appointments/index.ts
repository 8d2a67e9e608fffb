/** What other features may use of this feature (ESLint enforces it); server code: ./index.server. */
export {
  APPOINTMENT_NOTES_MAX_LENGTH,
  TASK_MAX_LENGTH,
  createAppointmentSchema,
} from "./create-appointment-schema";
export type { CustomerAppointment } from "./types";
