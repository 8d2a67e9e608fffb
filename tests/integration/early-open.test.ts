import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import {
  openEmbeddedEarly,
  takeEarlyOpening,
  type EmbeddedOpening,
} from "~/db/embedded-open.server";
import { DataDirectoryLockedError } from "~/db/lock.server";
import { resetEnvForTests } from "~/lib/env.server";
import { writeDatabaseTemplate } from "../../scripts/build/database-template";
import { openDatabaseEarly } from "../../server/first-start-gate";

/*
 * The embedded database opened by the server's entry before the server's modules load (ADR
 * 105): the directory's lock, the template's copy and PGlite's worker begin there, and the
 * server's openDatabase of the same directory takes them over instead of opening a second time.
 * A failed early opening is not reported there: openDatabase opens again and reports its own
 * error (a directory in use by another process).
 */

const work = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-early-open-test-"));
const WORKER = path.resolve("app/db/pglite-worker.mjs");
const template = path.join(work, "template");
const opened: DatabaseHandle[] = [];
const saved = { DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL };

afterEach(async () => {
  await Promise.all(opened.splice(0).map((handle) => handle.close()));
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const earlyKey = Symbol.for("peachtree-handyman.early-database");
/** The opening the entry began, as openDatabase will find it. */
function pendingEarly() {
  const early = (globalThis as Record<symbol, { opening: Promise<EmbeddedOpening> } | undefined>)[
    earlyKey
  ];
  return early?.opening;
}

async function migrationsApplied(handle: DatabaseHandle) {
  const result = await handle.db.execute(
    sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

describe("the embedded database opened early", () => {
  it("is taken over by openDatabase: one worker, the template copied, the lock held", async () => {
    await writeDatabaseTemplate(template);
    const dataDir = path.join(work, "taken");
    openEmbeddedEarly(dataDir, template, WORKER);
    const early = await pendingEarly()!;
    // The template was copied before the worker opened it.
    expect(fs.readdirSync(path.join(dataDir, "pglite")).length).toBeGreaterThan(0);
    const handle = await openDatabase({ dataDir, template });
    opened.push(handle);
    expect(handle.embeddedWorker!().threadId).toBe(early.worker.threadId);
    expect(pendingEarly()).toBeUndefined();
    expect(await takeEarlyOpening(dataDir)).toBeUndefined();
    await handle.migrate();
    expect(await migrationsApplied(handle)).toBeGreaterThan(0);
    // The directory is this process's until the database closes.
    const lockFile = path.join(dataDir, "server.lock");
    expect(fs.readFileSync(lockFile, "utf8")).toBe(String(process.pid));
    await handle.close();
    opened.pop();
    expect(fs.existsSync(lockFile)).toBe(false);
  });

  it("is not taken for another directory, nor left running when it failed", async () => {
    const dataDir = path.join(work, "elsewhere");
    openEmbeddedEarly(dataDir, template, WORKER);
    const other = await openDatabase({ dataDir: path.join(work, "other"), template });
    opened.push(other);
    // Still waiting for its own server; taken here so its worker ends with the test.
    const early = await takeEarlyOpening(dataDir);
    expect(early).toBeDefined();
    await early!.worker.terminate();
    early!.lock?.release();
    fs.rmSync(early!.socketDir, { recursive: true, force: true });

    // A worker that cannot start: the early opening fails quietly, openDatabase opens again.
    const retried = path.join(work, "retried");
    openEmbeddedEarly(retried, template, path.join(work, "no-such-worker.mjs"));
    const handle = await openDatabase({ dataDir: retried, template });
    opened.push(handle);
    expect(await migrationsApplied(handle)).toBeGreaterThan(0);
  });

  it("leaves a directory in use to openDatabase, which reports it", async () => {
    const dataDir = path.join(work, "in-use");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, "server.lock"), String(process.ppid));
    openEmbeddedEarly(dataDir, template, WORKER);
    await expect(openDatabase({ dataDir, template })).rejects.toThrow(DataDirectoryLockedError);
    expect(fs.readdirSync(path.join(dataDir, "pglite"))).toEqual([]);
  });

  it("is begun by the entry only for the embedded database with a built worker", () => {
    process.env.DATA_DIR = path.join(work, "entry");
    process.env.DATABASE_URL = "postgres://nobody@127.0.0.1:1/none";
    resetEnvForTests();
    openDatabaseEarly(WORKER);
    expect(pendingEarly()).toBeUndefined();
    delete process.env.DATABASE_URL;
    resetEnvForTests();
    openDatabaseEarly(path.join(work, "no-such-worker.mjs"));
    expect(pendingEarly()).toBeUndefined();
  });
});
