import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { acquireDirectoryLock, DataDirectoryLockedError } from "~/db/lock.server";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

const TABLES = [
  "account",
  "appointment_tasks",
  "appointments",
  "homes",
  "intro_calls",
  "leads",
  "outbox",
  "profiles",
  "rate_limits",
  "request_photos",
  "service_requests",
  "session",
  "two_factor",
  "user",
  "verification",
];

function rows<T>(result: unknown) {
  return (result as { rows: T[] }).rows;
}

describe("migrations", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it(`create every table of the data model (${process.env.TEST_DB === "postgres" ? "PostgreSQL" : "PGlite"})`, async () => {
    const result = await database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = rows<{ table_name: string }>(result).map((r) => r.table_name);
    expect(names).toEqual(expect.arrayContaining(TABLES));
  });

  it("are idempotent: applying them again changes nothing", async () => {
    await expect(database.migrate()).resolves.toBeUndefined();
  });

  it("enforce one home per customer and one booking per intro-call slot", async () => {
    const result = await database.db.execute(
      sql`select indexname from pg_indexes where indexname in ('homes_customer_id_unique', 'intro_calls_starts_at_unique')`,
    );
    expect(rows(result)).toHaveLength(2);
  });
});

describe("the embedded database's data directory lock", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-lock-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    "refuses a second process while the first holds it, naming the holder",
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const lockFile = JSON.stringify(path.join(dir, "server.lock"));
      // Another process takes the lock and keeps running.
      const holder = spawn(
        process.execPath,
        [
          "-e",
          `require("fs").writeFileSync(${lockFile}, String(process.pid)); setInterval(() => {}, 1000)`,
        ],
        { stdio: "ignore" },
      );
      try {
        // Wait until the holder has written its lock (slow to start on a busy machine).
        const lockPath = path.join(dir, "server.lock");
        const deadline = Date.now() + 20_000;
        while (
          !fs.existsSync(lockPath) ||
          fs.readFileSync(lockPath, "utf8") !== String(holder.pid)
        ) {
          if (Date.now() > deadline) throw new Error("the lock holder did not start");
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(() => acquireDirectoryLock(dir)).toThrowError(DataDirectoryLockedError);
        expect(() => acquireDirectoryLock(dir)).toThrowError(
          `in use by another process (pid ${holder.pid})`,
        );
        await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(
          DataDirectoryLockedError,
        );
        // The refused attempt created no database files.
        expect(fs.readdirSync(path.join(dir, "pglite"))).toEqual([]);
      } finally {
        holder.kill("SIGKILL");
      }
    },
  );

  it("takes over a lock left by a process that died", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "server.lock"), "999999");
    const lock = acquireDirectoryLock(dir);
    expect(fs.readFileSync(lock.path, "utf8")).toBe(String(process.pid));
    lock.release();
    expect(fs.existsSync(lock.path)).toBe(false);
  });

  // Opening an on-disk PGlite twice (with migrations) can take most of a minute on a busy machine.
  it(
    "keeps data across reopening and releases the lock on close",
    { timeout: 180_000 },
    async () => {
      const dir = tempDir();
      const first = await openDatabase({ dataDir: dir });
      await first.migrate();
      await first.db.execute(
        sql`insert into lead_entries (name, email, form_type, source) values ('Ann Lee', 'ann@example.com', 'contact', 'home')`,
      );
      await first.close();
      expect(fs.existsSync(path.join(dir, "server.lock"))).toBe(false);
      const second = await openDatabase({ dataDir: dir });
      const result = await second.db.execute(sql`select count(*)::int as n from lead_entries`);
      expect(rows<{ n: number }>(result)[0].n).toBe(1);
      await second.close();
    },
  );
});
