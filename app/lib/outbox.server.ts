import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { env } from "./env.server";
import { logger } from "./logger.server";
import { sendMail, type MailMessage } from "./mail.server";

/*
 * The transactional outbox: an e-mail or webhook call is written in the same transaction as
 * the row it belongs to, and a worker in every server process delivers it, retrying with
 * backoff until it succeeds. Claims use FOR UPDATE SKIP LOCKED and a lease, so several
 * processes can run workers side by side.
 */

export type OutboxPayloads = {
  email: MailMessage;
  lead_webhook: { url?: string; body: Record<string, unknown>; leadId: string };
};
export type OutboxKind = keyof OutboxPayloads;

export async function enqueue<K extends OutboxKind>(
  tx: DbOrTx,
  kind: K,
  payload: OutboxPayloads[K],
) {
  const [row] = await tx.insert(outbox).values({ kind, payload }).returning({ id: outbox.id });
  queueMicrotask(() => nudgeOutbox());
  return row.id;
}

const LEASE_MS = 60_000;

export function backoffMs(attempts: number) {
  const { baseBackoffMs: base, maxBackoffMs: max } = env().outbox;
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

async function deliver(kind: OutboxKind, payload: unknown, id: string) {
  if (kind === "email") {
    await sendMail(payload as MailMessage);
    return;
  }
  const webhook = payload as OutboxPayloads["lead_webhook"];
  const url = webhook.url ?? env().leadWebhookUrl;
  if (!url) return; // no webhook configured: nothing to deliver
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "idempotency-key": id },
    body: JSON.stringify(webhook.body),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
}

/** Claims and delivers one batch of due items; returns how many were delivered. */
export async function processOutboxBatch(limit = 10): Promise<number> {
  const database = db();
  const claimed = await database.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(isNull(outbox.deliveredAt), lte(outbox.nextAttemptAt, sql`now()`)))
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(outbox)
      .set({
        nextAttemptAt: new Date(Date.now() + LEASE_MS),
        attempts: sql`${outbox.attempts} + 1`,
      })
      .where(
        inArray(
          outbox.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
  let delivered = 0;
  for (const item of claimed) {
    try {
      await deliver(item.kind, item.payload, item.id);
      await database
        .update(outbox)
        .set({ deliveredAt: new Date(), lastError: null })
        .where(eq(outbox.id, item.id));
      delivered++;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.warn(
        { outboxId: item.id, kind: item.kind, attempts: item.attempts, err: message },
        "outbox delivery failed",
      );
      await database
        .update(outbox)
        .set({ lastError: message, nextAttemptAt: new Date(Date.now() + backoffMs(item.attempts)) })
        .where(eq(outbox.id, item.id));
    }
  }
  return delivered;
}

const workerKey = Symbol.for("peachtree-handyman.outbox-worker");
type WorkerState = {
  timer?: NodeJS.Timeout;
  running: boolean;
  stopped: boolean;
  wake?: () => void;
  done?: Promise<void>;
};
type GlobalWithWorker = typeof globalThis & { [workerKey]?: WorkerState };

/** Asks the worker of this process to look for due items now. */
export function nudgeOutbox() {
  (globalThis as GlobalWithWorker)[workerKey]?.wake?.();
}

export function startOutboxWorker(options: { pollMs?: number } = {}) {
  const pollMs = options.pollMs ?? env().outbox.pollMs;
  const state: WorkerState = { running: true, stopped: false };
  (globalThis as GlobalWithWorker)[workerKey] = state;
  state.done = (async () => {
    while (!state.stopped) {
      try {
        while (!state.stopped && (await processOutboxBatch()) > 0) {
          // keep draining while there is work
        }
      } catch (error) {
        logger.error({ err: (error as Error).message }, "outbox worker error");
      }
      if (state.stopped) break;
      await new Promise<void>((resolve) => {
        state.timer = setTimeout(resolve, pollMs);
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
    },
  };
}
