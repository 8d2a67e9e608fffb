import { eq, isNull } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outbox } from "~/db/schema";
import { resetEnvForTests } from "~/lib/env.server";
import { enqueue, processOutboxBatch } from "~/lib/outbox.server";
import { freePort } from "../support/processes";
import { startSink } from "../support/sink";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Several workers on one PostgreSQL database (what several server processes do): each item is
 * delivered by exactly one of them, an item being delivered is never taken by another, and an
 * item whose worker died mid-delivery is taken again at once. PGlite has one connection and one
 * process, so these run on PostgreSQL only.
 */

describe.skipIf(testDatabaseKind() !== "postgres")("outbox workers side by side", () => {
  let database: TestDatabase;
  let sink: Awaited<ReturnType<typeof startSink>>;

  beforeAll(async () => {
    const smtpPort = await freePort();
    const httpPort = await freePort();
    sink = await startSink({ smtpPort, httpPort });
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    process.env.LEAD_WEBHOOK_URL = `http://127.0.0.1:${httpPort}/webhook`;
    process.env.OUTBOX_BASE_BACKOFF_MS = "0";
    process.env.OUTBOX_MAX_BACKOFF_MS = "0";
    resetEnvForTests();
    database = await useTestDatabase({ poolSize: 12 });
  });
  afterAll(async () => {
    await sink.close();
    await database.drop();
    delete process.env.SMTP_URL;
    delete process.env.LEAD_WEBHOOK_URL;
    resetEnvForTests();
  });
  beforeEach(async () => {
    sink.mails.length = 0;
    sink.calls.length = 0;
    sink.setWebhookUp(true);
    sink.setDelay(0);
    await database.db.delete(outbox);
  });

  async function enqueueMany(count: number) {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push(
        i % 2
          ? await enqueue(database.db, "email", {
              to: `member-${i}@example.com`,
              subject: `Message ${i}`,
              text: `Hello ${i}`,
              html: `<p>Hello ${i}</p>`,
            })
          : await enqueue(database.db, "lead_webhook", {
              leadId: `lead-${i}`,
              body: { name: `Lead ${i}`, formType: "contact" },
            }),
      );
    }
    return ids;
  }

  async function worker() {
    while ((await processOutboxBatch()) > 0) {
      // keep going while there is work
    }
  }

  it("four workers deliver 100 items, each exactly once", async () => {
    const ids = await enqueueMany(100);
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(sink.calls).toHaveLength(50);
    expect(sink.mails).toHaveLength(50);
    const keys = sink.calls.map((c) => c.headers["idempotency-key"]);
    const messageIds = sink.mails.map((m) => m.messageId);
    expect(new Set(keys).size).toBe(50);
    expect(new Set(messageIds).size).toBe(50);
    // Each delivery names its outbox item.
    for (const key of keys) expect(ids).toContain(key);
    for (const messageId of messageIds) expect(ids).toContain(/^<([^@]+)@/.exec(messageId)![1]);
    const pending = await database.db.select().from(outbox).where(isNull(outbox.deliveredAt));
    expect(pending).toHaveLength(0);
  });

  it("an item being delivered is not taken by a second worker", async () => {
    sink.setDelay(600);
    const [id] = await enqueueMany(1);
    const first = processOutboxBatch();
    await new Promise((r) => setTimeout(r, 150)); // the first worker is waiting on the receiver
    expect(await processOutboxBatch()).toBe(0);
    expect(await first).toBe(1);
    expect(await processOutboxBatch()).toBe(0);
    expect(sink.calls.map((c) => c.headers["idempotency-key"])).toEqual([id]);
  });

  it("an item whose worker died mid-delivery is delivered by another at once", async () => {
    const [id] = await enqueueMany(1);
    // A worker on its own connection locks the item, then its process dies (the backend ends).
    const dying = new pg.Client({ connectionString: database.url });
    await dying.connect();
    dying.on("error", () => {});
    await dying.query("begin");
    await dying.query("select id from outbox where id = $1 for update", [id]);
    expect(await processOutboxBatch()).toBe(0); // locked: skipped, not waited for
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const { rows } = await dying.query<{ pid: number }>("select pg_backend_pid() as pid");
    await admin.query("select pg_terminate_backend($1)", [rows[0].pid]);
    await admin.end();
    await dying.end().catch(() => {});

    expect(await processOutboxBatch()).toBe(1);
    expect(sink.calls).toHaveLength(1);
    const [row] = await database.db.select().from(outbox).where(eq(outbox.id, id));
    expect(row.deliveredAt).not.toBeNull();
    expect(row.attempts).toBe(1);
  });

  it("a receiver that stays down keeps the item, counting attempts and the last error", async () => {
    sink.setWebhookUp(false);
    await sink.setSmtpUp(false);
    try {
      await enqueueMany(2);
      expect(await processOutboxBatch()).toBe(0);
      expect(await processOutboxBatch()).toBe(0);
      const rows = await database.db.select().from(outbox);
      expect(rows.map((r) => r.attempts)).toEqual([2, 2]);
      expect(rows.every((r) => r.deliveredAt === null)).toBe(true);
      expect(rows.map((r) => r.lastError).sort()).toEqual([
        expect.stringContaining("ECONNREFUSED"),
        "webhook answered 503",
      ]);
    } finally {
      await sink.setSmtpUp(true);
    }
    sink.setWebhookUp(true);
    expect(await processOutboxBatch()).toBe(2);
    expect(sink.calls).toHaveLength(1);
    expect(sink.mails).toHaveLength(1);
  });
});
