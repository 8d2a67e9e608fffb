import type { AddressInfo } from "node:net";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../server/app";
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
