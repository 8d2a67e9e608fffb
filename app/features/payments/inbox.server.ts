import { eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { paymentEvents } from "~/db/schema";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { enqueue } from "~/lib/outbox.server";
import { verifiedStripeEvent } from "./stripe.server";

/*
 * POST /webhooks/stripe (ADR 054): the body is read raw, at most WEBHOOK_BODY_LIMIT bytes, and
 * its Stripe-Signature verified on those exact bytes. A missing or wrong signature: 400 and
 * nothing stored. A good one: the event is stored once by its id (a replay or a concurrent
 * delivery finds the row and stores nothing more) together with the job that applies it, in
 * one transaction, and only then does Stripe get its 200.
 */

/** Stripe's events are a few kilobytes; anything larger is refused before it is parsed. */
export const WEBHOOK_BODY_LIMIT = 64 * 1024;

const answer = (status: number, body: Record<string, unknown>) =>
  Response.json(body, { status, headers: { "cache-control": "no-store" } });

export async function receiveStripeWebhook(request: Request) {
  const settings = env().stripe;
  if (!settings) return answer(404, { error: "Stripe is not configured" });
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > WEBHOOK_BODY_LIMIT) return answer(413, { error: "body too large" });
  const bytes = Buffer.from(await request.arrayBuffer());
  if (bytes.byteLength > WEBHOOK_BODY_LIMIT) return answer(413, { error: "body too large" });
  const signature = request.headers.get("stripe-signature");
  if (!signature) return answer(400, { error: "missing signature" });
  const verified = verifiedStripeEvent(settings, bytes.toString("utf8"), signature);
  // A wrong signature, one dated more than 5 minutes ahead, or a signed body that is not an
  // event: 400 and nothing stored (never a 500: nothing on our side went wrong).
  if (!verified.ok) return answer(400, { error: verified.error });
  const { event } = verified;
  const objectId = event.data.object.id;
  const stored = await storeEvent({
    id: event.id,
    type: event.type,
    objectId: typeof objectId === "string" ? objectId.slice(0, 255) : null,
    payload: event,
  });
  return answer(200, { received: true, duplicate: !stored });
}

/** Stores an event and its job once; false when the id was already there. */
export async function storeEvent(event: {
  id: string;
  type: string;
  objectId: string | null;
  payload: unknown;
}) {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(paymentEvents)
      .values({
        id: event.id,
        type: event.type,
        objectId: event.objectId,
        payload: event.payload,
      })
      .onConflictDoNothing({ target: paymentEvents.id })
      .returning({ id: paymentEvents.id });
    if (!row) {
      logger.info({ eventId: event.id, type: event.type }, "stripe event already received");
      return false;
    }
    await enqueue(tx, "payment_job", { job: "event", eventId: event.id });
    return true;
  });
}

/** How many events are stored and how many of them applied (tests, the bench). */
export async function inboxCounts() {
  const [row] = await db()
    .select({
      stored: sql<number>`count(*)`.mapWith(Number),
      processed: sql<number>`count(${paymentEvents.processedAt})`.mapWith(Number),
    })
    .from(paymentEvents);
  return row;
}

export async function storedEvent(id: string) {
  const [row] = await db().select().from(paymentEvents).where(eq(paymentEvents.id, id));
  return row ?? null;
}
