/** What other features may use of this feature (ESLint enforces it); server code: ./index.server. */
export { MemberVisitFields } from "./components/member-visit-fields";
export { MembershipLink } from "./components/membership-link";
export { MembershipTermsFields } from "./components/membership-terms-fields";
export { PastDueList } from "./components/past-due-list";
export type { PastDueListRow } from "./components/past-due-list";
