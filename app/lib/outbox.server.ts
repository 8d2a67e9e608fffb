import crypto from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, notInArray, sql } from "drizzle-orm";
import { databaseHandle, db, type DbOrTx } from "~/db/client.server";
import { outbox, type OutboxItem } from "~/db/schema";
import { env } from "./env.server";
import { logger } from "./logger.server";
import { announceEnqueued, idleDelayMs, listenForEnqueued } from "./outbox-wake.server";
import { sendMail, type MailMessage } from "./mail.server";
import { deliverText, type DeliveryOutcome, type TextPayload } from "./texts.server";

/*
 * The transactional outbox: an e-mail or webhook call is written in the same transaction as
 * the row it belongs to, and a worker in every server process delivers it, retrying with
 * backoff until it succeeds.
 *
 * On PostgreSQL each item is delivered inside the transaction that locked it (FOR UPDATE SKIP
 * LOCKED): several processes work side by side without ever taking the same item, and when a
 * process dies mid-delivery its transaction rolls back and another process takes the item at
 * once. Only a crash in the instant between the receiver's answer and the commit can send an
 * item twice; both kinds carry the outbox id (Idempotency-Key header, Message-ID) so the
 * receiver can recognise the repeat. See docs/decisions/006-outbox-delivery-under-lock.md.
 *
 * PGlite is single-connection: a transaction held open during a slow delivery would stall every
 * request, so there an item is claimed with a lease instead (one process only, by the lock on
 * the data directory). A claim is marked (CLAIMED in last_error); since no other process can
 * hold one, the worker releases every marked item when it starts: what a killed process had
 * claimed goes out at once after a restart, not when its lease runs out. An item it was sending
 * may so reach the receiver twice: delivery is at least once, never exactly once, and
 * receivers drop repeats by the outbox id. See docs/decisions/023-outbox-at-least-once.md.
 */

export type OutboxPayloads = {
  email: MailMessage;
  lead_webhook: { url?: string; body: Record<string, unknown>; leadId: string };
  sms: TextPayload;
  /** A payments job (a provider's event to apply, a refund, a scheduled charge...). */
  payment_job: { job: string } & Record<string, unknown>;
};
export type OutboxKind = keyof OutboxPayloads;

/*
 * The payments feature runs its jobs on this worker (ADR 055): it registers its handler when
 * the server starts. Kept on globalThis like the worker, since the server and the app's build
 * may each load this module. Without a handler a payments job fails and is retried later.
 */
const jobHandlerKey = Symbol.for("peachtree-handyman.payment-job-handler");
type PaymentJobHandler = (payload: OutboxPayloads["payment_job"], id: string) => Promise<void>;
type GlobalWithJobHandler = typeof globalThis & { [jobHandlerKey]?: PaymentJobHandler };

export function handlePaymentJobs(handler: PaymentJobHandler) {
  (globalThis as GlobalWithJobHandler)[jobHandlerKey] = handler;
}

export async function enqueue<K extends OutboxKind>(
  tx: DbOrTx,
  kind: K,
  payload: OutboxPayloads[K],
  options: {
    /** The person the message is for (their 'Messages' list). */
    recipientId?: string | null;
    /** Not before this instant (a reminder). */
    notBefore?: Date;
  } = {},
) {
  const [row] = await tx
    .insert(outbox)
    .values({
      kind,
      payload,
      recipientId: options.recipientId ?? null,
      ...(options.notBefore ? { nextAttemptAt: options.notBefore } : {}),
    })
    .returning({ id: outbox.id });
  await announceEnqueued(tx);
  queueMicrotask(() => nudgeOutbox());
  return row.id;
}

/**
 * PGlite: how long a claimed item is kept from being claimed again. Longer than any delivery
 * (webhook 10 s, SMTP at most about 40 s); it only matters if a claim were somehow left behind
 * by a live worker, since claims of a dead process are released at start.
 */
