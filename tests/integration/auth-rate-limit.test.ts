import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { session } from "~/db/schema";
import { signIn } from "~/features/accounts/sign-in.server";
import {
  AUTH_ADDRESS_LIMIT,
  AUTH_ATTEMPT_LIMIT,
  AUTH_ATTEMPT_WINDOW_MS,
  AUTH_EMAIL_LIMIT,
} from "~/features/accounts/rate-limit.server";
import { hit } from "~/lib/rate-limit.server";
import { action as authApi } from "~/routes/api.auth";
import { createUser } from "../../server/seed/factories";
import {
  callAuthApi,
  cookieFrom,
  createTestAccount,
  ORIGIN,
  TEST_PASSWORD,
  withAuthTestDatabase,
} from "../support/auth-api";
import { postgresAvailable } from "../support/test-database";

/*
 * SPEC section 5: 5 sign-in or sign-up attempts per 15 minutes, per e-mail and client address;
 * wider ceilings per e-mail and per address that a browser known to the account passes (ADR 021).
 */
describe("sign-in lockout that strangers cannot switch on", () => {
  withAuthTestDatabase();

  const owner = () => createTestAccount("owner", { firstName: "Olive", lastName: "Owner" });
  const signInAs = (email: string, password: string, clientAddress: string, cookie?: string) =>
    callAuthApi(authApi, {
      path: "/sign-in/email",
      body: { email, password },
      clientAddress,
      cookie,
    });

  it("the owner signs in with the right password while a stranger is locked out of her e-mail", async () => {
    const account = await owner();
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT + 2; i++)
      statuses.push((await signInAs(account.email, `Wrong-Pass-${i}!`, "10.66.0.1")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // A new browser of hers, at home: not held by the stranger's failures.
    expect((await signInAs(account.email, TEST_PASSWORD, "10.66.0.2")).status).toBe(200);
    // The /auth page too.
    const outcome = await signIn(
      { email: account.email, password: TEST_PASSWORD },
      new Request(`${ORIGIN}/auth`, { method: "POST", headers: { origin: ORIGIN } }),
      "10.66.0.3",
    );
    expect(outcome.type).toBe("redirect");
  });

  it("says the true wait: right after five failures, 15 minutes", async () => {
    const account = await owner();
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT; i++)
      await signInAs(account.email, `Wrong-Pass-${i}!`, "10.66.1.1");
    const refused = await signInAs(account.email, TEST_PASSWORD, "10.66.1.1");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({
      message: "Please wait 15 minutes before trying again.",
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
  });

  it("guessing spread over many addresses meets a ceiling per e-mail that her known browser passes", async () => {
    const account = await owner();
    // She signed in on this browser before: it holds a device cookie for her e-mail.
    const first = await signInAs(account.email, TEST_PASSWORD, "10.66.2.1");
    expect(first.status).toBe(200);
    const known = cookieFrom(first)
      .replace(/(^|; )better-auth[^;]*/g, "")
      .replace(/^; /, "");
    expect(known).toMatch(/^known_device_/);

    const statuses: number[] = [];
    for (let i = 0; i < AUTH_EMAIL_LIMIT + 2; i++)
      statuses.push((await signInAs(account.email, `Wrong-Pass-${i}!`, `10.66.3.${i + 1}`)).status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(AUTH_EMAIL_LIMIT);
    expect(statuses.slice(AUTH_EMAIL_LIMIT)).toEqual([429, 429]);

    // A browser new to her account waits; her known one signs in, wherever she is.
    expect((await signInAs(account.email, TEST_PASSWORD, "10.66.4.1")).status).toBe(429);
    expect((await signInAs(account.email, TEST_PASSWORD, "10.66.4.2", known)).status).toBe(200);
    // A forged cookie, or one from another account, is a new browser.
    const forged = known.replace(/=([^.]+)\./, "=AAAAAAAAAAAAAAAAAAAAAAAA.");
    expect((await signInAs(account.email, TEST_PASSWORD, "10.66.4.3", forged)).status).toBe(429);
    const other = await owner();
    const otherCookie = cookieFrom(await signInAs(other.email, TEST_PASSWORD, "10.66.4.4"))
      .split("; ")
      .filter((c) => c.startsWith("known_device_"))
      .join("; ");
    expect((await signInAs(account.email, TEST_PASSWORD, "10.66.4.5", otherCookie)).status).toBe(
      429,
    );
  });

  it("a known browser gets the spec's 5 tries itself: a copied cookie is no master key", async () => {
    const account = await owner();
    const known = cookieFrom(await signInAs(account.email, TEST_PASSWORD, "10.66.5.1"))
      .split("; ")
      .filter((c) => c.startsWith("known_device_"))
      .join("; ");
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_ATTEMPT_LIMIT + 1; i++)
      statuses.push(
        (await signInAs(account.email, `Wrong-Pass-${i}!`, `10.66.6.${i + 1}`, known)).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await signInAs(account.email, TEST_PASSWORD, "10.66.6.9", known)).status).toBe(429);
  });

  it("many members behind one address: the address's ceiling does not hold a known browser", async () => {
    // The address's failures so far (counted as the gateway counts them, without the hashing).
    for (let i = 0; i < AUTH_ADDRESS_LIMIT; i++)
      await hit("auth:ip:10.66.7.1", AUTH_ADDRESS_LIMIT, AUTH_ATTEMPT_WINDOW_MS);
    const account = await owner();
    // Signed in before (elsewhere), now at the busy address.
    const known = cookieFrom(await signInAs(account.email, TEST_PASSWORD, "10.66.7.2"))
      .split("; ")
      .filter((c) => c.startsWith("known_device_"))
      .join("; ");
    expect((await signInAs(account.email, TEST_PASSWORD, "10.66.7.1")).status).toBe(429);
    expect((await signInAs(account.email, TEST_PASSWORD, "10.66.7.1", known)).status).toBe(200);
  });
});

/* Concurrency needs a real server: PGlite runs one query at a time. */
describe.skipIf(!postgresAvailable())("auth rate limits on PostgreSQL", () => {
  withAuthTestDatabase({ kind: "postgres", poolSize: 20 });

  it("processes at most AUTH_EMAIL_LIMIT of 20 simultaneous guesses at one e-mail from 20 addresses (API)", async () => {
    const account = await createTestAccount("burst", { firstName: "Burst", lastName: "Test" });
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
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - AUTH_EMAIL_LIMIT);
    expect(statuses.filter((s) => s === 401)).toHaveLength(AUTH_EMAIL_LIMIT);
    // The right password now waits like any other attempt.
    const right = await callAuthApi(authApi, {
      path: "/sign-in/email",
      body: { email: account.email, password: TEST_PASSWORD },
      clientAddress: "10.99.1.1",
    });
    // A browser new to the account waits like any other.
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
          body: { email: `nobody-${i}-${Date.now()}@example.com`, password: TEST_PASSWORD },
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
    await createUser(db(), {
      email,
      password: TEST_PASSWORD,
      firstName: "Page",
      lastName: "Burst",
    });
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
    expect(limited).toHaveLength(20 - AUTH_EMAIL_LIMIT);
    const processed = outcomes.filter((o) => !limited.includes(o));
    expect(processed.every((o) => o.type === "notice" && o.notice.title === "Error")).toBe(true);
  });
});
