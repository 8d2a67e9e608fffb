import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { session } from "~/db/schema";
import { signIn } from "~/features/accounts/sign-in.server";
import { AUTH_ADDRESS_LIMIT } from "~/features/accounts/rate-limit.server";
import { action as authApi } from "~/routes/api.auth";
import { createUser } from "../factories";
import { callAuthApi, configureAuthEnvironment, ORIGIN } from "../support/auth-api";
import { postgresAvailable, useTestDatabase, type TestDatabase } from "../support/test-database";

const PASSWORD = "Sturdy-Pass-2026!";

/*
 * SPEC section 5: 5 sign-in or sign-up attempts per 15 minutes, per e-mail and per client
 * address. Concurrency needs a real server: PGlite runs one query at a time.
 */
describe.skipIf(!postgresAvailable())("auth rate limits on PostgreSQL", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    configureAuthEnvironment();
    database = await useTestDatabase({ kind: "postgres", poolSize: 20 });
  });
  afterAll(async () => {
    await database.drop();
  });

  it("processes at most 5 of 20 simultaneous guesses at one e-mail (API)", async () => {
    const account = await createUser(db(), {
      email: `burst-${Date.now()}@example.com`,
      password: PASSWORD,
      firstName: "Burst",
      lastName: "Test",
    });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        callAuthApi(authApi, {
          path: "/sign-in/email",
          body: { email: account.email, password: `Wrong-Pass-${i}!` },
          clientAddress: `10.99.0.${i + 1}`,
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    // The right password now waits like any other attempt.
    const right = await callAuthApi(authApi, {
      path: "/sign-in/email",
      body: { email: account.email, password: PASSWORD },
      clientAddress: "10.99.1.1",
    });
    expect(right.status).toBe(429);
    expect(await db().select().from(session).where(eq(session.userId, account.id))).toHaveLength(0);
    const refused = responses.find((r) => r.status === 429)!;
    expect(await refused.json()).toEqual({
      code: "TOO_MANY_ATTEMPTS",
      title: "Too many attempts",
      message: expect.stringMatching(/^Please wait (1[0-5]|[1-9]) minutes before trying again\.$/),
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("processes at most AUTH_ADDRESS_LIMIT of 40 simultaneous failed sign-ins from one client address", async () => {
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        callAuthApi(authApi, {
          path: "/sign-in/email",
          body: { email: `nobody-${i}-${Date.now()}@example.com`, password: PASSWORD },
          clientAddress: "10.98.0.1",
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - AUTH_ADDRESS_LIMIT);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 401)).toBe(true);
  });

  it("the /auth page's sign-in counts against the same limit", async () => {
    const email = `page-burst-${Date.now()}@example.com`;
    await createUser(db(), { email, password: PASSWORD, firstName: "Page", lastName: "Burst" });
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        signIn(
          { email, password: "Wrong-Pass-1!" },
          new Request(`${ORIGIN}/auth`, { method: "POST", headers: { origin: ORIGIN } }),
          `10.97.0.${i + 1}`,
        ),
      ),
    );
    const limited = outcomes.filter(
      (o) => o.type === "notice" && o.notice.title === "Too many attempts",
    );
    expect(limited).toHaveLength(15);
    const processed = outcomes.filter((o) => !limited.includes(o));
    expect(processed.every((o) => o.type === "notice" && o.notice.title === "Error")).toBe(true);
  });
});
