import net from "node:net";
import { isNotNull } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outbox } from "~/db/schema";
import { resetEnvForTests } from "~/lib/env.server";
import { enqueue, startOutboxWorker } from "~/lib/outbox.server";
import {
  idleDelayMs,
  listenForEnqueued,
  OUTBOX_CHANNEL,
  SAFETY_POLL_MS,
} from "~/lib/outbox-wake.server";
import { startSink } from "../support/sink";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

async function freePort() {
  return new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

async function until(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

const lead = (n: number) => ({ body: { name: `Lead ${n}` }, leadId: `lead-${n}` });

describe("the outbox worker sleeps until there is work (no polling at rest)", () => {
  let database: TestDatabase;
  let sink: Awaited<ReturnType<typeof startSink>>;
  let worker: ReturnType<typeof startOutboxWorker> | undefined;

  beforeAll(async () => {
    const httpPort = await freePort();
    sink = await startSink({ smtpPort: await freePort(), httpPort });
    process.env.LEAD_WEBHOOK_URL = `http://127.0.0.1:${httpPort}/webhook`;
    process.env.OUTBOX_BASE_BACKOFF_MS = "1000";
    process.env.OUTBOX_MAX_BACKOFF_MS = "1000";
    delete process.env.OUTBOX_POLL_MS;
    resetEnvForTests();
    database = await useTestDatabase();
  });
  afterAll(async () => {
    await sink.close();
    await database.drop();
    delete process.env.LEAD_WEBHOOK_URL;
    delete process.env.OUTBOX_BASE_BACKOFF_MS;
    delete process.env.OUTBOX_MAX_BACKOFF_MS;
    resetEnvForTests();
  });
  beforeEach(async () => {
    sink.calls.length = 0;
    sink.setWebhookUp(true);
    await database.db.delete(outbox);
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  const delivered = async () =>
    (await database.db.select().from(outbox).where(isNotNull(outbox.deliveredAt))).length;

  it("with nothing pending it sleeps until woken (PGlite) or for the safety poll (PostgreSQL)", async () => {
    expect(await idleDelayMs()).toBe(testDatabaseKind() === "postgres" ? SAFETY_POLL_MS : null);
    expect(await idleDelayMs(200)).toBe(200);
  });

  it("an item enqueued in this process is delivered at once, not at the next poll", async () => {
    worker = startOutboxWorker({ databaseUrl: database.url });
    await new Promise((r) => setTimeout(r, 300)); // the worker is asleep now
    const started = Date.now();
    await enqueue(database.db, "lead_webhook", lead(1));
    expect(await until(async () => (await delivered()) === 1, 5_000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(sink.calls).toHaveLength(1);
  });

  it("a failed delivery is retried when its backoff ends, with no poll configured", async () => {
    sink.setWebhookUp(false);
    worker = startOutboxWorker({ databaseUrl: database.url });
    await enqueue(database.db, "lead_webhook", lead(2));
    expect(
      await until(async () => (await database.db.select().from(outbox))[0]?.attempts === 1, 3_000),
    ).toBe(true);
    const delay = await idleDelayMs();
    expect(delay).not.toBeNull();
    expect(delay!).toBeLessThanOrEqual(1_100);
    sink.setWebhookUp(true);
    expect(await until(async () => (await delivered()) === 1, 4_000)).toBe(true);
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "an item committed by another process wakes this worker through LISTEN/NOTIFY",
    async () => {
      worker = startOutboxWorker({ databaseUrl: database.url });
      await new Promise((r) => setTimeout(r, 500)); // listening and asleep (safety poll: 60 s)
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query("begin");
        await other.query(`insert into outbox (kind, payload) values ('lead_webhook', $1)`, [
          JSON.stringify(lead(3)),
        ]);
        await other.query(`select pg_notify('${OUTBOX_CHANNEL}', '')`);
        // Not before the commit: the notification is sent with it.
        await new Promise((r) => setTimeout(r, 300));
        expect(sink.calls).toHaveLength(0);
        await other.query("commit");
      } finally {
        await other.end();
      }
      expect(await until(async () => (await delivered()) === 1, 3_000)).toBe(true);
    },
  );

  it.runIf(testDatabaseKind() === "postgres")(
    "once its LISTEN takes effect the worker looks once more: an item committed while it was starting does not wait for the safety poll",
    async () => {
      // An item committed (and announced) before the listener's LISTEN reached the database
      // announced itself to nobody; the listener's first act is to have the worker look.
      let looks = 0;
      const stop = listenForEnqueued(() => (looks += 1), database.url);
      try {
        expect(await until(async () => looks > 0, 3_000)).toBe(true);
      } finally {
        await stop();
      }
    },
  );
});
