/** What other features may use of this feature on the server (ESLint enforces it). */
export { listCustomers } from "./queries.server";
export type {
  CustomerChoice,
  CustomerHome,
  CustomerRow,
  OpenRequestChoice,
} from "./queries.server";
