import crypto from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { rateLimits } from "~/db/schema";

export type RateLimitResult =
  { allowed: true } | { allowed: false; retryAfterMs: number; minutes: number };

/*
 * Sliding windows in the database, shared by every server process. Each accepted attempt is a
 * row (key, the instant it was made, count: attempts made at that same millisecond); a key's
 * usage is the sum of its rows inside the last `windowMs`. So:
 * - no burst of twice the limit passes around a window's edge: any `windowMs` ever holds at
 *   most `limit` accepted attempts;
 * - 'Please wait N minutes' is true: the wait is until the oldest attempt that keeps the key
 *   full leaves the window, and a refused attempt is not recorded, so it does not lengthen it.
 * A key holds at most `limit` rows per window (old rows are pruned with the table).
 *
 * Each check-and-record runs in one transaction under a transaction-scoped advisory lock per key
 * (taken in a fixed order), so concurrent attempts are counted exactly on PostgreSQL and PGlite
 * alike, and a refused attempt records nothing for any of its keys.
 */

/** The advisory lock class of rate-limit keys (the second number is the key's hash). */
const LOCK_CLASS = 0x5241_5445; // "RATE"

type Entry = { key: string; limit: number };

/** One attempt against one key: allowed while fewer than `limit` were accepted in `windowMs`. */
export function hit(
  key: string,
  limit: number,
  windowMs: number,
  now = Date.now(),
): Promise<RateLimitResult> {
  return hitEntries([{ key, limit }], windowMs, now);
}

/**
 * One attempt against several keys (e.g. per e-mail and per client address): refused if any is
 * full, and then counted against none. A key may carry its own limit (a client address is often
 * many people, so it gets a wider one).
 */
export function hitAll(
  keys: (string | { key: string; limit: number })[],
  limit: number,
  windowMs: number,
  now = Date.now(),
): Promise<RateLimitResult> {
  return hitEntries(
    keys.map((entry) => (typeof entry === "string" ? { key: entry, limit } : entry)),
    windowMs,
    now,
  );
}

async function hitEntries(entries: Entry[], windowMs: number, now: number) {
  // The strictest limit of a key named twice; keys locked in one order (no deadlock).
  const limits = new Map<string, number>();
  for (const { key, limit } of entries) {
    const stored = storedKey(key);
    limits.set(stored, Math.min(limit, limits.get(stored) ?? Infinity));
  }
  const keys = [...limits.keys()].sort();
  const at = new Date(now);
  const since = new Date(now - windowMs);
  return db().transaction(async (tx) => {
    for (const key of keys)
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${key}))`);
    let worst: RateLimitResult = { allowed: true };
    for (const key of keys) {
      const limit = limits.get(key)!;
      const rows = await tx
        .select({ at: rateLimits.windowStart, count: rateLimits.count })
        .from(rateLimits)
        .where(
          and(
            eq(rateLimits.key, key),
            // Attempts stamped a moment later by a concurrent request count too.
            gt(rateLimits.windowStart, since),
            gt(rateLimits.count, 0),
          ),
        )
        .orderBy(rateLimits.windowStart);
      const result = verdict(rows, limit, windowMs, now);
      if (!result.allowed && (worst.allowed || result.retryAfterMs > worst.retryAfterMs))
        worst = result;
    }
    if (!worst.allowed) return worst;
    for (const key of keys)
      await tx
        .insert(rateLimits)
        .values({ key, windowStart: at, count: 1 })
        .onConflictDoUpdate({
          target: [rateLimits.key, rateLimits.windowStart],
          set: { count: sql`${rateLimits.count} + 1` },
        });
    return worst;
  });
}

/**
 * Allowed while the window holds fewer than `limit`; otherwise the wait until enough of the
 * oldest attempts have left it (rows oldest first) for one more to fit.
 */
function verdict(
  rows: { at: Date; count: number }[],
  limit: number,
  windowMs: number,
  now: number,
): RateLimitResult {
  let inWindow = rows.reduce((sum, row) => sum + row.count, 0);
  if (inWindow < limit) return { allowed: true };
  for (const row of rows) {
    inWindow -= row.count;
    if (inWindow < limit) {
      const retryAfterMs = Math.max(1, row.at.getTime() + windowMs - now);
      return {
        allowed: false,
        retryAfterMs,
        minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)),
      };
    }
  }
  // A limit of zero: never allowed, try again after a whole window.
  return { allowed: false, retryAfterMs: windowMs, minutes: Math.ceil(windowMs / 60_000) };
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
 * Takes back one attempt of `key` made at `now` (the instant passed to `hit`), for an attempt
 * that turned out to be legitimate. Never below zero; nothing when that attempt was refused.
 * `windowMs` is kept for the callers; the attempt's own instant identifies it.
 */
export async function refund(key: string, _windowMs: number, now: number) {
  await db()
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(
      and(
        eq(rateLimits.key, storedKey(key)),
        eq(rateLimits.windowStart, new Date(now)),
        gt(rateLimits.count, 0),
      ),
    );
}
