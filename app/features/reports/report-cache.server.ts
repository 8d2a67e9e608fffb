import { sql } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { rowsOf } from "~/db/rows";

/*
 * The reports page's figures, kept while the database has not changed (issue 45, ADR 092). The
 * page reads the whole business's history: its queries cost the database about 13 ms, and ten
 * staff at once queued them on the embedded database's one session (p95 137 ms). A report is
 * the same for as long as nothing was written: PostgreSQL's WAL insert position
 * (`pg_current_wal_insert_lsn()`) moves with every change, and every transaction that changes a
 * row writes its commit record there, so an answer computed after reading position P is still
 * the answer while the position is P. The position is read before the figures, so a change
 * committed meanwhile can only make the kept answer newer than its position, never older; the
 * next request then sees another position and computes again. Requests that arrive together
 * for the same key share one computation.
 */

type Entry = { position: string; value: Promise<unknown> };

/** At most this many periods are kept per database (the picker's choices and a few custom). */
const MAX_ENTRIES = 16;

const caches = new WeakMap<object, Map<string, Entry>>();

async function walPosition(database: DbOrTx) {
  try {
    const [row] = rowsOf<{ position: string }>(
      await database.execute(sql`select pg_current_wal_insert_lsn()::text as position`),
    );
    return row?.position ?? null;
  } catch {
    // A standby (no WAL of its own to insert) or a database that will not say: no keeping.
    return null;
  }
}

/**
 * `compute()`'s answer for `key`, kept while `database` has written nothing since it was
 * computed. `key` must name everything the answer depends on besides the data (the period, the
 * day its "as of" figures are for).
 */
export async function keptWhileUnchanged<T>(
  database: DbOrTx,
  key: string,
  compute: () => Promise<T>,
): Promise<T> {
  const position = await walPosition(database);
  if (position === null) return compute();
  let cache = caches.get(database);
  if (!cache) {
    cache = new Map();
    caches.set(database, cache);
  }
  const kept = cache.get(key);
  if (kept && kept.position === position) return kept.value as Promise<T>;
  const value = compute();
  const entry: Entry = { position, value };
  cache.delete(key);
  cache.set(key, entry);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  // A failure is not kept: the next request computes again.
  value.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return value;
}
