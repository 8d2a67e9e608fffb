import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema";
import {
  openEmbedded,
  spawnDatabaseWorker,
  takeEarlyOpening,
  WORKER_FILE,
  type EmbeddedOpening,
  type WorkerMessage,
} from "./embedded-open.server";
import { retryConflicts } from "./retry.server";
import { prepareStatements } from "./statements.server";
import { MIGRATIONS_DIR } from "./template.server";

export type Database = NodePgDatabase<typeof schema>;
/** What a transaction callback receives; pass it to helpers that must join the transaction. */
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type DbOrTx = Database | Tx;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /** Runs `select 1`; throws when the database does not answer. */
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * The embedded database's worker thread now serving (none on PostgreSQL). The fault tests
   * end it to see the server recover; nothing else should touch it.
   */
  embeddedWorker?: () => Worker;
  /**
   * The embedded database's address for another process of this server's (none on
   * PostgreSQL): a PostgreSQL URL of its worker's Unix socket. A newcomer's first start writes
   * the demo data through it (server/first-start.ts, ADR 101).
   */
  socketUrl?: string;
  /**
   * The embedded database's directory was empty and was filled from the build's template as it
   * opened: exactly the migrations' result, so `migrate()` has nothing to apply (ADR 105).
   */
  fromTemplate?: boolean;
};

export { MIGRATIONS_DIR };

/**
 * Connections to the embedded database (ADR 037), as many as the pool to PostgreSQL holds by
 * default: with ten requests at once, /employee went from 169 req/s with one connection to 234
 * with four and 275 with eight in one trial, and to 342 with ten in another.
 */
export const EMBEDDED_CONNECTIONS = 10;

function logError(msg: string, fields: Record<string, unknown>) {
  console.error(JSON.stringify({ level: 50, time: Date.now(), msg, ...fields }));
}

/** The first restart of a worker that died waits this long; each failed one doubles it. */
const RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 10_000;

/**
 * A socket to the embedded database on which nothing node-postgres does on receiving can
 * throw past it: an answer node-postgres cannot parse (ADR 035's corrupted answers were one)
 * would otherwise be an uncaught exception, and the process would exit. Instead the socket is
 * destroyed with that error: node-postgres fails the queries waiting on it (their requests
 * answer 500) and the pool drops the connection and opens another.
 */
function guardedSocket() {
  const socket = new net.Socket();
  const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
  socket.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== "data") return emit(event, ...args);
    try {
      return emit(event, ...args);
    } catch (error) {
      logError("database answer not understood", { err: (error as Error).message });
      socket.destroy(error as Error);
      return false;
    }
  }) as typeof socket.emit;
  return socket;
}

/**
 * What both pools do with a connection that breaks: log it, and give it back to the pool at
 * once when a request holds it. node-postgres reports a connection lost while idle on the pool,
 * and one lost while checked out (a transaction between two queries) on the client itself,
 * where no listener would make it an uncaught exception. Drizzle's transaction sends BEGIN
 * before its try block, so when BEGIN fails on a broken connection the client is never released:
 * ten such failures (a database restart under load) and the pool has no connection left, and
 * every request waits for ever. So a broken client is released here, with its error (the pool
 * drops it), and the release that may follow is a no-op.
 */
function superviseConnections(pool: pg.Pool, onError: (error: Error) => void) {
  pool.on("error", onError);
  pool.on("connect", (client) => {
    // The pool gives each checkout its own release(): each becomes callable once.
    let release: ((error?: Error | boolean) => void) | undefined;
    Object.defineProperty(client, "release", {
      configurable: true,
      get: () => release,
      set(given: (error?: Error | boolean) => void) {
        let released = false;
        release = (error) => {
          if (released) return;
          released = true;
          given(error);
        };
      },
    });
    client.on("error", (error: Error) => {
      onError(error);
      release?.(error);
    });
    prepareStatements(client);
  });
}

/**
 * PGlite on a worker thread, served to this thread as PostgreSQL over a Unix socket
 * (docs/decisions/035-embedded-database-thread.md), and a pool of connections to it
 * that the worker serves on its one session (ADR 037). `opening`: the directory's lock and the
 * worker, listening (embedded-open.server.ts; begun by the server's entry, ADR 105, or here).
 *
 * A worker that dies (terminated, out of memory, PGlite failing) is started again on the same
 * socket and data directory: the queries it was answering fail (their requests answer 500),
 * queries meanwhile fail to connect and /healthz answers 503, and the pool's next connections
 * reach the new worker. The process goes on (ADR 035, "Amendment: a worker that dies").
 */
