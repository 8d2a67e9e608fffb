/** What other features, routes and the server may use of payments (ESLint enforces it). */
export { registerPaymentJobs, runPaymentJob } from "./jobs.server";
export {
  receiveStripeWebhook,
  storeEvent,
  inboxCounts,
  storedEvent,
  WEBHOOK_BODY_LIMIT,
} from "./inbox.server";
export { applyEvent, HANDLED_EVENTS } from "./events.server";
export {
  acceptOffer,
  manageCardUrl,
  openOfferOf,
  sendMembershipOffer,
  startOfferByHand,
  startOfferCheckout,
  withdrawOffer,
  CHECKOUT_ALREADY_PAID,
  NO_OPEN_OFFER,
  OFFER_EXISTS,
} from "./offers.server";
export type { OfferView } from "./offers.server";
export {
  isRefundOf,
  markRefundPaid,
  queueRefund,
  queueSubscriptionEnd,
  refundsToPay,
  refundsToPayOf,
  REFUND_NOT_OPEN,
} from "./refunds.server";
export type { RefundToPay } from "./refunds.server";
export {
  planSchedule,
  reconcile,
  runPastDueCheck,
  RENEWAL_NOTICE_DAYS,
  runRenewalEnd,
  runRenewalNotice,
  runScheduledCharge,
  scheduleOnce,
} from "./schedule.server";
export { chooseRenewal, RENEWAL_ANSWERS } from "./renewals.server";
export type { RenewalChoiceInput } from "./renewals.server";
export { postRefundsMadeInStripe } from "./refunds.server";
export { paymentProvider } from "./provider.server";
export type { PaymentProvider } from "./provider.server";
export { memberPaymentsView, staffPaymentsView } from "./views.server";
