/** What other features and routes may use of payments in the browser (ESLint enforces it). */
export { MemberPayments, PAYMENT_NOTICES } from "./components/member-payments";
export type { PaymentNotice } from "./components/member-payments";
export { StaffPayments } from "./components/staff-payments";
export type { MemberPaymentsView, StaffPaymentsView } from "./types";
export { RefundsToPay } from "./components/refunds-to-pay";
export type { RefundToPayRow } from "./components/refunds-to-pay";
