import Stripe from "stripe";
import type {
  PaymentProvider,
  ProviderCheckout,
  ProviderPayment,
  ProviderRefund,
} from "./provider.server";

/*
 * The Stripe adapter: the official SDK, pointed at STRIPE_API_URL when set (a local stand-in in
 * tests). Every answer is read into the port's plain types; nothing of Stripe's shapes leaves
 * this file. Hosted pages only (Checkout, the customer portal): no card data touches our pages.
 */

type StripeSettings = { secretKey: string; webhookSecret: string; apiUrl?: string };

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

const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === "string" ? value : value.id;

/** The portal configuration without cancel (our refund rule, not Stripe's proration). */
const portalConfigurations = new Map<string, Promise<string>>();

function invoicePayment(invoice: Stripe.Invoice): ProviderPayment {
  const paid = invoice.status === "paid";
  const payments = invoice.payments?.data ?? [];
  const intent = payments
    .map((p) => idOf(p.payment?.payment_intent ?? null))
    .find((id): id is string => Boolean(id));
  const subscription = idOf(invoice.parent?.subscription_details?.subscription ?? null);
  const metadata = invoice.parent?.subscription_details?.metadata ?? invoice.metadata ?? {};
  const paidAt = invoice.status_transitions?.paid_at;
  return {
    id: invoice.id ?? "",
    status: paid
      ? "paid"
      : invoice.status === "open"
        ? invoice.attempt_count > 0
          ? "failed"
          : "open"
        : "other",
    amountPaidCents: invoice.amount_paid,
    paymentIntentId: intent ?? null,
    subscriptionId: subscription,
    offerId: metadata.offerId ?? null,
    paidAt: paid && paidAt ? new Date(paidAt * 1000) : null,
  };
}

function intentPayment(intent: Stripe.PaymentIntent): ProviderPayment {
  return {
    id: intent.id,
    status:
      intent.status === "succeeded"
        ? "paid"
        : intent.status === "requires_payment_method"
          ? "failed"
          : "other",
    amountPaidCents: intent.status === "succeeded" ? intent.amount_received : 0,
    paymentIntentId: intent.id,
    subscriptionId: null,
    offerId: intent.metadata?.offerId ?? null,
    paidAt: intent.status === "succeeded" ? new Date(intent.created * 1000) : null,
  };
}

export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = stripeClient(settings);
  return {
    name: "stripe",
    takesCards: true,

    async customerFor(customer) {
      const created = await stripe.customers.create(
        { email: customer.email, name: customer.name, metadata: { customerId: customer.id } },
        { idempotencyKey: `customer-${customer.id}` },
      );
      return created.id;
    },

    async startCheckout(request, providerCustomerId) {
      const name = `${request.planName} membership`;
      const metadata = { offerId: request.offerId, customerId: request.customer.id };
      const session = await stripe.checkout.sessions.create({
        mode: request.billing === "monthly" ? "subscription" : "payment",
        customer: providerCustomerId,
        client_reference_id: request.offerId,
        metadata,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: "usd",
              unit_amount: request.amountCents,
              product_data: { name },
              ...(request.billing === "monthly" ? { recurring: { interval: "month" } } : {}),
            },
          },
        ],
        ...(request.billing === "monthly"
          ? { subscription_data: { metadata } }
          : { payment_intent_data: { metadata } }),
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      });
      if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL");
      return { id: session.id, url: session.url };
    },

    async portalUrl(providerCustomerId, returnUrl) {
      const cacheKey = settings.secretKey;
      let configuration = portalConfigurations.get(cacheKey);
      if (!configuration) {
        configuration = stripe.billingPortal.configurations
          .create({
            business_profile: { headline: "Update your card and see past invoices" },
            features: {
              payment_method_update: { enabled: true },
              invoice_history: { enabled: true },
              subscription_cancel: { enabled: false },
            },
          })
          .then((c) => c.id);
        configuration.catch(() => portalConfigurations.delete(cacheKey));
        portalConfigurations.set(cacheKey, configuration);
      }
      const session = await stripe.billingPortal.sessions.create({
        customer: providerCustomerId,
        configuration: await configuration,
        return_url: returnUrl,
      });
      return session.url;
    },

    async checkout(id): Promise<ProviderCheckout> {
      const session = await stripe.checkout.sessions.retrieve(id);
      return {
        id: session.id,
        mode: session.mode === "subscription" ? "subscription" : "payment",
        paid: session.status === "complete" && session.payment_status === "paid",
        offerId: session.metadata?.offerId ?? session.client_reference_id ?? null,
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
        invoiceId: idOf(session.invoice),
        paymentIntentId: idOf(session.payment_intent),
        amountTotalCents: session.amount_total ?? 0,
      };
    },

    async payment(id) {
      if (id.startsWith("pi_")) return intentPayment(await stripe.paymentIntents.retrieve(id));
      return invoicePayment(await stripe.invoices.retrieve(id, { expand: ["payments"] }));
    },

    async refund(input): Promise<ProviderRefund> {
      const refund = await stripe.refunds.create(
        { payment_intent: input.paymentIntentId, amount: input.amountCents },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: refund.id, amountCents: refund.amount, status: refund.status ?? "pending" };
    },

    async paymentsSince(since) {
      const created = { gte: Math.floor(since.getTime() / 1000) };
      const found: ProviderPayment[] = [];
      for await (const invoice of stripe.invoices.list({
        created,
        status: "paid",
        limit: 100,
        expand: ["data.payments"],
      })) {
        found.push(invoicePayment(invoice));
      }
      for await (const intent of stripe.paymentIntents.list({ created, limit: 100 })) {
        // Annual memberships pay once through Checkout: an intent with our offer on it.
        if (intent.metadata?.offerId && intent.status === "succeeded") {
          found.push(intentPayment(intent));
        }
      }
      return found;
    },

    async refundsSince(since) {
      const found: (ProviderRefund & { paymentIntentId: string | null })[] = [];
      for await (const refund of stripe.refunds.list({
        created: { gte: Math.floor(since.getTime() / 1000) },
        limit: 100,
      })) {
        found.push({
          id: refund.id,
          amountCents: refund.amount,
          status: refund.status ?? "pending",
          paymentIntentId: idOf(refund.payment_intent),
        });
      }
      return found;
    },
  };
}

/** The verified event of a webhook body, or null when the signature does not hold. */
export function verifiedStripeEvent(settings: StripeSettings, raw: string, signature: string) {
  try {
    return stripeClient(settings).webhooks.constructEvent(raw, signature, settings.webhookSecret);
  } catch {
    return null;
  }
}
