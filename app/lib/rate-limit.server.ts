import crypto from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";

export type RateLimitResult =
  { allowed: true } | { allowed: false; retryAfterMs: number; minutes: number };

/**
 * A fixed-window counter in the database, shared by every server process. The increment is a
 * single INSERT ... ON CONFLICT DO UPDATE ... RETURNING, atomic on PostgreSQL, so a burst of
 * concurrent attempts can never get more than `limit` through.
 */
export async function hit(
  key: string,
  limit: number,
  windowMs: number,
  now = Date.now(),
): Promise<RateLimitResult> {
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const [row] = await db()
    .insert(rateLimits)
    .values({ key: storedKey(key), windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  if (row.count <= limit) return { allowed: true };
  const retryAfterMs = windowStart.getTime() + windowMs - now;
  return { allowed: false, retryAfterMs, minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)) };
}

/**
 * Keys hold what a client sent (an address from X-Forwarded-For, an e-mail): a long one is
 * stored as its hash, since PostgreSQL cannot index a key of several kilobytes.
 */
function storedKey(key: string) {
  if (key.length <= 200) return key;
  return `${key.slice(0, 40)}…sha256:${crypto.createHash("sha256").update(key).digest("hex")}`;
}

/**
 * Checks several keys (e.g. per e-mail and per client address); refused if any is over. A key
 * may carry its own limit (a client address is often many people, so it gets a wider one).
 */
export async function hitAll(
  keys: (string | { key: string; limit: number })[],
  limit: number,
  windowMs: number,
  now = Date.now(),
): Promise<RateLimitResult> {
  let worst: RateLimitResult = { allowed: true };
  for (const entry of keys) {
    const [key, keyLimit] = typeof entry === "string" ? [entry, limit] : [entry.key, entry.limit];
    const result = await hit(key, keyLimit, windowMs, now);
    if (!result.allowed && (worst.allowed || result.retryAfterMs > worst.retryAfterMs))
      worst = result;
  }
  return worst;
}

/**
 * Takes back one hit of `key` from the window that held `now` (the instant passed to `hit`), for
 * an attempt that turned out to be legitimate. Never below zero; atomic like `hit`.
 */
export async function refund(key: string, windowMs: number, now: number) {
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  await db()
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(
      and(
        eq(rateLimits.key, storedKey(key)),
        eq(rateLimits.windowStart, windowStart),
        gt(rateLimits.count, 0),
      ),
    );
}