const LEASE_MS = 45_000;
/** PGlite: the mark on an item claimed for delivery (see releaseAbandonedClaims). */
export const CLAIMED = "claimed for delivery";
/** PGlite: what a claim left by a stopped or killed process says once released. */
export const INTERRUPTED = "interrupted: the server stopped while this item was claimed";

export function backoffMs(attempts: number) {
  const { baseBackoffMs: base, maxBackoffMs: max } = env().outbox;
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/**
 * Delivers one item. A text may instead wait (quiet hours) or end without being sent (no
 * consent, a STOP): its outcome says so and is recorded with the item.
 */
async function deliver(
  kind: OutboxKind,
  payload: unknown,
  id: string,
): Promise<DeliveryOutcome | undefined> {
  if (kind === "sms") return deliverText(payload as TextPayload, id);
  if (kind === "payment_job") {
    const handler = (globalThis as GlobalWithJobHandler)[jobHandlerKey];
    if (!handler) throw new Error("no payments job handler in this process");
    await handler(payload as OutboxPayloads["payment_job"], id);
    return;
  }
  if (kind === "email") {
    await sendMail(payload as MailMessage, { messageId: id });
    return;
  }
  const webhook = payload as OutboxPayloads["lead_webhook"];
  const url = webhook.url ?? env().leadWebhookUrl;
  if (!url) return; // no webhook configured: nothing to deliver
  await postWebhook(url, webhook.body, { idempotencyKey: id, timeoutMs: 10_000 });
  return undefined;
}

/** Records a delivered item, or one a text's outcome holds back or ends. */
async function recordOutcome(
  database: DbOrTx,
  item: Pick<OutboxItem, "id" | "attempts">,
  outcome: DeliveryOutcome | undefined,
): Promise<"delivered" | "deferred"> {
  if (outcome && "defer" in outcome) {
    await database
      .update(outbox)
      .set({ nextAttemptAt: outcome.defer, lastError: outcome.note })
      .where(eq(outbox.id, item.id));
    return "deferred";
  }
  await database
    .update(outbox)
    .set({
      deliveredAt: new Date(),
      attempts: item.attempts,
      lastError: null,
      ...(outcome
        ? { providerStatus: outcome.status, providerId: outcome.providerId ?? null }
        : {}),
    })
    .where(eq(outbox.id, item.id));
  return "delivered";
}

/** The one POST to the lead webhook; throws unless the receiver accepts it. */
async function postWebhook(
  url: string,
  body: Record<string, unknown>,
  options: { idempotencyKey: string; timeoutMs: number },
) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": options.idempotencyKey },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
}

/**
 * The lead webhook called at once, for a lead the database could not keep (so no outbox row
 * can be written for it either): one attempt, no retry. True when the receiver accepted it.
 */
export async function sendLeadWebhookNow(body: Record<string, unknown>) {
  const url = env().leadWebhookUrl;
  if (!url) return false;
  try {
    await postWebhook(url, body, { idempotencyKey: crypto.randomUUID(), timeoutMs: 5_000 });
    return true;
  } catch {
    return false;
  }
}

async function recordFailure(
  database: DbOrTx,
  item: Pick<OutboxItem, "id" | "kind" | "attempts">,
  error: unknown,
) {
  const message = error instanceof Error ? error.message : String(error);
  // After OUTBOX_MAX_ATTEMPTS tries the item is given up: it waits under 'Failed deliveries'
  // for office staff to retry it, instead of being tried without end.
  const givenUp = item.attempts >= env().outbox.maxAttempts;
  logger[givenUp ? "error" : "warn"](
    { outboxId: item.id, kind: item.kind, attempts: item.attempts, err: message },
    givenUp
      ? "outbox delivery given up: listed under 'Failed deliveries'"
      : "outbox delivery failed",
  );
  await database
    .update(outbox)
    .set({
      attempts: item.attempts,
      lastError: message.slice(0, 1000),
      nextAttemptAt: new Date(Date.now() + backoffMs(item.attempts)),
      ...(givenUp ? { failedAt: new Date() } : {}),
    })
    .where(and(eq(outbox.id, item.id), isNull(outbox.deliveredAt)));
}

