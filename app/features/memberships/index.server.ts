/** What other features may use of this feature on the server (ESLint enforces it). */
export {
  MembershipRejectedError,
  VisitSpendRefusedError,
  activeMembershipsOf,
  membershipCounters,
  moveVisitMinutes,
  releaseVisitMinutes,
  reserveVisitMinutes,
  settleVisitMinutes,
  visitSpend,
} from "./membership.server";
export {
  bookingWaitsForPayment,
  markPastDue,
  postPaidPeriod,
  postRefundPaid,
  providerPaymentsOf,
  PAYMENT_WAIT_MESSAGE,
} from "./paid-periods.server";
export {
  bringChargesUpToDate,
  nextChargeDate,
  cancelMembership,
  currentMembership,
  startMembership,
  recordPayment,
  PAYMENT_METHODS,
  PAYMENT_METHOD_LABELS,
} from "./membership.server";
export type {
  ActiveMembership,
  MembershipCounters,
  PaymentMethod,
  SettledVisit,
} from "./membership.server";
export { formatCents } from "./bank";
export { businessNow, longDate } from "./dates";
