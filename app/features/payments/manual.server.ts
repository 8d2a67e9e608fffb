import type { PaymentProvider } from "./provider.server";

/*
 * The manual adapter: no card processor. Staff record each payment ('Record payment') and each
 * refund ('Mark refund paid') by hand; the membership starts when staff record the first
 * payment of an offer (ADR 053). Asking it for a card flow is a programming error.
 */

class NoCardProcessorError extends Error {
  constructor(what: string) {
    super(`${what} needs a card processor (STRIPE_SECRET_KEY is not set)`);
    this.name = "NoCardProcessorError";
  }
}

const refuse = (what: string) => () => Promise.reject(new NoCardProcessorError(what));

export const manualProvider: PaymentProvider = {
  name: "manual",
  takesCards: false,
  customerFor: refuse("A card customer"),
  startCheckout: refuse("Checkout"),
  portalUrl: refuse("The customer portal"),
  checkout: refuse("A Checkout Session"),
  payment: refuse("An invoice"),
  refund: refuse("A card refund"),
  cancelSubscription: refuse("A subscription"),
  setRenewal: refuse("A subscription"),
  refundsOf: refuse("A card refund"),
  // Nothing was paid elsewhere: reconciliation has nothing to compare.
  paymentsSince: () => Promise.resolve([]),
  refundsSince: () => Promise.resolve([]),
};