const due = () =>
  and(isNull(outbox.deliveredAt), isNull(outbox.failedAt), lte(outbox.nextAttemptAt, sql`now()`));

export type FailedDelivery = {
  id: string;
  kind: OutboxKind;
  /** What it was: an e-mail's subject and address, a text's number, a payments job's name. */
  summary: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  failedAt: Date;
};

function summaryOf(kind: OutboxKind, payload: unknown) {
  const p = (payload ?? {}) as Record<string, unknown>;
  if (kind === "email") return `E-mail to ${String(p.to ?? "")}: ${String(p.subject ?? "")}`;
  if (kind === "sms") return `Text to ${String(p.to ?? "a member")}`;
  if (kind === "lead_webhook") return "Lead sent to the webhook";
  const job = String(p.job ?? "");
  const about = p.eventId ?? p.refundId ?? p.key ?? "";
  return `Payments job '${job}'${about ? ` (${String(about)})` : ""}`;
}

/** 'Failed deliveries': items given up after OUTBOX_MAX_ATTEMPTS tries, newest first. */
export async function failedDeliveries(limit = 200): Promise<FailedDelivery[]> {
  const rows = await db()
    .select()
    .from(outbox)
    .where(and(isNull(outbox.deliveredAt), isNotNull(outbox.failedAt)))
    .orderBy(desc(outbox.failedAt))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    summary: summaryOf(row.kind, row.payload),
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt,
    failedAt: row.failedAt!,
  }));
}

/**
 * 'Retry' on 'Failed deliveries': the item is due again now with a fresh count of attempts.
 * False when it is no longer waiting there (delivered, or retried already).
 */
export async function retryFailedDelivery(id: string) {
  const [row] = await db()
    .update(outbox)
    .set({ failedAt: null, attempts: 0, nextAttemptAt: new Date() })
    .where(and(eq(outbox.id, id), isNull(outbox.deliveredAt), isNotNull(outbox.failedAt)))
    .returning({ id: outbox.id });
  if (row) nudgeOutbox();
  return Boolean(row);
}

/** PostgreSQL: lock one due item, deliver it and record the outcome in the same transaction. */
async function deliverOneLocked(
  skip: string[],
): Promise<{ id: string; outcome: "delivered" | "failed" } | undefined> {
  return db().transaction(async (tx) => {
    const [item] = await tx
      .select()
      .from(outbox)
      .where(skip.length ? and(due(), notInArray(outbox.id, skip)) : due())
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!item) return undefined;
    const attempt = { ...item, attempts: item.attempts + 1 };
    let outcome: DeliveryOutcome | undefined;
    try {
      outcome = await deliver(item.kind, item.payload, item.id);
    } catch (error) {
      await recordFailure(tx, attempt, error);
      return { id: item.id, outcome: "failed" as const };
    }
    const recorded = await recordOutcome(tx, attempt, outcome);
    return {
      id: item.id,
      outcome: recorded === "delivered" ? ("delivered" as const) : ("failed" as const),
    };
  });
}

/**
 * PGlite: claim a batch with a lease in a short transaction, then deliver outside it, one item
 * after another. When `shouldStop` turns true (shutdown), the items of the batch not yet tried
 * are released at once rather than left under their lease.
 */
async function deliverBatchLeased(limit: number, shouldStop: () => boolean): Promise<number> {
  const database = db();
  const claimed = await database.transaction(async (tx) => {
    const rows = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(due())
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (rows.length === 0) return [];
    return tx
      .update(outbox)
      .set({ nextAttemptAt: new Date(Date.now() + LEASE_MS), lastError: CLAIMED })
      .where(
        inArray(
          outbox.id,
          rows.map((d) => d.id),
        ),
      )
      .returning();
  });
  let delivered = 0;
  for (const [index, claim] of claimed.entries()) {
    if (shouldStop()) {
      const untried = claimed.slice(index).map((c) => c.id);
      await database
        .update(outbox)
        .set({ nextAttemptAt: new Date(), lastError: null })
        .where(and(inArray(outbox.id, untried), isNull(outbox.deliveredAt)));
      break;
    }
    const item = { ...claim, attempts: claim.attempts + 1 };
    let outcome: DeliveryOutcome | undefined;
    try {
      outcome = await deliver(item.kind, item.payload, item.id);
    } catch (error) {
      await recordFailure(database, item, error);
      continue;
    }
    if ((await recordOutcome(database, item, outcome)) === "delivered") delivered++;
  }
  return delivered;
}

