/** What other features may use of this feature on the server (ESLint enforces it). */
export {
  isStaffRole,
  LAST_OFFICE_ACCOUNT_MESSAGE,
  LastOfficeAccountError,
  listEmployees,
  setStaffRole,
} from "./employees.server";
export type { EmployeeChoice } from "./employees.server";
