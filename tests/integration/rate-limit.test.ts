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
    // Once the attempts have left the window it is open again; other keys are independent.
    expect((await hit("lead:a@example.com", 3, TEN_MINUTES, start + TEN_MINUTES)).allowed).toBe(
      true,
    );
    expect((await hit("lead:b@example.com", 3, TEN_MINUTES, start)).allowed).toBe(true);
  });

  it("says the true wait: identical bursts at different times are told the same minutes", async () => {
    // Before: a fixed window told bursts at :00, :01 and :02 to wait 9, 8 and 7 minutes.
    const base = Date.UTC(2026, 10, 22, 15, 0, 0);
    const waits: number[] = [];
    for (const [i, offset] of [0, 60_000, 120_000, 7 * 60_000 + 13_000].entries()) {
      const key = `burst:${i}`;
      const at = base + offset;
      for (let n = 0; n < 3; n++) await hit(key, 3, TEN_MINUTES, at + n * 1000);
      const refused = await hit(key, 3, TEN_MINUTES, at + 60_000);
      expect(refused.allowed).toBe(false);
      waits.push(refused.allowed ? 0 : refused.minutes);
      // ... and the wait is true: refused a moment before, allowed at it.
      const retryAt = at + 60_000 + (refused.allowed ? 0 : refused.retryAfterMs);
      expect((await hit(key, 3, TEN_MINUTES, retryAt - 1)).allowed).toBe(false);
      expect((await hit(key, 3, TEN_MINUTES, retryAt)).allowed).toBe(true);
    }
    expect(waits).toEqual([9, 9, 9, 9]);
  });

  it("never lets twice the limit through around a window's edge", async () => {
    // Fixed windows let 3 in just before 15:10 and 3 more just after: 6 in two seconds.
    const edge = Date.UTC(2026, 10, 22, 15, 10, 0);
    const key = "edge:x@example.com";
    const allowedAt: number[] = [];
    for (let t = edge - 2000; t <= edge + 2000; t += 250)
      if ((await hit(key, 3, TEN_MINUTES, t)).allowed) allowedAt.push(t);
    expect(allowedAt).toHaveLength(3);
    // Over a longer run, any ten minutes hold at most 3 accepted attempts.
    const run = "edge:run";
    const accepted: number[] = [];
    for (let t = edge; t < edge + 3 * TEN_MINUTES; t += 37_000)
      if ((await hit(run, 3, TEN_MINUTES, t)).allowed) accepted.push(t);
    for (const t of accepted)
      expect(accepted.filter((u) => u >= t && u < t + TEN_MINUTES).length).toBeLessThanOrEqual(3);
    expect(accepted.length).toBeGreaterThanOrEqual(9);
  });

  it("a refused attempt records nothing: retrying does not lengthen the wait", async () => {
    const start = Date.UTC(2026, 10, 22, 21, 0, 0);
    for (let i = 0; i < 3; i++) await hit("patient", 3, TEN_MINUTES, start);
    for (let t = start + 1000; t < start + TEN_MINUTES; t += 60_000)
      expect((await hit("patient", 3, TEN_MINUTES, t)).allowed).toBe(false);
    expect((await hit("patient", 3, TEN_MINUTES, start + TEN_MINUTES)).allowed).toBe(true);
    // Refused by one key of several, the attempt counts against none of them.
    for (let i = 0; i < 3; i++) await hit("full:ip", 3, TEN_MINUTES, start);
    expect((await hitAll(["fresh:email", "full:ip"], 3, TEN_MINUTES, start + 1)).allowed).toBe(
      false,
    );
    for (let i = 0; i < 3; i++)
      expect((await hit("fresh:email", 3, TEN_MINUTES, start + 2)).allowed).toBe(true);
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

    it("stays exact when simultaneous attempts share keys in different orders", async () => {
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          hitAll(
            i % 2 ? ["shared:a", "shared:b"] : ["shared:b", `own:${i}`, "shared:a"],
            4,
            15 * 60_000,
            now + (i % 3),
          ),
        ),
      );
      expect(results.filter((r) => r.allowed)).toHaveLength(4);
      const after = await hit("shared:a", 4, 15 * 60_000, now + 10);
      expect(after.allowed).toBe(false);
    });
  },
);