/**
 * PGlite: claims left by a process that is gone (killed, or stopped mid-delivery) are due again
 * now. Only one process can open the data directory, so when its worker starts no claim can be
 * live. Returns how many were released.
 */
export async function releaseAbandonedClaims(): Promise<number> {
  if (databaseHandle().kind !== "pglite") return 0;
  const released = await db()
    .update(outbox)
    .set({ nextAttemptAt: new Date(), lastError: INTERRUPTED })
    .where(and(isNull(outbox.deliveredAt), eq(outbox.lastError, CLAIMED)))
    .returning({ id: outbox.id });
  if (released.length) {
    logger.warn(
      { count: released.length },
      "outbox items claimed by a stopped server are due again (a receiver may see one twice)",
    );
  }
  return released.length;
}

/** Delivers up to `limit` due items; returns how many were delivered. */
export async function processOutboxBatch(
  limit = 10,
  shouldStop: () => boolean = () => false,
): Promise<number> {
  if (databaseHandle().kind === "pglite") return deliverBatchLeased(limit, shouldStop);
  let delivered = 0;
  // An item that fails is not tried again in the same batch, even when its backoff is zero.
  const tried: string[] = [];
  for (let i = 0; i < limit && !shouldStop(); i++) {
    const result = await deliverOneLocked(tried);
    if (!result) break;
    tried.push(result.id);
    if (result.outcome === "delivered") delivered++;
  }
  return delivered;
}

const workerKey = Symbol.for("peachtree-handyman.outbox-worker");
type WorkerState = {
  timer?: NodeJS.Timeout;
  running: boolean;
  stopped: boolean;
  /** Work was announced since the last pass began: do not sleep. */
  nudged?: boolean;
  wake?: () => void;
  done?: Promise<void>;
};
type GlobalWithWorker = typeof globalThis & { [workerKey]?: WorkerState };

/** Asks the worker of this process to look for due items now. */
export function nudgeOutbox() {
  const state = (globalThis as GlobalWithWorker)[workerKey];
  if (!state) return;
  state.nudged = true;
  state.wake?.();
}

export function startOutboxWorker(options: { pollMs?: number; databaseUrl?: string } = {}) {
  const pollMs = options.pollMs ?? env().outbox.pollMs;
  const state: WorkerState = { running: true, stopped: false };
  (globalThis as GlobalWithWorker)[workerKey] = state;
  const unlisten = listenForEnqueued(() => nudgeOutbox(), options.databaseUrl);
  state.done = (async () => {
    try {
      await releaseAbandonedClaims();
    } catch (error) {
      logger.error({ err: (error as Error).message }, "outbox worker could not release old claims");
    }
    while (!state.stopped) {
      state.nudged = false;
      // Sleep until woken, the next retry falls due, or the poll bound (outbox-wake.server.ts).
      let delay: number | null = pollMs ?? null;
      try {
        while (!state.stopped && (await processOutboxBatch(10, () => state.stopped)) > 0) {
          // keep draining while there is work
        }
        delay = await idleDelayMs(pollMs);
      } catch (error) {
        logger.error({ err: (error as Error).message }, "outbox worker error");
        delay = Math.min(delay ?? 5_000, 5_000);
      }
      if (state.stopped) break;
      if (state.nudged) continue;
      await new Promise<void>((resolve) => {
        if (delay !== null) state.timer = setTimeout(resolve, delay);
        state.wake = () => {
          clearTimeout(state.timer);
          resolve();
        };
      });
    }
    state.running = false;
  })();
  return {
    async stop() {
      state.stopped = true;
      state.wake?.();
      await state.done;
      await unlisten();
    },
  };
}
