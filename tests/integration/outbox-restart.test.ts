import http from "node:http";
import type net from "node:net";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { outbox } from "~/db/schema";
import { resetEnvForTests } from "~/lib/env.server";
import {
  CLAIMED,
  enqueue,
  processOutboxBatch,
  releaseAbandonedClaims,
  startOutboxWorker,
} from "~/lib/outbox.server";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * A server killed while it delivers: what it had claimed goes out promptly when the next one
 * starts, not after a lease, and the receiver can tell the repeat by its Idempotency-Key.
 */

async function until(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** A webhook receiver that leaves the next `hang` calls unanswered and accepts the rest. */
async function startReceiver() {
  const keys: string[] = [];
  const hanging: http.ServerResponse[] = [];
  let hang = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      keys.push(String(req.headers["idempotency-key"]));
      if (hang > 0) {
        hang--;
        hanging.push(res);
      } else res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    keys,
    hangNext(calls: number) {
      hang = calls;
    },
    async close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("the outbox after a server died mid-delivery", () => {
  let database: TestDatabase;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: ReturnType<typeof startOutboxWorker> | undefined;

  beforeAll(async () => {
    receiver = await startReceiver();
    process.env.LEAD_WEBHOOK_URL = receiver.url;
    delete process.env.OUTBOX_POLL_MS;
    resetEnvForTests();
    database = await useTestDatabase();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
    delete process.env.LEAD_WEBHOOK_URL;
    resetEnvForTests();
  });

  it.runIf(testDatabaseKind() === "pglite")(
    "embedded database: items claimed by a worker that is gone are delivered at once when a worker starts",
    async () => {
      const ids = [
        await enqueue(database.db, "lead_webhook", { body: { name: "A" }, leadId: "a" }),
        await enqueue(database.db, "lead_webhook", { body: { name: "B" }, leadId: "b" }),
        await enqueue(database.db, "lead_webhook", { body: { name: "C" }, leadId: "c" }),
      ];
      // The "old" worker claims all three and hangs on the first receiver call: as if killed.
      receiver.hangNext(1);
      const abandoned = processOutboxBatch().catch(() => 0);
      expect(await until(async () => receiver.keys.length === 1, 5_000)).toBe(true);
      const claimed = await database.db.select().from(outbox);
      expect(claimed.every((row) => row.lastError === CLAIMED)).toBe(true);
      expect(claimed.every((row) => row.nextAttemptAt.getTime() > Date.now() + 20_000)).toBe(true);

      // The restarted server's worker: everything goes out within seconds.
      const started = Date.now();
      worker = startOutboxWorker();
      const allDelivered = async () =>
        (await database.db.select().from(outbox)).every((row) => row.deliveredAt !== null);
      expect(await until(allDelivered, 5_000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      // At least once: the item being sent when the old worker "died" reached the receiver
      // twice, under the same Idempotency-Key, so the receiver can drop the repeat.
      expect(receiver.keys.filter((key) => key === receiver.keys[0])).toHaveLength(2);
      expect(new Set(receiver.keys)).toEqual(new Set(ids));
      await receiver.close();
      await abandoned;
    },
  );

  it.runIf(testDatabaseKind() === "pglite")(
    "embedded database: a retry waiting out its backoff is not released early",
    async () => {
      const [row] = await database.db
        .insert(outbox)
        .values({
          kind: "lead_webhook",
          payload: { body: {}, leadId: "later" },
          attempts: 3,
          lastError: "webhook answered 503",
          nextAttemptAt: new Date(Date.now() + 60_000),
        })
        .returning();
      expect(await releaseAbandonedClaims()).toBe(0);
      const [after] = await database.db.select().from(outbox).where(eq(outbox.id, row.id));
      expect(after.nextAttemptAt.getTime()).toBe(row.nextAttemptAt.getTime());
      await database.db.delete(outbox);
    },
  );

  it.runIf(testDatabaseKind() === "postgres")(
    "PostgreSQL: an item locked by a process that died is delivered when a worker starts",
    async () => {
      const id = await enqueue(database.db, "lead_webhook", { body: { name: "D" }, leadId: "d" });
      const dying = new pg.Client({ connectionString: database.url });
      await dying.connect();
      dying.on("error", () => {});
      await dying.query("begin");
      await dying.query("select id from outbox where id = $1 for update", [id]);
      const { rows } = await dying.query<{ pid: number }>("select pg_backend_pid() as pid");
      await database.db.execute(`select pg_terminate_backend(${rows[0].pid})`);
      await dying.end().catch(() => {});

      worker = startOutboxWorker({ databaseUrl: database.url });
      const delivered = async () =>
        (await database.db.select().from(outbox).where(eq(outbox.id, id)))[0].deliveredAt !== null;
      expect(await until(delivered, 5_000)).toBe(true);
    },
  );
});
