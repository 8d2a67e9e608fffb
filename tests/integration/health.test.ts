import type { AddressInfo } from "node:net";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setDatabase, type DatabaseHandle } from "~/db/client.server";
import { createApp } from "../../server/app";
import { checkHealth, HEALTH_PING_TIMEOUT_MS, pingAfterNow } from "../../server/health";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

describe("GET /healthz", () => {
  let database: TestDatabase;
  let server: ReturnType<ReturnType<typeof createApp>["listen"]>;
  let base: string;

  beforeAll(async () => {
    database = await useTestDatabase();
    // /healthz is answered before the React Router handler: no build is needed here.
    const app = createApp({ build: {} as ServerBuild });
    await new Promise<void>((resolve) => {
      server = app.listen(0, "127.0.0.1", () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers 200 while the database answers, then 503 when it does not", async () => {
    const up = await fetch(`${base}/healthz`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: "ok", database: "up" });
    expect(up.headers.get("cache-control")).toBe("no-store");

    await database.drop();
    const down = await fetch(`${base}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: "error", database: "down" });
  });

  it("sends the security headers", async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("sends HSTS only over https (as reported by a trusted proxy)", async () => {
    const plain = await fetch(`${base}/healthz`, { headers: { "x-forwarded-proto": "https" } });
    // TRUST_PROXY is off by default: the forwarded protocol is not believed.
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("health checks that arrive together share a ping begun after them", () => {
  /** A database whose pings answer when the test says. */
  const pings: { resolve(): void; reject(error: Error): void }[] = [];
  const ping = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        pings.push({ resolve, reject });
      }),
  );
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  beforeAll(() => {
    setDatabase({ ping } as unknown as DatabaseHandle);
  });
  afterAll(() => {
    setDatabase(undefined);
  });

  it("a caller during a ping waits for the next one, which serves everyone who came meanwhile", async () => {
    ping.mockClear();
    pings.length = 0;
    const first = pingAfterNow();
    const second = pingAfterNow();
    const third = pingAfterNow();
    await settle();
    expect(ping).toHaveBeenCalledTimes(1);
    const done: string[] = [];
    void first.then(() => done.push("first"));
    void second.then(() => done.push("second"));
    void third.then(() => done.push("third"));

    pings[0].resolve();
    await settle();
    // The first ping began before the others arrived: they wait for one of their own.
    expect(done).toEqual(["first"]);
    expect(ping).toHaveBeenCalledTimes(2);
    pings[1].resolve();
    await settle();
    expect(done).toEqual(["first", "second", "third"]);
    expect(ping).toHaveBeenCalledTimes(2);
  });

  it("a failed ping fails the checks that waited for it; the next check pings again", async () => {
    ping.mockClear();
    pings.length = 0;
    const answer = checkHealth(false);
    await settle();
    pings[0].reject(new Error("connection refused"));
    expect(await answer).toEqual({
      status: 503,
      body: { status: "error", database: "down", error: "connection refused" },
    });
    const again = checkHealth(false);
    await settle();
    expect(ping).toHaveBeenCalledTimes(2);
    pings[1].resolve();
    expect(await again).toEqual({ status: 200, body: { status: "ok", database: "up" } });
  });

  it("a ping that hangs past the timeout holds no later check back", async () => {
    ping.mockClear();
    pings.length = 0;
    const hung = pingAfterNow();
    await settle();
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now + HEALTH_PING_TIMEOUT_MS + 1);
    try {
      const later = pingAfterNow();
      await settle();
      expect(ping).toHaveBeenCalledTimes(2);
      pings[1].resolve();
      await later;
    } finally {
      clock.mockRestore();
      pings[0].resolve();
      await hung;
    }
  });

  it("while draining, no ping at all", async () => {
    ping.mockClear();
    expect(await checkHealth(true)).toEqual({
      status: 503,
      body: { status: "draining", database: "unknown" },
    });
    expect(ping).not.toHaveBeenCalled();
  });
});
