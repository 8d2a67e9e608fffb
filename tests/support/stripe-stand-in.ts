import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/*
 * A local stand-in for the Stripe endpoints the product calls (STRIPE_API_URL points the SDK
 * here; the SDK builds and sends every request itself): customers, Checkout Sessions (create,
 * retrieve), the customer portal (a configuration, a session), invoices and payment intents
 * (retrieve, list), refunds (create with Idempotency-Key, list). Bearer auth by the secret key.
 * Test helpers play Stripe's side: a Checkout completed, an invoice paid or failed; `event`
 * signs a webhook body with the SDK's own generateTestHeaderString.
 */

export const E2E_STRIPE = {
  secretKey: "sk_test_e2e_stand_in",
  webhookSecret: "whsec_e2e_stand_in_secret",
};

type Obj = Record<string, unknown> & { id: string };
const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString("hex")}`;

/** Stripe's form encoding ("a[b][0][c]=1") back into objects and arrays. */
export function parseStripeForm(body: string) {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[i + 1]) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

export function createStripeState(options: { secretKey: string; webhookSecret: string }) {
  const objects = new Map<string, Obj>();
  const refundsByKey = new Map<string, Obj>();
  /** Every request the stand-in answered: method and path. */
  const calls: { method: string; path: string; idempotencyKey?: string }[] = [];
  const refunds: Obj[] = [];
  const portalConfigurations: Obj[] = [];
  let base = "";

  /** A payment intent's charge (what Stripe's dashboard refunds and charge.refunded names). */
  function chargeFor(intent: Obj) {
    const charge: Obj = {
      id: newId("ch"),
      object: "charge",
      payment_intent: intent.id,
      amount: intent.amount,
      amount_refunded: 0,
      refunded: false,
      customer: intent.customer ?? null,
    };
    objects.set(charge.id, charge);
    intent.latest_charge = charge.id;
    return charge;
  }

  function invoiceOf(input: {
    customer: string | null;
    subscription: string | null;
    metadata: Record<string, string>;
    amount: number;
    paid: boolean;
    created?: number;
  }) {
    const intent: Obj = {
      id: newId("pi"),
      object: "payment_intent",
      amount: input.amount,
      amount_received: input.paid ? input.amount : 0,
      status: input.paid ? "succeeded" : "requires_payment_method",
      created: input.created ?? now(),
      metadata: {},
      customer: input.customer,
    };
    objects.set(intent.id, intent);
    chargeFor(intent);
    const id = newId("in");
    const invoice: Obj = {
      id,
      object: "invoice",
      hosted_invoice_url: `${base}/invoice/${id}`,
      customer: input.customer,
      status: input.paid ? "paid" : "open",
      amount_due: input.amount,
      amount_paid: input.paid ? input.amount : 0,
      attempt_count: 1,
      created: input.created ?? now(),
      metadata: {},
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: input.subscription, metadata: input.metadata },
      },
      status_transitions: { paid_at: input.paid ? now() : null },
      payments: {
        object: "list",
        data: [
          {
            id: newId("inpay"),
            object: "invoice_payment",
            payment: { type: "payment_intent", payment_intent: intent.id },
          },
        ],
      },
    };
    objects.set(invoice.id, invoice);
    return invoice;
  }

  /** Stripe keeps a POST's answer by its Idempotency-Key: a repeat gets it back. */
  const answersByKey = new Map<string, { path: string; body: string; answer: [number, unknown] }>();

  function answer(req: http.IncomingMessage, body: string): [number, unknown] {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const method = req.method ?? "GET";
    const key = req.headers["idempotency-key"] as string | undefined;
    calls.push({ method, path: url.pathname, idempotencyKey: key });
    if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
      return [401, { error: { type: "invalid_request_error", message: "Invalid API Key" } }];
    }
    if (method === "POST" && key && !url.pathname.startsWith("/v1/refunds")) {
      const seen = answersByKey.get(key);
      if (seen) {
        // As Stripe: the same key with other parameters is refused, not answered again.
        if (seen.path !== url.pathname || seen.body !== body) {
          return [
            400,
            {
              error: {
                type: "idempotency_error",
                message: "Keys for idempotent requests can only be used with the same parameters",
              },
            },
          ];
        }
        return seen.answer;
      }
      const result = route(req, url, method, key, body);
      if (result[0] < 500) answersByKey.set(key, { path: url.pathname, body, answer: result });
      return result;
    }
    return route(req, url, method, key, body);
  }

  function route(
    req: http.IncomingMessage,
    url: URL,
    method: string,
    key: string | undefined,
    body: string,
  ): [number, unknown] {
    const form = parseStripeForm(body) as Record<string, unknown> & {
      metadata?: Record<string, string>;
    };
    const parts = url.pathname.split("/").filter(Boolean);
    const notFound: [number, unknown] = [
      404,
      { error: { type: "invalid_request_error", message: `No such object: ${parts.at(-1)}` } },
    ];
    const listOf = (type: string) => {
      const gte = Number(url.searchParams.get("created[gte]") ?? 0);
      const status = url.searchParams.get("status");
      const byCharge = url.searchParams.get("charge");
      const byIntent = url.searchParams.get("payment_intent");
      let data = [...objects.values()].filter(
        (o) =>
          o.object === type &&
          Number(o.created ?? 0) >= gte &&
          (!status || o.status === status) &&
          (!byCharge || o.charge === byCharge) &&
          (!byIntent || o.payment_intent === byIntent),
      );
      if (url.search.includes("data.payment_intent")) {
        data = data.map((o) => ({
          ...o,
          payment_intent: objects.get(String(o.payment_intent)) ?? o.payment_intent,
        }));
      }
      return [200, { object: "list", data, has_more: false, url: url.pathname }] as [
        number,
        unknown,
      ];
    };
    const path = `${method} /${parts.slice(0, 2).join("/")}${parts.length > 2 ? "/:id" : ""}`;
    switch (path) {
      case "POST /v1/customers": {
        const customer = {
          id: newId("cus"),
          object: "customer",
          email: form.email,
          metadata: form.metadata ?? {},
        };
        objects.set(customer.id, customer);
        return [200, customer];
      }
      case "POST /v1/checkout/:id": {
        if (parts[2] !== "sessions" || parts.length !== 3) return notFound;
        const id = newId("cs_test");
        const lineItems = form.line_items as {
          price_data: { unit_amount: string; recurring?: { interval: string } };
        }[];
        const session = {
          id,
          object: "checkout.session",
          mode: form.mode,
          status: "open",
          payment_status: "unpaid",
          customer: form.customer,
          client_reference_id: form.client_reference_id ?? null,
          metadata: form.metadata ?? {},
          amount_total: Number(lineItems?.[0]?.price_data?.unit_amount ?? 0),
          interval: lineItems?.[0]?.price_data?.recurring?.interval ?? null,
          subscription: null,
          invoice: null,
          payment_intent: null,
          success_url: form.success_url,
          cancel_url: form.cancel_url,
          url: `${base}/pay/${id}`,
        };
        objects.set(id, session);
        return [200, session];
      }
      case "GET /v1/checkout/:id": {
        const session = objects.get(parts[3] ?? "");
        return session ? [200, session] : notFound;
      }
      case "POST /v1/billing_portal/:id": {
        if (parts[2] === "configurations") {
          const configuration = {
            id: newId("bpc"),
            object: "billing_portal.configuration",
            features: form.features,
          };
          portalConfigurations.push(configuration);
          return [200, configuration];
        }
        const session = {
          id: newId("bps"),
          object: "billing_portal.session",
          customer: form.customer,
          configuration: form.configuration,
          url: `${base}/portal/${form.customer}`,
        };
        return [200, session];
      }
      case "GET /v1/invoices/:id":
      case "GET /v1/payment_intents/:id": {
        const found = objects.get(parts[2]);
        return found ? [200, found] : notFound;
      }
      case "GET /v1/invoices":
        return listOf("invoice");
      case "GET /v1/payment_intents":
        return listOf("payment_intent");
      case "GET /v1/refunds":
        return listOf("refund");
      case "GET /v1/refunds/:id": {
        const found = objects.get(parts[2]);
        return found ? [200, found] : notFound;
      }
      case "GET /v1/subscriptions/:id": {
        const found = objects.get(parts[2]);
        return found ? [200, found] : notFound;
      }
      case "POST /v1/subscriptions/:id": {
        const subscription = objects.get(parts[2]);
        if (!subscription) return notFound;
        if (form.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = form.cancel_at_period_end === "true";
        }
        return [200, subscription];
      }
      case "DELETE /v1/subscriptions/:id": {
        const subscription = objects.get(parts[2]);
        if (!subscription) return notFound;
        subscription.status = "canceled";
        return [200, subscription];
      }
      case "POST /v1/subscription_schedules": {
        const subscription = objects.get(String(form.from_subscription));
        if (!subscription) return notFound;
        const item = (subscription.items as { data: { price: Obj }[] }).data[0];
        const schedule: Obj = {
          id: newId("sub_sched"),
          object: "subscription_schedule",
          subscription: subscription.id,
          status: "active",
          end_behavior: "release",
          phases: [
            {
              start_date: subscription.current_period_start,
              end_date: subscription.current_period_end,
              items: [{ price: item.price.id, quantity: 1 }],
            },
          ],
        };
        objects.set(schedule.id, schedule);
        subscription.schedule = schedule.id;
        return [200, schedule];
      }
      case "POST /v1/subscription_schedules/:id": {
        const schedule = objects.get(parts[2]);
        if (!schedule) return notFound;
        if (parts[3] === "release") {
          schedule.status = "released";
          const subscription = objects.get(String(schedule.subscription));
          if (subscription) subscription.schedule = null;
          return [200, schedule];
        }
        if (form.phases) schedule.phases = form.phases;
        if (form.end_behavior) schedule.end_behavior = form.end_behavior;
        return [200, schedule];
      }
      case "POST /v1/refunds": {
        if (key && refundsByKey.has(key)) return [200, refundsByKey.get(key)];
        const intent = objects.get(String(form.payment_intent));
        if (!intent) return notFound;
        const refund = {
          id: newId("re"),
          object: "refund",
          amount: Number(form.amount ?? intent.amount_received),
          payment_intent: intent.id,
          charge: intent.latest_charge ?? null,
          metadata: form.metadata ?? {},
          status: "succeeded",
          created: now(),
        };
        objects.set(refund.id, refund);
        refunds.push(refund);
        if (key) refundsByKey.set(key, refund);
        return [200, refund];
      }
      default:
        return notFound;
    }
  }

  const stripe = new Stripe(options.secretKey);

  return {
    objects,
    calls,
    refunds,
    portalConfigurations,
    setBase(url: string) {
      base = url;
    },
    answer,
    /** Stripe's side of a Checkout paid: the session complete, with its invoice or payment. */
    completeCheckout(sessionId: string) {
      const session = objects.get(sessionId)!;
      const metadata = (session.metadata ?? {}) as Record<string, string>;
      session.status = "complete";
      session.payment_status = "paid";
      if (session.mode === "subscription") {
        const yearly = session.interval === "year";
        const start = now();
        const subscription: Obj = {
          id: newId("sub"),
          object: "subscription",
          metadata,
          customer: session.customer,
          status: "active",
          cancel_at_period_end: false,
          schedule: null,
          current_period_start: start,
          current_period_end: start + (yearly ? 365 : 30) * 86_400,
          items: {
            object: "list",
            data: [
              {
                id: newId("si"),
                price: {
                  id: newId("price"),
                  product: newId("prod"),
                  unit_amount: Number(session.amount_total),
                  recurring: { interval: yearly ? "year" : "month" },
                },
              },
            ],
          },
        };
        objects.set(subscription.id, subscription);
        const invoice = invoiceOf({
          customer: session.customer as string,
          subscription: subscription.id,
          metadata,
          amount: Number(session.amount_total),
          paid: true,
        });
        session.subscription = subscription.id;
        session.invoice = invoice.id;
        return { session, invoice, subscriptionId: subscription.id };
      }
      const intent: Obj = {
        id: newId("pi"),
        object: "payment_intent",
        amount: session.amount_total,
        amount_received: session.amount_total,
        status: "succeeded",
        created: now(),
        metadata,
        customer: session.customer,
      };
      objects.set(intent.id, intent);
      chargeFor(intent);
      session.payment_intent = intent.id;
      return { session, invoice: null, intentId: intent.id };
    },
    /**
     * A subscription's next invoice, paid or failed (an attempt made, the card declined). Without
     * `amount`: the subscription's price, or the next phase's of its schedule ('Switch to
     * monthly'), as Stripe bills a renewal.
     */
    nextInvoice(subscriptionId: string, paid: boolean, amount?: number) {
      const subscription = objects.get(subscriptionId)!;
      if (amount === undefined) {
        const schedule = subscription.schedule ? objects.get(String(subscription.schedule)) : null;
        const phases = (schedule?.phases ?? []) as {
          items: { price_data?: { unit_amount: string } }[];
        }[];
        const next = phases[1]?.items[0]?.price_data?.unit_amount;
        const item = (subscription.items as { data: { price: { unit_amount: number } }[] }).data[0];
        amount = next !== undefined ? Number(next) : item.price.unit_amount;
      }
      return invoiceOf({
        customer: subscription.customer as string,
        subscription: subscriptionId,
        metadata: subscription.metadata as Record<string, string>,
        amount,
        paid,
      });
    },
    /** Stripe's retry succeeded: the invoice is paid now. */
    payInvoice(invoiceId: string) {
      const invoice = objects.get(invoiceId)!;
      invoice.status = "paid";
      invoice.amount_paid = invoice.amount_due;
      invoice.status_transitions = { paid_at: now() };
      const intentId = (invoice.payments as { data: { payment: { payment_intent: string } }[] })
        .data[0].payment.payment_intent;
      const intent = objects.get(intentId)!;
      intent.status = "succeeded";
      intent.amount_received = intent.amount;
      return invoice;
    },
    /** A refund made in Stripe's dashboard (no metadata of ours), and the charge it names. */
    dashboardRefund(paymentIntentId: string, amount?: number) {
      const intent = objects.get(paymentIntentId)!;
      const charge = objects.get(String(intent.latest_charge))!;
      const refund: Obj = {
        id: newId("re"),
        object: "refund",
        amount: amount ?? Number(intent.amount_received),
        payment_intent: intent.id,
        charge: charge.id,
        metadata: {},
        status: "succeeded",
        created: now(),
      };
      objects.set(refund.id, refund);
      refunds.push(refund);
      charge.amount_refunded = Number(charge.amount_refunded) + Number(refund.amount);
      charge.refunded = charge.amount_refunded === charge.amount;
      return { refund, charge };
    },
    /** Any body signed with the webhook secret, at `timestamp` (seconds; now by default). */
    sign(body: string, timestamp?: number) {
      return stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: options.webhookSecret,
        ...(timestamp === undefined ? {} : { timestamp }),
      });
    },
    /** A webhook event about `object`, its body signed as Stripe signs it. */
    event(type: string, object: Obj, id = newId("evt")) {
      const body = JSON.stringify({
        id,
        object: "event",
        api_version: "2025-10-29.clover",
        created: now(),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object },
      });
      const signature = stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: options.webhookSecret,
      });
      return { id, body, signature };
    },
  };
}

export async function startStripeStandIn(options = E2E_STRIPE) {
  const state = createStripeState(options);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const [status, payload] = state.answer(req, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
      res.end(JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  state.setBase(url);
  return {
    ...state,
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
