/** What other features may use of this feature on the server (ESLint enforces it). */
export { listEmployeeAppointments } from "./employee-appointments.server";
export type { EmployeeAppointment } from "./employee-appointments.server";
export { appointmentIcs, appointmentIcsFileName, calendarContact } from "./ics.server";
