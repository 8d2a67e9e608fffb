/** What other features may use of this feature on the server (ESLint enforces it). */
export { listEmployees } from "./employees.server";
export type { EmployeeChoice } from "./employees.server";
