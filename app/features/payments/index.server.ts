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
  NO_OPEN_OFFER,
  OFFER_EXISTS,
} from "./offers.server";
export type { OfferView } from "./offers.server";
export {
  markRefundPaid,
  queueRefund,
  refundsToPay,
  refundsToPayOf,
  REFUND_NOT_OPEN,
} from "./refunds.server";
export type { RefundToPay } from "./refunds.server";
export { planSchedule, reconcile, scheduleOnce } from "./schedule.server";
export { paymentProvider } from "./provider.server";
export type { PaymentProvider } from "./provider.server";
export { memberPaymentsView, staffPaymentsView } from "./views.server";
