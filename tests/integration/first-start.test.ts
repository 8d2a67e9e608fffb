import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { setDatabase, type DatabaseHandle } from "~/db/client.server";
import { env, resetEnvForTests } from "~/lib/env.server";
import { DEMO_LOGINS } from "../../server/seed/demo";
import { beginFirstStart, type FirstStart } from "../../server/first-start-gate";
import { prepareDatabase } from "../../server/start-up";

/*
 * A newcomer's first start (ADR 092, ADR 101): on an empty embedded data directory the process
 * that writes the demo data starts before the server's modules load, waits for the server to
 * open and migrate the database, writes the demo through the embedded database's socket, and
 * exits; the server goes on with the database it opened. If that process fails, the server
 * writes the demo itself. The built entry does the same with build/server/first-start.js (the
 * end-to-end suites start every server on an empty data directory).
 */

const work = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-first-start-test-"));
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  DATABASE_URL: process.env.DATABASE_URL,
  SEED_DEMO: process.env.SEED_DEMO,
};
const opened: DatabaseHandle[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((handle) => handle.close()));
  setDatabase(undefined);
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Points the settings at a new, empty embedded data directory. */
function emptyDataDir(name: string) {
  const dataDir = path.join(work, name);
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  resetEnvForTests();
  return dataDir;
}

async function accounts(handle: DatabaseHandle) {
  const result = await handle.db.execute(sql`select email from "user" order by email`);
  return (result as unknown as { rows: { email: string }[] }).rows.map((row) => row.email);
}

const DEMO_EMAILS = [
  ...DEMO_LOGINS.map((login) => login.email),
  "sam.okafor@peachtree-handyman.example",
].sort();
const ENTRY = path.resolve("server/first-start.ts");

describe("a newcomer's first start", () => {
  it("writes the demo from its own process, through the socket of the database the server opened", async () => {
    const dataDir = emptyDataDir("first");
    const firstStart = beginFirstStart(ENTRY, ["--import", "tsx"]);
    expect(firstStart).toBeDefined();
    let seedAsked: string | undefined;
    let written: boolean | undefined;
    const watched: FirstStart = {
      async seed(databaseUrl) {
        seedAsked = databaseUrl;
        written = await firstStart!.seed(databaseUrl);
        return written;
      },
      abandon: () => firstStart!.abandon(),
    };
    const handle = await prepareDatabase(env(), { firstStart: watched });
    opened.push(handle);
    expect(seedAsked).toMatch(/^postgresql:\/\/postgres@localhost:5432\/postgres\?host=/);
    // Its process wrote the demo and exited cleanly (a failure would be written here instead).
    expect(written).toBe(true);
    expect(await accounts(handle)).toEqual(DEMO_EMAILS);
    // The same instance serves: it was not closed and opened again (that is the fallback's way).
    expect(handle.embeddedWorker?.().threadId).toBeGreaterThan(0);
    expect(fs.readdirSync(path.join(dataDir, "pglite")).length).toBeGreaterThan(0);
  }, 120_000);

  it("is written by the server when its process fails", async () => {
    emptyDataDir("failed");
    const failed: FirstStart = { seed: async () => false, abandon: async () => false };
    const handle = await prepareDatabase(env(), { firstStart: failed });
    opened.push(handle);
    expect(await accounts(handle)).toEqual(DEMO_EMAILS);
  }, 120_000);

  it("runs nothing on a database that exists, without the demo, nor on PostgreSQL", async () => {
    const dataDir = emptyDataDir("existing");
    fs.mkdirSync(path.join(dataDir, "pglite"), { recursive: true });
    fs.writeFileSync(path.join(dataDir, "pglite", "PG_VERSION"), "17\n");
    expect(beginFirstStart(ENTRY, ["--import", "tsx"])).toBeUndefined();

    emptyDataDir("no-demo");
    process.env.SEED_DEMO = "false";
    resetEnvForTests();
    expect(beginFirstStart(ENTRY, ["--import", "tsx"])).toBeUndefined();
    delete process.env.SEED_DEMO;

    emptyDataDir("postgres");
    process.env.DATABASE_URL = "postgres://nobody@localhost:1/none";
    resetEnvForTests();
    expect(beginFirstStart(ENTRY, ["--import", "tsx"])).toBeUndefined();
  });

  it("ends its process when the server goes without sending the address", async () => {
    emptyDataDir("abandoned");
    const firstStart = beginFirstStart(ENTRY, ["--import", "tsx"]);
    expect(firstStart).toBeDefined();
    // What the server's exit does to the channel: the process sees it close and exits.
    expect(await firstStart!.abandon()).toBe(true);
  }, 60_000);
});
