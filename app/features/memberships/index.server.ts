/**
 * What other features may use of this feature on the server (ESLint enforces it). The feature
 * is split by concern: errors, ledger (locks, the two ledgers, charges due), start, visit
 * minutes, money (payments recorded), parts, summary (the bank), statement, counters, and the
 * cancel's settlement. The cancel's effects on visits and payments are given by the workflow that
 * composes it (app/workflows/cancel-membership.server.ts, ADR 090).
 */
export {
  ALREADY_MEMBER,
  MembershipRejectedError,
  NO_HOME,
  NOT_FOUND,
  VisitSpendRefusedError,
} from "./errors.server";
export { bringChargesUpToDate, nextChargeDate } from "./ledger.server";
export { OFFER_ALREADY_STARTED, startMembership, startMembershipWithPayment } from "./start.server";
export type { StartMembershipInput } from "./start.server";
export {
  extraVisitCharge,
  moveVisitMinutes,
  releaseVisitMinutes,
  reserveVisitMinutes,
  settleVisitMinutes,
  timeWorked,
  visitHold,
} from "./visit-minutes.server";
export type { ReserveResult, SettledVisit } from "./visit-minutes.server";
export {
  assertRefundWithinReceived,
  moneyReceived,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  recordPayment,
} from "./money.server";
export type { PaymentMethod } from "./money.server";
export { currentMembership, memberBankSummary, meterTextOf, visitSpend } from "./summary.server";
export type { VisitSpend } from "./summary.server";
export { membershipStatement } from "./statement.server";
export {
  addPart,
  addPartOnce,
  correctPartOnce,
  markPartBoughtOnce,
  removePartOnce,
  SHOPPING_FEE_CENTS,
} from "./parts.server";
export { findViewableReceipt } from "./part-receipts.server";
export type { StatementEntry } from "./statement.server";
export { activeMembershipsOf, membershipCounters } from "./counters.server";
export type { ActiveMembership, MembershipCounters } from "./counters.server";
export {
  bookingWaitsForPayment,
  markPastDue,
  NOT_ANNUAL,
  postPaidPeriod,
  setRenewalChoice,
  postRefundPaid,
  providerPaymentsOf,
  PAYMENT_WAIT_BY_HAND_MESSAGE,
  PAYMENT_WAIT_MESSAGE,
} from "./paid-periods.server";
export { checkPastDue, pastDueMemberships } from "./past-due.server";
export type { PastDueRow } from "./past-due.server";
export { howToPayByHand } from "./emails.server";
export {
  activeMembershipOf,
  NO_ACTIVE_MEMBERSHIP,
  previewCancellation,
  settleMembershipCancel,
} from "./cancel.server";
export type { CancelEffects, CancelResult } from "./cancel.server";
export type { Actor } from "./ledger.server";
export {
  chargeSecondHandyman,
  reverseSecondHandyman,
  secondHandymanFeeNet,
} from "./second-handyman-fee.server";
export { SECOND_HANDYMAN_FEE_LABEL } from "./settlement";
