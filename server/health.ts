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
      databaseHandle().ping(),
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
