import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { profiles, session, user } from "~/db/schema";
import { getSessionUser } from "~/lib/session.server";
import { action as authApi } from "~/routes/api.auth";
import { action as accountAction } from "~/routes/account";
import { createHome } from "../../server/seed/factories";
import {
  callAuthApi,
  cookieFrom,
  createTestAccount,
  ORIGIN,
  TEST_PASSWORD,
  withAuthTestDatabase,
} from "../support/auth-api";

/*
 * The session lookup of every signed-in page (ADR 031): our own signed-cookie check and one
 * query, no cache. Whatever ends a session (signing out, a revocation from another device, a
 * password change, expiry) is refused on the next request; what changes about the person
 * (employee or not, two-factor, their home) shows on the next request.
 */

withAuthTestDatabase();

const account = () => createTestAccount("lookup", { firstName: "Sam", lastName: "Lookup" });

async function signIn(who: { email: string; password: string }) {
  const response = await callAuthApi(authApi, {
    path: "/sign-in/email",
    body: { email: who.email, password: who.password },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return cookieFrom(response);
}

function pageRequest(cookie: string) {
  return new Request(`${ORIGIN}/dashboard`, { headers: { cookie, accept: "text/html" } });
}

const lookUp = (cookie: string) => getSessionUser(pageRequest(cookie));

describe("getSessionUser", () => {
  it("reads the signed-in person with their profile and home", async () => {
    const who = await account();
    const cookie = await signIn(who);
    expect(await lookUp(cookie)).toMatchObject({
      id: who.id,
      email: who.email,
      firstName: "Sam",
      lastName: "Lookup",
      isEmployee: false,
      hasHome: false,
      twoFactorEnabled: false,
    });
    await createHome(db(), who.id);
    expect((await lookUp(cookie))?.hasHome).toBe(true);
  });

  it("refuses a cookie whose signature does not match, and a visitor without one", async () => {
    const who = await account();
    const cookie = await signIn(who);
    const [name, value] = cookie.split(";")[0].split(/=(.*)/s);
    const decoded = decodeURIComponent(value);
    const token = decoded.slice(0, decoded.lastIndexOf("."));
    // The right token with a signature made up, and a made-up token with the real signature.
    const forged = `${name}=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`;
    // The token's first character changed (a token may itself start with "x").
    const other = decoded.startsWith("x") ? "y" : "x";
    const swapped = `${name}=${encodeURIComponent(`${other}${decoded.slice(1)}`)}`;
    expect(await lookUp(forged)).toBeNull();
    expect(await lookUp(swapped)).toBeNull();
    expect(await lookUp(`${name}=${token}`)).toBeNull();
    expect(await lookUp("")).toBeNull();
    expect(await lookUp(cookie)).not.toBeNull();
    // Once the real cookie's signature is known right (and kept), the forged ones still fail.
    expect(await lookUp(cookie)).not.toBeNull();
    expect(await lookUp(forged)).toBeNull();
    expect(await lookUp(swapped)).toBeNull();
  });

  it("refuses the session at once after signing out in the same browser", async () => {
    const who = await account();
    const cookie = await signIn(who);
    expect(await lookUp(cookie)).not.toBeNull();
    const request = new Request(`${ORIGIN}/account`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, cookie },
      body: new URLSearchParams({ intent: "sign-out", js: "1" }),
    });
    const response = await accountAction({ request, params: {}, context: {} } as never);
    expect(response instanceof Response ? response.status : 200).toBeLessThan(400);
    // The browser would drop the cookie; a copy of it kept elsewhere no longer works either.
    expect(await lookUp(cookie)).toBeNull();
  });

  it("refuses a session revoked from another device at once", async () => {
    const who = await account();
    const laptop = await signIn(who);
    const phone = await signIn(who);
    const revoke = await callAuthApi(authApi, { path: "/revoke-other-sessions", cookie: phone });
    expect(revoke.status, await revoke.clone().text()).toBe(200);
    expect(await lookUp(laptop)).toBeNull();
    expect((await lookUp(phone))?.id).toBe(who.id);
  });

  it("refuses the other sessions at once after a password change that revokes them", async () => {
    const who = await account();
    const laptop = await signIn(who);
    const phone = await signIn(who);
    const change = await callAuthApi(authApi, {
      path: "/change-password",
      body: {
        currentPassword: TEST_PASSWORD,
        newPassword: "Brand-New-Pass-7?",
        revokeOtherSessions: true,
      },
      cookie: phone,
    });
    expect(change.status, await change.clone().text()).toBe(200);
    expect(await lookUp(laptop)).toBeNull();
    // The browser that changed it carries on with the session it was given.
    expect((await lookUp(cookieFrom(change, phone)))?.id).toBe(who.id);
  });

  it("refuses an expired session", async () => {
    const who = await account();
    const cookie = await signIn(who);
    await db()
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.userId, who.id));
    expect(await lookUp(cookie)).toBeNull();
  });

  it("shows a change to the person on the next request: employee access, two-factor", async () => {
    const who = await account();
    const cookie = await signIn(who);
    await db().update(profiles).set({ isEmployee: true }).where(eq(profiles.userId, who.id));
    await db().update(user).set({ twoFactorEnabled: true }).where(eq(user.id, who.id));
    expect(await lookUp(cookie)).toMatchObject({ isEmployee: true, twoFactorEnabled: true });
    await db().update(profiles).set({ isEmployee: false }).where(eq(profiles.userId, who.id));
    expect((await lookUp(cookie))?.isEmployee).toBe(false);
  });

  it("lets Better Auth move the expiry forward once the session is a day old", async () => {
    const who = await account();
    const cookie = await signIn(who);
    const day = 86_400_000;
    // Signed in 2 days ago: 28 days left of 30.
    const stale = new Date(Date.now() + 28 * day);
    await db().update(session).set({ expiresAt: stale }).where(eq(session.userId, who.id));
    expect((await lookUp(cookie))?.id).toBe(who.id);
    const [row] = await db().select().from(session).where(eq(session.userId, who.id));
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * day);
  });
});
