import Stripe from "stripe";
import type { PaymentProvider } from "./provider.server";
import {
  stripeCancelSubscription,
  stripeCheckout,
  stripeCustomerFor,
  stripePayment,
  stripePaymentsSince,
  stripePortalUrl,
  stripeRefund,
  stripeRefundsOf,
  stripeRefundsSince,
  stripeSetRenewal,
  stripeStartCheckout,
} from "./stripe-operations.server";

/*
 * The Stripe adapter: the official SDK, pointed at STRIPE_API_URL when set (a local stand-in in
 * tests). Every answer is read into the port's plain types; nothing of Stripe's shapes leaves
 * this file and its operations (stripe-operations.server.ts). Hosted pages only (Checkout, the customer portal): no card data touches our pages.
 */

export type StripeSettings = { secretKey: string; webhookSecret: string; apiUrl?: string };

const clients = new Map<string, Stripe>();

/** One SDK client per key and address (it keeps its own connection agent). */
export function stripeClient(settings: StripeSettings) {
  const cacheKey = `${settings.secretKey}\n${settings.apiUrl ?? ""}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const base = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
    client = new Stripe(settings.secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (base.protocol === "https:" ? 443 : 80),
            protocol: base.protocol === "https:" ? "https" : "http",
          }
        : {}),
    });
    clients.set(cacheKey, client);
  }
  return client;
}

export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = stripeClient(settings);
  return {
    name: "stripe",
    takesCards: true,
    customerFor: (customer) => stripeCustomerFor(stripe, customer),
    startCheckout: (request, providerCustomerId, idempotencyKey) =>
      stripeStartCheckout(stripe, request, providerCustomerId, idempotencyKey),
    cancelSubscription: (subscriptionId) => stripeCancelSubscription(stripe, subscriptionId),
    setRenewal: (subscriptionId, choice, monthly) =>
      stripeSetRenewal(stripe, subscriptionId, choice, monthly),
    refundsOf: (objectId) => stripeRefundsOf(stripe, objectId),
    portalUrl: (providerCustomerId, returnUrl) =>
      stripePortalUrl(settings, stripe, providerCustomerId, returnUrl),
    checkout: (id) => stripeCheckout(stripe, id),
    payment: (id) => stripePayment(stripe, id),
    refund: (input) => stripeRefund(stripe, input),
    paymentsSince: (since) => stripePaymentsSince(stripe, since),
    refundsSince: (since) => stripeRefundsSince(stripe, since),
  };
}

/** How far a signature's time may be from ours, either way (Stripe's own tolerance). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignedEvent = { id: string; type: string; data: { object: { id?: unknown } } };

export type VerifiedBody =
  | { ok: true; event: SignedEvent }
  | { ok: false; error: "bad signature" | "signed in the future" | "not an event" };

/**
 * A webhook body checked as Stripe's events must be: the signature holds on these exact bytes,
 * its time is within 5 minutes of ours (the SDK refuses an old one; one more than 5 minutes
 * ahead is refused here, which the SDK lets through), and what was signed is an event.
 */
export function verifiedStripeEvent(
  settings: StripeSettings,
  raw: string,
  signature: string,
  now = Date.now(),
): VerifiedBody {
  let parsed: unknown;
  try {
    parsed = stripeClient(settings).webhooks.constructEvent(
      raw,
      signature,
      settings.webhookSecret,
      SIGNATURE_TOLERANCE_SECONDS,
    );
  } catch {
    return { ok: false, error: "bad signature" };
  }
  const stamps = signature
    .split(",")
    .map((part) => part.trim().split("="))
    .filter(([name]) => name === "t")
    .map(([, value]) => Number(value));
  if (!stamps.length || stamps.some((t) => !Number.isFinite(t))) {
    return { ok: false, error: "bad signature" };
  }
  if (Math.max(...stamps) > Math.floor(now / 1000) + SIGNATURE_TOLERANCE_SECONDS) {
    return { ok: false, error: "signed in the future" };
  }
  const event = parsed as Record<string, unknown> | null;
  const data = event && typeof event === "object" ? (event.data as Record<string, unknown>) : null;
  const object = data && typeof data === "object" ? data.object : null;
  if (
    !event ||
    typeof event !== "object" ||
    Array.isArray(event) ||
    event.object !== "event" ||
    typeof event.id !== "string" ||
    !/^evt_[A-Za-z0-9_]{1,250}$/.test(event.id) ||
    typeof event.type !== "string" ||
    !/^[a-z0-9_.]{1,100}$/.test(event.type) ||
    !object ||
    typeof object !== "object" ||
    Array.isArray(object)
  ) {
    return { ok: false, error: "not an event" };
  }
  return { ok: true, event: event as unknown as SignedEvent };
}