function serveEmbeddedDatabase(opening: EmbeddedOpening) {
  const { socketDir, pgDir, workerFile } = opening;
  const removeSocketDir = () => fs.rmSync(socketDir, { recursive: true, force: true });
  let closing = false;

  /** Watches a worker that listens: logs its failures, starts another when it dies. */
  const supervise = (worker: Worker) => {
    worker.on("error", (error) => {
      logError("database worker error", { err: error.message });
    });
    worker.on("message", (message: WorkerMessage) => {
      if ("failed" in message && !closing) logError("database worker", { err: message.failed });
    });
    worker.on("exit", (code) => {
      if (closing) return;
      logError("database worker exited; starting it again", { code });
      void restart();
    });
    return worker;
  };
  let worker = supervise(opening.worker);
  let restarting: Promise<void> | undefined;
  /** Ends the wait before the next attempt to restart (the database is closing). */
  let wake: (() => void) | undefined;
  const restart = () => {
    restarting ??= (async () => {
      let delay = RESTART_DELAY_MS;
      while (!closing) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          timer.unref();
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        if (closing) break;
        try {
          worker = supervise(await spawnDatabaseWorker(workerFile, pgDir, socketDir));
          logError("database worker started again", { level: 30 });
          break;
        } catch (error) {
          logError("database worker did not start again", { err: (error as Error).message });
          delay = Math.min(delay * 2, MAX_RESTART_DELAY_MS);
        }
      }
    })().finally(() => {
      restarting = undefined;
    });
    return restarting;
  };

  const pool = new pg.Pool({
    host: socketDir,
    port: 5432,
    user: "postgres",
    database: "postgres",
    // PGlite has one session, which the worker shares between these connections one exchange
    // at a time (ADR 037): the queries of several requests wait their turn there, so the
    // session is busy while this thread renders.
    max: EMBEDDED_CONNECTIONS,
    idleTimeoutMillis: 0,
    allowExitOnIdle: true,
    stream: guardedSocket,
  });
  superviseConnections(pool, (error) => logError("database pool error", { err: error.message }));
  return {
    pool,
    socketUrl: `postgresql://postgres@localhost:5432/postgres?host=${encodeURIComponent(socketDir)}`,
    /** The worker now serving (a fault test ends it to see the server recover). */
    worker: () => worker,
    async close() {
      closing = true;
      wake?.();
      await restarting;
      await pool.end();
      const current = worker;
      const closed = new Promise<void>((resolve, reject) => {
        current.on("message", (message: WorkerMessage) => {
          if ("closed" in message) resolve();
          else if ("failed" in message) reject(new Error(message.failed));
        });
        current.once("exit", () => resolve());
      });
      current.ref();
      current.postMessage("close");
      try {
        await closed;
      } finally {
        await current.terminate();
        removeSocketDir();
        opening.lock?.release();
      }
    },
  };
}

/** An arbitrary constant: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_KEY = 720_531_407;

export type DatabaseOptions =
  | { databaseUrl: string; poolSize?: number }
  /**
   * template: the build's template of the migrated database (template.server.ts), copied into
   * an empty data directory before it opens.
   */
  | { dataDir: string; template?: string }
  | { memory: true };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("databaseUrl" in options) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
    });
    // A client losing its connection (a database restart) must not crash the process, nor
    // stay checked out for ever.
    superviseConnections(pool, (error) => logError("postgres pool error", { err: error.message }));
    // Every transaction is run again when PostgreSQL aborts it for a conflict (ADR 040).
    const db = retryConflicts(drizzlePg(pool, { schema, casing: "snake_case" }));
    return {
      db,
      kind: "postgres",
      async ping() {
        await pool.query("select 1");
      },
      async migrate() {
        // Several processes starting together (a deploy) must not apply the same migration
        // twice: the second would fail on "already exists" and the process would not start.
        const client = await pool.connect();
        try {
          await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
          try {
            await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
          } finally {
            await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
          }
        } finally {
          client.release();
        }
      },
      async close() {
        await pool.end();
      },
    };
  }

  const dataDir = "dataDir" in options ? options.dataDir : null;
  const opening =
    (dataDir && (await takeEarlyOpening(dataDir))) ||
    (await openEmbedded({
      dataDir,
      template: "dataDir" in options ? options.template : undefined,
      workerFile: path.join(path.dirname(fileURLToPath(import.meta.url)), WORKER_FILE),
    }));
  const embedded = serveEmbeddedDatabase(opening);
  const { pool } = embedded;
  // Every transaction is run again when PostgreSQL aborts it for a conflict (ADR 040).
  const db = retryConflicts(drizzlePg(pool, { schema, casing: "snake_case" }));
  return {
    db,
    kind: "pglite",
    async ping() {
      await pool.query("select 1");
    },
    async migrate() {
      // One process per data directory (its lock, embedded-open.server.ts): no other migrates
      // beside it.
      await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
    },
    async close() {
      await embedded.close();
    },
    embeddedWorker: embedded.worker,
    socketUrl: embedded.socketUrl,
    fromTemplate: opening.fromTemplate,
  };
}

/*
 * One handle per process, kept on globalThis: the server (run from source) and the built
 * React Router bundle each have their own copy of this module, and must share the database.
 */
const globalKey = Symbol.for("peachtree-handyman.database");
type GlobalWithDb = typeof globalThis & { [globalKey]?: DatabaseHandle };

export function setDatabase(handle: DatabaseHandle | undefined) {
  (globalThis as GlobalWithDb)[globalKey] = handle;
}

export function databaseHandle(): DatabaseHandle {
  const handle = (globalThis as GlobalWithDb)[globalKey];
  if (!handle) throw new Error("The database is not open: call setDatabase() at start-up");
  return handle;
}

export function db(): Database {
  return databaseHandle().db;
}

export async function isDatabaseEmpty(database: Database) {
  const result = await database.execute(sql`select count(*)::int as count from "user"`);
  const rows = (result as unknown as { rows: { count: number }[] }).rows;
  return Number(rows[0]?.count ?? 0) === 0;
}
