import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actionKeys, outbox, rateLimits, session, user, verification } from "~/db/schema";
import { ACTION_KEY_RETENTION_DAYS, claimActionKey, newActionKey } from "~/lib/action-keys.server";
import {
  DELIVERED_OUTBOX_RETENTION_MS,
  RATE_LIMIT_RETENTION_MS,
  runHousekeeping,
} from "~/lib/housekeeping.server";
import { startBackgroundWork } from "../../server/start-up";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

const HOUR = 60 * 60_000;

describe(`housekeeping keeps the tables bounded (${testDatabaseKind()})`, () => {
  let database: TestDatabase;
  let userId: string;

  beforeAll(async () => {
    database = await useTestDatabase();
    userId = crypto.randomUUID();
    await database.db.insert(user).values({ id: userId, name: "Hal Keeping", email: "hal@x.test" });
  });
  afterAll(async () => {
    await database.drop();
  });

  async function seed(now: number) {
    const ago = (ms: number) => new Date(now - ms);
    await database.db.insert(rateLimits).values([
      { key: "old", windowStart: ago(RATE_LIMIT_RETENTION_MS + HOUR), count: 3 },
      { key: "recent", windowStart: ago(RATE_LIMIT_RETENTION_MS - HOUR), count: 3 },
      { key: "current", windowStart: ago(60_000), count: 1 },
    ]);
    const sessionRow = (id: string, expiresAt: Date) => ({
      id,
      token: `token-${id}`,
      userId,
      expiresAt,
    });
    await database.db
      .insert(session)
      .values([sessionRow("expired", ago(60_000)), sessionRow("live", ago(-7 * 24 * HOUR))]);
    await database.db.insert(verification).values([
      { id: "expired", identifier: "reset:a", value: "a", expiresAt: ago(60_000) },
      { id: "live", identifier: "reset:b", value: "b", expiresAt: ago(-HOUR) },
    ]);
    const item = (leadId: string, deliveredAt: Date | null) => ({
      kind: "lead_webhook" as const,
      payload: { body: {}, leadId },
      deliveredAt,
      createdAt: ago(40 * 24 * HOUR),
    });
    await database.db
      .insert(outbox)
      .values([
        item("delivered-long-ago", ago(DELIVERED_OUTBOX_RETENTION_MS + HOUR)),
        item("delivered-recently", ago(24 * HOUR)),
        item("never-delivered", null),
      ]);
    await database.db.insert(actionKeys).values([
      { key: "key-old", actorId: userId, action: "part", createdAt: ago(31 * 24 * HOUR) },
      { key: "key-recent", actorId: userId, action: "part", createdAt: ago(29 * 24 * HOUR) },
    ]);
  }

  it("deletes each kind of expired row and keeps the live ones", async () => {
    const now = Date.now();
    await seed(now);
    expect(await runHousekeeping(new Date(now))).toEqual({
      rateLimits: 1,
      sessions: 1,
      verifications: 1,
      outbox: 1,
      actionKeys: 1,
      textCodes: 0,
    });
    const keys = (await database.db.select().from(rateLimits)).map((r) => r.key).sort();
    expect(keys).toEqual(["current", "recent"]);
    expect((await database.db.select().from(session)).map((r) => r.id)).toEqual(["live"]);
    expect((await database.db.select().from(verification)).map((r) => r.id)).toEqual(["live"]);
    const leads = (await database.db.select().from(outbox)).map(
      (r) => (r.payload as { leadId: string }).leadId,
    );
    expect(leads.sort()).toEqual(["delivered-recently", "never-delivered"]);
    expect((await database.db.select().from(actionKeys)).map((r) => r.key)).toEqual(["key-recent"]);

    // Nothing left to do: a second pass deletes nothing.
    expect(await runHousekeeping(new Date(now))).toEqual({
      rateLimits: 0,
      sessions: 0,
      verifications: 0,
      outbox: 0,
      actionKeys: 0,
      textCodes: 0,
    });
  });

  it("two passes at the same moment both succeed and delete each row once", async () => {
    await database.db.delete(rateLimits);
    await database.db.delete(session);
    await database.db.delete(verification);
    await database.db.delete(outbox);
    await database.db.delete(actionKeys);
    const now = Date.now();
    await seed(now);
    const results = await Promise.all([
      runHousekeeping(new Date(now)),
      runHousekeeping(new Date(now)),
    ]);
    const total = (field: "rateLimits" | "sessions" | "verifications" | "outbox" | "actionKeys") =>
      results.reduce((sum, r) => sum + (r?.[field] ?? 0), 0);
    expect([
      total("rateLimits"),
      total("sessions"),
      total("verifications"),
      total("outbox"),
      total("actionKeys"),
    ]).toEqual([1, 1, 1, 1, 1]);
    expect(await database.db.select().from(rateLimits)).toHaveLength(2);
  });

  it("a form sent again within 30 days is still applied once; after them its key is forgotten", async () => {
    await database.db.delete(actionKeys);
    const key = newActionKey();
    const claim = () => claimActionKey(database.db, { key, actorId: userId, action: "part:x" });
    expect(await claim()).toBe(true);
    // The database's clock stamped the claim (it may not be the test's, under faketime).
    const [{ createdAt }] = await database.db.select().from(actionKeys);
    const claimedAt = createdAt.getTime();
    const day = 24 * HOUR;
    // 29 days on: housekeeping keeps the key, and the same form posted again changes nothing.
    await runHousekeeping(new Date(claimedAt + (ACTION_KEY_RETENTION_DAYS - 1) * day));
    expect(await claim()).toBe(false);
    // 31 days on: the key is forgotten.
    const pass = await runHousekeeping(new Date(claimedAt + (ACTION_KEY_RETENTION_DAYS + 1) * day));
    expect(pass?.actionKeys).toBe(1);
    expect(await database.db.select().from(actionKeys)).toHaveLength(0);
  });

  it("the servers' start-up routine starts the periodic job: a first pass soon, a clean stop", async () => {
    await database.db
      .insert(rateLimits)
      .values({ key: "stale", windowStart: new Date(Date.now() - 2 * RATE_LIMIT_RETENTION_MS) });
    const job = startBackgroundWork({ housekeeping: { firstPassMs: 10, intervalMs: 60_000 } });
    const deadline = Date.now() + 5_000;
    let left = 1;
    while (left > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      left = (await database.db.select().from(rateLimits)).filter((r) => r.key === "stale").length;
    }
    await job.stop();
    expect(left).toBe(0);
  });
});
