import { and, isNotNull, lt, sql } from "drizzle-orm";
import { databaseHandle, db } from "~/db/client.server";
import { outbox, rateLimits, session, textCodes, verification } from "~/db/schema";
import { forgetOldActionKeys } from "./action-keys.server";
import { logger } from "./logger.server";

/*
 * Housekeeping: tables that only grow are trimmed by a periodic pass in every server process
 * (docs/decisions/024-housekeeping.md, docs/operations.md "Housekeeping"):
 * - rate_limits: windows that started more than a day ago (the longest window in use is a day:
 *   the texted codes per number, ADR 086; sign-in attempts count 15 minutes, leads and intro
 *   calls 10 minutes, per-customer limits an hour), so nothing past a day still counts;
 * - session and verification: rows past their expiry (Better Auth refuses them anyway);
 * - outbox: items delivered more than 30 days ago (undelivered ones are never deleted);
 * - action_keys: idempotency keys claimed more than 30 days ago (ADR 048, 075): a retry or a
 *   double tap comes within minutes, so a form sent again within 30 days is still applied once;
 * - text_codes: codes texted more than 2 days ago (ADR 086): a code lives 5 minutes and the
 *   pumping guard reads the last hour.
 * On PostgreSQL a pass runs under a transaction-scoped advisory lock: when several processes
 * start one at the same moment, one does the work and the others skip. The deletes are
 * idempotent, so a pass repeated or interrupted does no harm.
 */

export const RATE_LIMIT_RETENTION_MS = 24 * 60 * 60_000;
export const DELIVERED_OUTBOX_RETENTION_MS = 30 * 24 * 60 * 60_000;
export const TEXT_CODE_RETENTION_MS = 2 * 24 * 60 * 60_000;
/** The first pass, shortly after start (not during start-up itself). */
export const HOUSEKEEPING_FIRST_PASS_MS = 60_000;
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;
/** pg_try_advisory_xact_lock key: "housekeeping" (any constant the product uses once). */
const LOCK_KEY = 0x686b6570;

export type HousekeepingCounts = {
  rateLimits: number;
  sessions: number;
  verifications: number;
  outbox: number;
  actionKeys: number;
  textCodes: number;
};

/**
 * One pass. Returns what it deleted, or null when another process was doing a pass already.
 */
export async function runHousekeeping(now = new Date()): Promise<HousekeepingCounts | null> {
  const kind = databaseHandle().kind;
  const counts = await db().transaction(async (tx) => {
    if (kind === "postgres") {
      const result = await tx.execute<{ locked: boolean }>(
        sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as locked`,
      );
      if (!result.rows[0]?.locked) return null;
    }
    const rateLimitCutoff = new Date(now.getTime() - RATE_LIMIT_RETENTION_MS);
    const outboxCutoff = new Date(now.getTime() - DELIVERED_OUTBOX_RETENTION_MS);
    const deleted = async (query: Promise<unknown[]>) => (await query).length;
    return {
      rateLimits: await deleted(
        tx
          .delete(rateLimits)
          .where(lt(rateLimits.windowStart, rateLimitCutoff))
          .returning({ key: rateLimits.key }),
      ),
      sessions: await deleted(
        tx.delete(session).where(lt(session.expiresAt, now)).returning({ id: session.id }),
      ),
      verifications: await deleted(
        tx
          .delete(verification)
          .where(lt(verification.expiresAt, now))
          .returning({ id: verification.id }),
      ),
      outbox: await deleted(
        tx
          .delete(outbox)
          .where(and(isNotNull(outbox.deliveredAt), lt(outbox.deliveredAt, outboxCutoff)))
          .returning({ id: outbox.id }),
      ),
      actionKeys: await forgetOldActionKeys(tx, { now }),
      textCodes: await deleted(
        tx
          .delete(textCodes)
          .where(lt(textCodes.createdAt, new Date(now.getTime() - TEXT_CODE_RETENTION_MS)))
          .returning({ id: textCodes.id }),
      ),
    };
  });
  if (counts && Object.values(counts).some((n) => n > 0)) {
    logger.info({ deleted: counts }, "housekeeping");
  }
  return counts;
}

/**
 * Runs a pass shortly after start, then every hour, until stopped. A pass that fails (the
 * database away) is logged and tried again at the next turn. `stop` waits for a pass under way.
 */
export function startHousekeeping(options: { firstPassMs?: number; intervalMs?: number } = {}): {
  stop(): Promise<void>;
} {
  const firstPassMs = options.firstPassMs ?? HOUSEKEEPING_FIRST_PASS_MS;
  const intervalMs = options.intervalMs ?? HOUSEKEEPING_INTERVAL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = runHousekeeping()
        .then(
          () => {},
          (error: unknown) =>
            logger.warn({ err: (error as Error).message }, "housekeeping pass failed"),
        )
        .finally(() => {
          running = undefined;
          schedule(intervalMs);
        });
    }, delay);
    // Never what keeps a process alive.
    timer.unref();
  };
  schedule(firstPassMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
