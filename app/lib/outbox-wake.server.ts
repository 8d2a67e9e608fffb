import { and, isNull, min, sql } from "drizzle-orm";
import pg from "pg";
import { databaseHandle, db, type DbOrTx } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { env } from "./env.server";
import { logger } from "./logger.server";

/*
 * When the outbox worker wakes (docs/decisions/018-light-at-rest.md). A server at rest
 * does no work at all: instead of asking the database every second whether anything is due,
 * - an item enqueued in this process wakes its worker at once (nudgeOutbox);
 * - on PostgreSQL an item enqueued by another process wakes every worker through
 *   LISTEN/NOTIFY: the NOTIFY is sent inside the enqueuing transaction, so it arrives when the
 *   item is committed, never before;
 * - a retry wakes the worker when it falls due: after each pass the worker sleeps until the
 *   earliest pending item's next attempt;
 * - on PostgreSQL only, a slow safety poll (once a minute) finds what no notification
 *   announced: an item a crashed process held under lock, or a NOTIFY lost while the
 *   listening connection was down.
 * PGlite is one process (the data directory is locked), so an enqueue there is always seen by
 * nudgeOutbox and nothing polls at all. OUTBOX_POLL_MS, when set, is an upper bound on any
 * sleep (the tests set it low so a retry they provoke is seen quickly).
 */

export const OUTBOX_CHANNEL = "outbox_enqueued";
/** PostgreSQL's safety poll. */
export const SAFETY_POLL_MS = 60_000;

/** Inside the enqueuing transaction: tells other processes' workers, on commit. */
export async function announceEnqueued(tx: DbOrTx) {
  if (databaseHandle().kind !== "postgres") return;
  await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
}

/**
 * How long the worker may sleep: until the earliest pending item's next attempt, capped by
 * OUTBOX_POLL_MS when set and by the safety poll on PostgreSQL; null means until woken.
 */
export async function idleDelayMs(explicitPollMs?: number): Promise<number | null> {
  const [row] = await db()
    .select({ next: min(outbox.nextAttemptAt) })
    .from(outbox)
    .where(
      and(
        isNull(outbox.deliveredAt),
        isNull(outbox.failedAt),
        sql`${outbox.nextAttemptAt} > now()`,
      ),
    );
  const caps = [
    row?.next ? Math.max(0, new Date(row.next).getTime() - Date.now()) + 5 : null,
    explicitPollMs ?? null,
    databaseHandle().kind === "postgres" ? SAFETY_POLL_MS : null,
  ].filter((value): value is number => value !== null);
  return caps.length ? Math.min(...caps) : null;
}

/**
 * PostgreSQL: a connection of its own that LISTENs for enqueued items and calls `onNotify`;
 * reconnects after a failure. Returns a function that stops listening. Nothing on PGlite.
 */
export function listenForEnqueued(
  onNotify: () => void,
  url = env().databaseUrl,
): () => Promise<void> {
  if (databaseHandle().kind !== "postgres" || !url) return async () => {};
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: url });
    client = next;
    const again = (error?: Error) => {
      if (error) logger.warn({ err: error.message }, "outbox listener lost its connection");
      next.removeAllListeners();
      next.on("error", () => {});
      next.end().catch(() => {});
      if (client === next) client = undefined;
      if (stopped) return;
      clearTimeout(retry);
      retry = setTimeout(connect, 5_000);
      // Whatever was announced while we were away: the worker looks once now.
      onNotify();
    };
    next.on("notification", () => onNotify());
    next.on("error", again);
    next.on("end", () => !stopped && again());
    try {
      await next.connect();
      await next.query(`listen ${OUTBOX_CHANNEL}`);
      // Whatever was enqueued before the LISTEN took effect announced itself to nobody: the
      // worker looks once now (it may have finished its first pass just before).
      onNotify();
    } catch (error) {
      again(error as Error);
    }
  };
  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const last = client;
    client = undefined;
    if (last) {
      last.removeAllListeners();
      last.on("error", () => {});
      await last.end().catch(() => {});
    }
  };
}
