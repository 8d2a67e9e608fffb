import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hit, hitAll, refund } from "~/lib/rate-limit.server";
import { postgresAvailable, useTestDatabase, type TestDatabase } from "../support/test-database";

const TEN_MINUTES = 10 * 60_000;

describe("the shared rate limiter", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await useTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it("lets `limit` attempts through per window and tells how many minutes remain", async () => {
    const start = Date.UTC(2026, 10, 22, 15, 0, 0);
    for (let i = 0; i < 3; i++)
      expect((await hit("lead:a@example.com", 3, TEN_MINUTES, start)).allowed).toBe(true);
    const refused = await hit("lead:a@example.com", 3, TEN_MINUTES, start + 60_000);
    expect(refused).toEqual({ allowed: false, retryAfterMs: 9 * 60_000, minutes: 9 });
    // A new window starts afresh; other keys are independent.
    expect((await hit("lead:a@example.com", 3, TEN_MINUTES, start + TEN_MINUTES)).allowed).toBe(
      true,
    );
    expect((await hit("lead:b@example.com", 3, TEN_MINUTES, start)).allowed).toBe(true);
  });

  it("refuses when any of several keys is over its limit", async () => {
    const now = Date.UTC(2026, 10, 22, 16, 0, 0);
    for (let i = 0; i < 3; i++) await hit("ip:10.0.0.1", 3, TEN_MINUTES, now);
    const result = await hitAll(["email:new@example.com", "ip:10.0.0.1"], 3, TEN_MINUTES, now);
    expect(result.allowed).toBe(false);
  });

  it("takes back a hit from the window it was counted in, never below zero", async () => {
    const now = Date.UTC(2026, 10, 22, 18, 0, 0);
    for (let i = 0; i < 3; i++) await hit("auth:email:ok@example.com", 3, TEN_MINUTES, now);
    await refund("auth:email:ok@example.com", TEN_MINUTES, now);
    // One more fits again, and only one.
    expect((await hit("auth:email:ok@example.com", 3, TEN_MINUTES, now + 1000)).allowed).toBe(true);
    expect((await hit("auth:email:ok@example.com", 3, TEN_MINUTES, now + 2000)).allowed).toBe(
      false,
    );
    // A refund in a later window does not touch the earlier one or go negative.
    await refund("auth:email:ok@example.com", TEN_MINUTES, now + TEN_MINUTES);
    await refund("auth:email:never@example.com", TEN_MINUTES, now);
    for (let i = 0; i < 3; i++)
      expect((await hit("auth:email:never@example.com", 3, TEN_MINUTES, now)).allowed).toBe(true);
    expect((await hit("auth:email:never@example.com", 3, TEN_MINUTES, now)).allowed).toBe(false);
  });

  it("gives each key its own limit when asked", async () => {
    const now = Date.UTC(2026, 10, 22, 19, 0, 0);
    for (let i = 0; i < 5; i++) {
      const result = await hitAll(
        [`email:${i}@example.com`, { key: "ip:10.0.0.9", limit: 5 }],
        1,
        TEN_MINUTES,
        now,
      );
      expect(result.allowed).toBe(true);
    }
    expect(
      (await hitAll(["email:x@example.com", { key: "ip:10.0.0.9", limit: 5 }], 1, TEN_MINUTES, now))
        .allowed,
    ).toBe(false);
  });

  it("counts a key of hostile length (a forged X-Forwarded-For) without a database error", async () => {
    const now = Date.UTC(2026, 10, 22, 17, 0, 0);
    // Random, so PostgreSQL cannot compress it under its index size limit.
    const huge = `auth:ip:${Array.from({ length: 3000 }, () => Math.random().toString(36).slice(2)).join("")}`;
    for (let i = 0; i < 3; i++) expect((await hit(huge, 3, TEN_MINUTES, now)).allowed).toBe(true);
    expect((await hit(huge, 3, TEN_MINUTES, now)).allowed).toBe(false);
    // A different long key with the same beginning is counted apart.
    expect((await hit(`${huge}x`, 3, TEN_MINUTES, now)).allowed).toBe(true);
  });
});

describe.skipIf(!postgresAvailable())(
  "the rate limiter on PostgreSQL under a concurrent burst",
  () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await useTestDatabase({ kind: "postgres", poolSize: 20 });
    });
    afterAll(async () => {
      await database.drop();
    });

    it("lets exactly `limit` of 20 simultaneous attempts through", async () => {
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => hit("burst:key", 5, 15 * 60_000, now)),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(5);
    });
  },
);
