import { env } from "~/lib/env.server";
import { manualProvider } from "./manual.server";
import { stripeProvider } from "./stripe.server";

/*
 * The payment provider port (ADR 053). Memberships and the office's pages ask it for what only a
 * card processor can do; the manual adapter (no STRIPE_SECRET_KEY: the embedded default) says
 * it cannot, and staff record payments and refunds by hand as before.
 */

export type CheckoutRequest = {
  offerId: string;
  customer: { id: string; email: string; name: string };
  planName: string;
  billing: "monthly" | "annual";
  /** Monthly: the month's price; annual: the year's. */
  amountCents: number;
  successUrl: string;
  cancelUrl: string;
};

/** An invoice (monthly) or a one-time payment (annual) as the provider reports it now. */
export type ProviderPayment = {
  /** The provider's id of what was paid: an invoice (in_...) or a payment intent (pi_...). */
  id: string;
  status: "paid" | "open" | "failed" | "other";
  amountPaidCents: number;
  /** The payment intent the money came through (what a refund is made against). */
  paymentIntentId: string | null;
  subscriptionId: string | null;
  offerId: string | null;
  /** The instant it was paid, when it was. */
  paidAt: Date | null;
  /** An invoice's own page, where the member can confirm a payment their bank must authorize. */
  hostedUrl?: string | null;
};

export type ProviderCheckout = {
  id: string;
  mode: "subscription" | "payment";
  /** Still open for payment (not paid, not expired): its address may be offered again. */
  open: boolean;
  url: string | null;
  paid: boolean;
  offerId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  /** Subscription: its first invoice; payment: the payment intent. */
  invoiceId: string | null;
  paymentIntentId: string | null;
  amountTotalCents: number;
};

export type ProviderRefund = { id: string; amountCents: number; status: string };

/**
 * A refund as read from the provider, with what we know of it: `source` is set on the refunds we
 * make ("cancel": a cancel's credit, posted by its job; "duplicate": a second payment of one
 * offer, never posted), null for one made in Stripe's own dashboard.
 */
export type ProviderRefundSeen = ProviderRefund & {
  paymentIntentId: string | null;
  customerId: string | null;
  source: string | null;
};

/** The annual renewal as the member chose it ('Switch to monthly', 'Cancel renewal'). */
export type RenewalChoice = "annual" | "monthly" | "cancel";

export interface PaymentProvider {
  readonly name: "stripe" | "manual";
  /** Whether members pay by card online ('Start membership', 'Manage card'). */
  readonly takesCards: boolean;
  /** The provider's customer for one of ours, created on first use. */
  customerFor(customer: { id: string; email: string; name: string }): Promise<string>;
  /**
   * A hosted Checkout page for an offer: its address. `idempotencyKey` names the offer's attempt:
   * the same key gives the same session back, however many requests ask at once.
   */
  startCheckout(
    request: CheckoutRequest,
    providerCustomerId: string,
    idempotencyKey: string,
  ): Promise<{ id: string; url: string }>;
  /** The customer portal (cards, past invoices; no cancel): its address. */
  portalUrl(providerCustomerId: string, returnUrl: string): Promise<string>;
  /** The current state of objects, read again whenever an event names them. */
  checkout(id: string): Promise<ProviderCheckout>;
  payment(invoiceId: string): Promise<ProviderPayment>;
  /** Money back to the card of a payment intent; the key makes a repeat return the same refund. */
  refund(input: {
    paymentIntentId: string;
    /** Omitted: all of it. */
    amountCents?: number;
    idempotencyKey: string;
    /** Why we refund ("cancel", "duplicate"), kept on the refund. */
    source: string;
  }): Promise<ProviderRefund>;
  /** Ends a subscription now (a second one paid for one offer); ending it again is no error. */
  cancelSubscription(subscriptionId: string): Promise<void>;
  /**
   * The next renewal of a yearly subscription: another year, monthly from the renewal date on, or
   * none (it ends on the renewal date).
   */
  setRenewal(
    subscriptionId: string,
    choice: RenewalChoice,
    monthly: { amountCents: number },
  ): Promise<void>;
  /** The refunds of the payment a charge, refund or payment intent belongs to. */
  refundsOf(objectId: string): Promise<ProviderRefundSeen[]>;
  /** Paid invoices and one-time payments created since `since` (reconciliation). */
  paymentsSince(since: Date): Promise<ProviderPayment[]>;
  /** Refunds created since `since` (reconciliation). */
  refundsSince(since: Date): Promise<ProviderRefundSeen[]>;
}

/** The provider this process uses: Stripe when STRIPE_SECRET_KEY is set, else manual. */
export function paymentProvider(): PaymentProvider {
  const settings = env().stripe;
  return settings ? stripeProvider(settings) : manualProvider;
}
