import { databaseHandle } from "~/db/client.server";

/** How long /healthz waits for the database before it answers that it is down. */
export const HEALTH_PING_TIMEOUT_MS = 2_000;

export type Health = {
  status: 200 | 503;
  body:
    | { status: "ok"; database: "up" }
    | { status: "draining"; database: "unknown" }
    | { status: "error"; database: "down"; error: string };
};

/*
 * Health checks that arrive together share their `select 1` (ADR 032). Each still waits for a
 * ping that began after it arrived, so its answer says the database answered after the question
 * was asked: with none in flight, one begins; with one in flight (begun before this caller came),
 * the caller waits for the next, which begins the moment the one in flight settles and serves
 * every caller that came meanwhile. Under load that is one ping per round trip instead of one
 * per request. A ping in flight for longer than the timeout is not waited for: a fresh one
 * begins, so a connection that hangs cannot hold every later check back.
 */
let inFlight: { done: Promise<void>; began: number } | undefined;
let queued: Promise<void> | undefined;

function beginPing(): Promise<void> {
  queued = undefined;
  const done = Promise.resolve().then(() => databaseHandle().ping());
  const entry = { done, began: Date.now() };
  inFlight = entry;
  const settled = () => {
    if (inFlight === entry) inFlight = undefined;
  };
  done.then(settled, settled);
  return done;
}

/** Resolves when a `select 1` begun after this call has answered; rejects if it failed. */
export function pingAfterNow(): Promise<void> {
  if (!inFlight || Date.now() - inFlight.began >= HEALTH_PING_TIMEOUT_MS) return beginPing();
  queued ??= inFlight.done.then(beginPing, beginPing);
  return queued;
}

/**
 * GET /healthz's answer: 503 while the process drains (a load balancer moves away, ADR 004),
 * otherwise a real `select 1` on the database, 503 when it fails or takes over 2 s. Answered by
 * the fast path (server/fast-path.ts) in production and by Express in development.
 */
export async function checkHealth(draining: boolean): Promise<Health> {
  if (draining) return { status: 503, body: { status: "draining", database: "unknown" } };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      pingAfterNow(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), HEALTH_PING_TIMEOUT_MS);
      }),
    ]);
    return { status: 200, body: { status: "ok", database: "up" } };
  } catch (error) {
    return {
      status: 503,
      body: { status: "error", database: "down", error: (error as Error).message },
    };
  } finally {
    clearTimeout(timer);
  }
}
