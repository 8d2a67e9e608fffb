/** What other features and routes may use of payments in the browser (ESLint enforces it). */
export {
  CALL_ASKED_MESSAGE,
  CHECKOUT_DONE_MESSAGE,
  MemberPayments,
} from "./components/member-payments";
export { StaffPayments } from "./components/staff-payments";
export type { MemberPaymentsView, StaffPaymentsView } from "./types";
export { RefundsToPay } from "./components/refunds-to-pay";
export type { RefundToPayRow } from "./components/refunds-to-pay";
