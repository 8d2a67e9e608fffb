import { receiveStripeWebhook } from "~/features/payments/index.server";

/*
 * POST /webhooks/stripe: Stripe's events, signed (Stripe-Signature, verified on the raw body).
 * A missing or wrong signature: 400 and nothing stored; a body over 64 KB: 413. Each event is
 * stored once by its id before the 200, and applied by a job (app/features/payments, ADR 054).
 */

export async function action({ request }: { request: Request }) {
  if (request.method !== "POST") return new Response("Method Not Allowed", { status: 405 });
  return receiveStripeWebhook(request);
}

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { allow: "POST" } });
}
