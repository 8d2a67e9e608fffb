import crypto from "node:crypto";
import pg from "pg";
import { openDatabase, setDatabase, type DatabaseHandle } from "~/db/client.server";

/*
 * A fresh, migrated database for one test file: in-memory PGlite by default; a throwaway
 * PostgreSQL database when TEST_DB=postgres (or `kind: "postgres"` is asked for) and
 * TEST_DATABASE_URL points at a server. `npm test` runs the integration suite both ways.
 */

export function postgresAvailable() {
  return Boolean(process.env.TEST_DATABASE_URL);
}

export function testDatabaseKind(): "pglite" | "postgres" {
  return process.env.TEST_DB === "postgres" && postgresAvailable() ? "postgres" : "pglite";
}

export type TestDatabase = DatabaseHandle & { url?: string; drop(): Promise<void> };

export async function createTestDatabase(
  options: { kind?: "pglite" | "postgres"; poolSize?: number; migrate?: boolean } = {},
): Promise<TestDatabase> {
  const kind = options.kind ?? testDatabaseKind();
  if (kind === "pglite") {
    const handle = await openDatabase({ memory: true });
    if (options.migrate !== false) await handle.migrate();
    return { ...handle, drop: () => handle.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({
    databaseUrl: url.toString(),
    poolSize: options.poolSize ?? 10,
  });
  if (options.migrate !== false) await handle.migrate();
  return {
    ...handle,
    url: url.toString(),
    async drop() {
      await handle.close();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Opens a test database and makes it the process's database (what db() returns). */
export async function useTestDatabase(options?: Parameters<typeof createTestDatabase>[0]) {
  const handle = await createTestDatabase(options);
  setDatabase(handle);
  return handle;
}
