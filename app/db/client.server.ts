import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema";
import { acquireDirectoryLock, type DirectoryLock } from "./lock.server";
import { retryConflicts } from "./retry.server";
import { prepareStatements } from "./statements.server";

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
};

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");

/**
 * PGlite's start parameters beyond its defaults: a 16 MB buffer cache instead of PostgreSQL's
 * 128 MB. PGlite touches the whole cache at start, which alone made the embedded server hold over
 * 500 MB resident; a small business's data is read from the operating system's page cache just
 * as fast (docs/decisions/018-light-at-rest.md).
 */
const PGLITE_START_PARAMS = ["-c", "shared_buffers=16MB"];

/**
 * Connections to the embedded database (ADR 037), as many as the pool to PostgreSQL holds by
 * default: with ten requests at once, /employee went from 169 req/s with one connection to 234
 * with four and 275 with eight in one trial, and to 342 with ten in another.
 */
export const EMBEDDED_CONNECTIONS = 10;

/**
 * The embedded database's worker: beside this module, whether it runs from the sources
 * (app/db/) or from a compiled bundle (build/server/, build/), which the build gives a copy.
 */
const WORKER_FILE = "pglite-worker.mjs";

type WorkerMessage = { ready: true } | { failed: string } | { closed: true };

/**
 * PGlite on a worker thread, served to this thread as PostgreSQL over a Unix socket
 * (docs/decisions/035-embedded-database-thread.md), and a pool of connections to it
 * that the worker serves on its one session (ADR 037).
 */
async function startEmbeddedDatabase(dataDir: string | null) {
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-db-"));
  const worker = new Worker(path.join(path.dirname(fileURLToPath(import.meta.url)), WORKER_FILE), {
    workerData: {
      dataDir,
      socketPath: path.join(socketDir, ".s.PGSQL.5432"),
      startParams: PGLITE_START_PARAMS,
    },
    // Its JavaScript is a thin layer over the WebAssembly engine, whose memory is outside the
    // heap: a small young generation saves memory at no cost in speed.
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  const removeSocketDir = () => fs.rmSync(socketDir, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`The database worker exited (${code})`));
      worker.once("error", reject);
      worker.once("exit", onExit);
      worker.once("message", (message: WorkerMessage) => {
        worker.off("error", reject);
        worker.off("exit", onExit);
        if ("ready" in message) resolve();
        else reject(new Error(`The embedded database did not open: ${JSON.stringify(message)}`));
      });
    });
  } catch (error) {
    await worker.terminate();
    removeSocketDir();
    throw error;
  }
  let closing = false;
  worker.on("error", (error) => {
    console.error(JSON.stringify({ level: 50, msg: "database worker error", err: error.message }));
  });
  worker.on("exit", (code) => {
    if (closing) return;
    // Every query fails from here on (the pool cannot connect); /healthz says so.
    console.error(JSON.stringify({ level: 50, msg: "database worker exited", code }));
  });
  worker.on("message", (message: WorkerMessage) => {
    if ("failed" in message && !closing) {
      console.error(JSON.stringify({ level: 50, msg: "database worker", err: message.failed }));
    }
  });
  // Nothing here keeps the process alive: a process that is done exits, as it did when PGlite
  // ran on the server's own thread.
  worker.unref();
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
  });
  pool.on("error", (error) => {
    console.error(JSON.stringify({ level: 50, msg: "database pool error", err: error.message }));
  });
  pool.on("connect", prepareStatements);
  return {
    pool,
    async close() {
      closing = true;
      await pool.end();
      const closed = new Promise<void>((resolve, reject) => {
        worker.on("message", (message: WorkerMessage) => {
          if ("closed" in message) resolve();
          else if ("failed" in message) reject(new Error(message.failed));
        });
        worker.once("exit", () => resolve());
      });
      worker.ref();
      worker.postMessage("close");
      try {
        await closed;
      } finally {
        await worker.terminate();
        removeSocketDir();
      }
    },
  };
}

/** An arbitrary constant: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK_KEY = 720_531_407;

export type DatabaseOptions =
  { databaseUrl: string; poolSize?: number } | { dataDir: string } | { memory: true };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if ("databaseUrl" in options) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
    });
    // A client losing its connection (a database restart) must not crash the process: the
    // pool reports idle ones here, and a client checked out between two queries (inside a
    // transaction) emits on itself, where no listener would make it an uncaught exception.
    const logConnectionError = (error: Error) => {
      console.error(JSON.stringify({ level: 50, msg: "postgres pool error", err: error.message }));
    };
    pool.on("error", logConnectionError);
    pool.on("connect", (client) => {
      client.on("error", logConnectionError);
      prepareStatements(client);
    });
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

  let lock: DirectoryLock | undefined;
  let embedded: Awaited<ReturnType<typeof startEmbeddedDatabase>>;
  if ("dataDir" in options) {
    const pgDir = path.join(options.dataDir, "pglite");
    fs.mkdirSync(pgDir, { recursive: true });
    // PGlite lets a second process open the same directory and corrupt it: refuse instead.
    lock = acquireDirectoryLock(options.dataDir);
    try {
      embedded = await startEmbeddedDatabase(pgDir);
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    embedded = await startEmbeddedDatabase(null);
  }
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
      // One process per data directory (the lock above): no other migrates beside it.
      await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
    },
    async close() {
      await embedded.close();
      lock?.release();
    },
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
