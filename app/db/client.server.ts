import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { btree_gist } from "@electric-sql/pglite/contrib/btree_gist";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { sql } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema";
import { acquireDirectoryLock, type DirectoryLock } from "./lock.server";

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
 * Extensions the migrations create (pg_trgm: the employee dashboard's search indexes;
 * btree_gist: the exclusion constraint against double-booking a handyman).
 */
const pgliteExtensions = { pg_trgm, btree_gist };

/**
 * PGlite's defaults plus a 16 MB buffer cache instead of PostgreSQL's 128 MB: PGlite touches
 * the whole cache at start, which alone made the embedded server hold over 500 MB resident.
 * A small business's data is read from the operating system's page cache just as fast
 * (docs/decisions/018-light-at-rest.md).
 */
const pgliteOptions = {
  extensions: pgliteExtensions,
  startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
};

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
    pool.on("connect", (client) => client.on("error", logConnectionError));
    const db = drizzlePg(pool, { schema, casing: "snake_case" });
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
  let client: PGlite;
  if ("dataDir" in options) {
    const pgDir = path.join(options.dataDir, "pglite");
    fs.mkdirSync(pgDir, { recursive: true });
    // PGlite lets a second process open the same directory and corrupt it: refuse instead.
    lock = acquireDirectoryLock(options.dataDir);
    try {
      client = await PGlite.create(pgDir, pgliteOptions);
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    client = await PGlite.create(pgliteOptions);
  }
  const db = drizzlePglite(client, { schema, casing: "snake_case" }) as unknown as Database;
  return {
    db,
    kind: "pglite",
    async ping() {
      await client.query("select 1");
    },
    async migrate() {
      await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
    },
    async close() {
      await client.close();
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
