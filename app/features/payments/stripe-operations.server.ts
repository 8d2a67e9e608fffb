import type Stripe from "stripe";
import type {
  PaymentProvider,
  ProviderCheckout,
  ProviderPayment,
  ProviderRefund,
  ProviderRefundSeen,
} from "./provider.server";
import type { StripeSettings } from "./stripe.server";

/*
 * The Stripe adapter's operations (stripe.server.ts wires them into the payment port), one
 * function each, given the SDK client. Every answer is read into the port's plain types.
 */

/** A port operation, given the SDK client first (and, before it, anything else it needs). */
type Operation<
  K extends keyof PaymentProvider,
  Before extends unknown[] = [],
> = PaymentProvider[K] extends (...args: infer A) => infer R
  ? (...args: [...Before, Stripe, ...A]) => R
  : never;

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
    hostedUrl: invoice.hosted_invoice_url ?? null,
  };
}

function refundSeen(refund: Stripe.Refund, customerId: string | null): ProviderRefundSeen {
  return {
    id: refund.id,
    amountCents: refund.amount,
    status: refund.status ?? "pending",
    paymentIntentId: idOf(refund.payment_intent),
    customerId,
    source: refund.metadata?.source ?? null,
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

export const stripeCustomerFor: Operation<"customerFor"> = async (stripe, customer) => {
  const created = await stripe.customers.create(
    { email: customer.email, name: customer.name, metadata: { customerId: customer.id } },
    { idempotencyKey: `customer-${customer.id}` },
  );
  return created.id;
};
export const stripeStartCheckout: Operation<"startCheckout"> = async (
  stripe,
  request,
  providerCustomerId,
  idempotencyKey,
) => {
  const name = `${request.planName} membership`;
  const metadata = { offerId: request.offerId, customerId: request.customer.id };
  // Both billings are subscriptions: monthly, or yearly (the renewal is charged by Stripe
  // on the anniversary, with its own retries and the bank's authentication when asked).
  // Every parameter follows from the offer, so a repeat of the key asks the same thing
  // (Stripe refuses a key reused with other parameters).
  const session = await stripe.checkout.sessions.create(
    {
      mode: "subscription",
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
            recurring: { interval: request.billing === "monthly" ? "month" : "year" },
          },
        },
      ],
      subscription_data: { metadata },
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
    },
    { idempotencyKey },
  );
  if (!session.url) throw new Error("Stripe returned a Checkout Session without a URL");
  return { id: session.id, url: session.url };
};
export const stripeCancelSubscription: Operation<"cancelSubscription"> = async (
  stripe,
  subscriptionId,
) => {
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  if (subscription.status === "canceled") return;
  await stripe.subscriptions.cancel(
    subscriptionId,
    {},
    { idempotencyKey: `cancel-${subscriptionId}` },
  );
};
export const stripeSetRenewal: Operation<"setRenewal"> = async (
  stripe,
  subscriptionId,
  choice,
  monthly,
) => {
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  const scheduleId = idOf(subscription.schedule);
  // A switch planned before is undone first: the subscription renews as it is again.
  if (scheduleId) await stripe.subscriptionSchedules.release(scheduleId);
  await stripe.subscriptions.update(subscriptionId, {
    cancel_at_period_end: choice === "cancel",
  });
  if (choice !== "monthly") return;
  // 'Switch to monthly': this year runs to its end as paid, then the same subscription
  // bills the month's price each month (a schedule of two phases, released after).
  const item = subscription.items.data[0];
  const schedule = await stripe.subscriptionSchedules.create({
    from_subscription: subscriptionId,
  });
  const current = schedule.phases[0];
  await stripe.subscriptionSchedules.update(schedule.id, {
    end_behavior: "release",
    phases: [
      {
        items: [{ price: item.price.id, quantity: 1 }],
        start_date: current.start_date,
        end_date: current.end_date,
      },
      {
        items: [
          {
            quantity: 1,
            price_data: {
              currency: "usd",
              product: idOf(item.price.product) ?? "",
              unit_amount: monthly.amountCents,
              recurring: { interval: "month" },
            },
          },
        ],
      },
    ],
  });
};
export const stripeRefundsOf: Operation<"refundsOf"> = async (stripe, objectId) => {
  let filter: Stripe.RefundListParams;
  if (objectId.startsWith("ch_")) filter = { charge: objectId };
  else if (objectId.startsWith("pi_")) filter = { payment_intent: objectId };
  else {
    const refund = await stripe.refunds.retrieve(objectId);
    const intent = idOf(refund.payment_intent);
    if (!intent) return [refundSeen(refund, null)];
    filter = { payment_intent: intent };
  }
  const found: Stripe.Refund[] = [];
  for await (const refund of stripe.refunds.list({ ...filter, limit: 100 })) {
    found.push(refund);
  }
  const intents = new Map<string, string | null>();
  for (const refund of found) {
    const intent = idOf(refund.payment_intent);
    if (intent && !intents.has(intent)) {
      intents.set(intent, idOf((await stripe.paymentIntents.retrieve(intent)).customer));
    }
  }
  return found.map((r) => refundSeen(r, intents.get(idOf(r.payment_intent) ?? "") ?? null));
};
export const stripePortalUrl: Operation<"portalUrl", [settings: StripeSettings]> = async (
  settings,
  stripe,
  providerCustomerId,
  returnUrl,
) => {
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
};
export const stripeCheckout: Operation<"checkout"> = async (
  stripe,
  id,
): Promise<ProviderCheckout> => {
  const session = await stripe.checkout.sessions.retrieve(id);
  return {
    id: session.id,
    mode: session.mode === "subscription" ? "subscription" : "payment",
    open: session.status === "open",
    url: session.url ?? null,
    paid: session.status === "complete" && session.payment_status === "paid",
    offerId: session.metadata?.offerId ?? session.client_reference_id ?? null,
    customerId: idOf(session.customer),
    subscriptionId: idOf(session.subscription),
    invoiceId: idOf(session.invoice),
    paymentIntentId: idOf(session.payment_intent),
    amountTotalCents: session.amount_total ?? 0,
  };
};
export const stripePayment: Operation<"payment"> = async (stripe, id) => {
  if (id.startsWith("pi_")) return intentPayment(await stripe.paymentIntents.retrieve(id));
  return invoicePayment(await stripe.invoices.retrieve(id, { expand: ["payments"] }));
};
export const stripeRefund: Operation<"refund"> = async (stripe, input): Promise<ProviderRefund> => {
  const refund = await stripe.refunds.create(
    {
      payment_intent: input.paymentIntentId,
      ...(input.amountCents === undefined ? {} : { amount: input.amountCents }),
      metadata: { source: input.source },
    },
    { idempotencyKey: input.idempotencyKey },
  );
  return { id: refund.id, amountCents: refund.amount, status: refund.status ?? "pending" };
};
export const stripePaymentsSince: Operation<"paymentsSince"> = async (stripe, since) => {
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
};
export const stripeRefundsSince: Operation<"refundsSince"> = async (stripe, since) => {
  const found: ProviderRefundSeen[] = [];
  for await (const refund of stripe.refunds.list({
    created: { gte: Math.floor(since.getTime() / 1000) },
    limit: 100,
    expand: ["data.payment_intent"],
  })) {
    const intent = refund.payment_intent;
    found.push(
      refundSeen(refund, intent && typeof intent === "object" ? idOf(intent.customer) : null),
    );
  }
  return found;
};
