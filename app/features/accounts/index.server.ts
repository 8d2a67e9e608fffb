/** What other features may use of this feature on the server (ESLint enforces it). */
export { isStaffRole, listEmployees, setStaffRole } from "./employees.server";
export type { EmployeeChoice } from "./employees.server";
