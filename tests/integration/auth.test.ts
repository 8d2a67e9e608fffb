import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { outbox, profiles, session, twoFactor, user } from "~/db/schema";
import { pendingPasswordResets } from "~/features/accounts/sign-in.server";
import { auth } from "~/lib/auth.server";
import { action as authApi } from "~/routes/api.auth";
import { action as accountAction } from "~/routes/account";
import {
  callAuthApi,
  cookieFrom,
  createTestAccount,
  ORIGIN,
  TEST_PASSWORD,
  withAuthTestDatabase,
} from "../support/auth-api";
import { awaitFreshStep, currentStep, secretOf, totp } from "../support/totp";

withAuthTestDatabase();

const verifiedUser = (options: { isEmployee?: boolean } = {}) =>
  createTestAccount("member", options);

async function signIn(account: { email: string; password: string }) {
  const response = await callAuthApi(authApi, {
    path: "/sign-in/email",
    body: { email: account.email, password: account.password },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return { response, cookie: cookieFrom(response) };
}

async function sessionOf(cookie: string) {
  return auth().api.getSession({ headers: new Headers({ cookie }) });
}

/** The newest e-mail the outbox holds for an address. */
async function lastMailTo(email: string) {
  const rows = await db().select().from(outbox).where(eq(outbox.kind, "email"));
  const mails = rows
    .map((row) => ({
      ...(row.payload as { to: string; subject: string; text: string }),
      at: row.createdAt,
    }))
    .filter((mail) => mail.to === email)
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const mail = mails.at(-1);
  if (!mail) throw new Error(`No e-mail to ${email}`);
  return mail;
}

function postAccount(intent: string, fields: Record<string, string>, cookie: string) {
  const body = new URLSearchParams({ intent, ...fields });
  const request = new Request(`${ORIGIN}/account`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, cookie },
    body,
  });
  return accountAction({ request, params: {}, context: {} } as never);
}

describe("sessions end when they should", () => {
  it("signing out deletes the session: its cookie no longer works", async () => {
    const account = await verifiedUser();
    const { cookie } = await signIn(account);
    expect((await sessionOf(cookie))?.user.email).toBe(account.email);

    const response = await callAuthApi(authApi, { path: "/sign-out", cookie });
    expect(response.status).toBe(200);
    expect(await sessionOf(cookie)).toBeNull();
    const rows = await db().select().from(session).where(eq(session.userId, account.id));
    expect(rows).toHaveLength(0);
  });

  it("a password reset ends every session of the account", async () => {
    const account = await verifiedUser();
    const first = await signIn(account);
    const second = await signIn(account);
    expect(await db().select().from(session).where(eq(session.userId, account.id))).toHaveLength(2);

    const request = await callAuthApi(authApi, {
      path: "/request-password-reset",
      body: { email: account.email, redirectTo: "/auth" },
    });
    expect(request.status).toBe(200);
    await pendingPasswordResets(); // the answer does not wait for the e-mail to be queued
    const mail = await lastMailTo(account.email);
    const link = /https?:\/\/\S+\/reset-password\/([\w-]+)\?callbackURL=%2Fauth/.exec(mail.text);
    expect(link, mail.text).not.toBeNull();

    const reset = await callAuthApi(authApi, {
      path: "/reset-password",
      body: { token: link![1], newPassword: "Brand-New-Pass-7?" },
    });
    expect(reset.status).toBe(200);
    expect(await sessionOf(first.cookie)).toBeNull();
    expect(await sessionOf(second.cookie)).toBeNull();
    expect(await db().select().from(session).where(eq(session.userId, account.id))).toHaveLength(0);
    // And the new password is the one that works.
    await signIn({ email: account.email, password: "Brand-New-Pass-7?" });
  });
});

describe("two-factor codes work once", () => {
  async function enrol() {
    const account = await verifiedUser();
    const { cookie } = await signIn(account);
    const enable = (await auth().api.enableTwoFactor({
      body: { password: TEST_PASSWORD },
      headers: new Headers({ cookie, origin: ORIGIN }),
    })) as { totpURI: string; backupCodes: string[] };
    const key = secretOf(enable.totpURI);
    await awaitFreshStep(8_000);
    // Confirm with the previous step's code, so the current step stays unused for sign-in.
    const confirm = await callAuthApi(authApi, {
      path: "/two-factor/verify-totp",
      body: { code: totp(key, currentStep() - 1) },
      cookie,
    });
    expect(confirm.status, await confirm.clone().text()).toBe(200);
    const [row] = await db().select().from(user).where(eq(user.id, account.id));
    expect(row.twoFactorEnabled).toBe(true);
    return { account, key, backupCodes: enable.backupCodes };
  }

  /** Password sign-in of a 2FA account: no session yet, only the pending-challenge cookie. */
  async function startSignIn(account: { email: string; password: string }) {
    const response = await callAuthApi(authApi, {
      path: "/sign-in/email",
      body: { email: account.email, password: account.password },
    });
    expect(await response.clone().json()).toMatchObject({ twoFactorRedirect: true });
    const cookie = cookieFrom(response);
    expect(await sessionOf(cookie)).toBeNull();
    return cookie;
  }

  it("refuses a TOTP code that was already accepted, and an older one", async () => {
    const { account, key } = await enrol();
    const code = totp(key, currentStep());

    const pending = await startSignIn(account);
    const accepted = await callAuthApi(authApi, {
      path: "/two-factor/verify-totp",
      body: { code },
      cookie: pending,
    });
    expect(accepted.status).toBe(200);
    expect((await sessionOf(cookieFrom(accepted, pending)))?.user.id).toBe(account.id);

    const again = await startSignIn(account);
    const replayed = await callAuthApi(authApi, {
      path: "/two-factor/verify-totp",
      body: { code },
      cookie: again,
    });
    expect(replayed.status).toBe(401);
    expect(await sessionOf(cookieFrom(replayed, again))).toBeNull();

    // The enrolment's (older) code is refused too, even though it is inside Better Auth's window.
    const older = await callAuthApi(authApi, {
      path: "/two-factor/verify-totp",
      body: { code: totp(key, currentStep() - 1) },
      cookie: again,
    });
    expect(older.status).toBe(401);
  });

  it("lets only one of two simultaneous uses of the same code through", async () => {
    const { account, key } = await enrol();
    const code = totp(key, currentStep() + 1);
    const [a, b] = await Promise.all([startSignIn(account), startSignIn(account)]);
    const results = await Promise.all(
      [a, b].map((cookie) =>
        callAuthApi(authApi, { path: "/two-factor/verify-totp", body: { code }, cookie }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it("a backup code works once", async () => {
    const { account, backupCodes } = await enrol();
    const pending = await startSignIn(account);
    const first = await callAuthApi(authApi, {
      path: "/two-factor/verify-backup-code",
      body: { code: backupCodes[0] },
      cookie: pending,
    });
    expect(first.status).toBe(200);
    const again = await startSignIn(account);
    const second = await callAuthApi(authApi, {
      path: "/two-factor/verify-backup-code",
      body: { code: backupCodes[0] },
      cookie: again,
    });
    expect(second.status).toBe(401);
    const [row] = await db().select().from(twoFactor).where(eq(twoFactor.userId, account.id));
    expect(row.backupCodes).not.toContain(backupCodes[0]);
  });
});

describe("employee access cannot be self-granted", () => {
  it("ignores isEmployee sent at sign-up", async () => {
    const email = `eager-${Date.now()}@example.com`;
    const response = await callAuthApi(authApi, {
      path: "/sign-up/email",
      body: {
        name: "Eager Beaver",
        firstName: "Eager",
        lastName: "Beaver",
        email,
        password: TEST_PASSWORD,
        isEmployee: true,
        is_employee: true,
        emailVerified: true,
      },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const [row] = await db()
      .select({
        isEmployee: profiles.isEmployee,
        first: profiles.firstName,
        verified: user.emailVerified,
      })
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(eq(user.email, email));
    expect(row).toEqual({ isEmployee: false, first: "Eager", verified: false });
  });

  it("ignores isEmployee sent with a profile update or a Better Auth user update", async () => {
    const account = await verifiedUser();
    const { cookie } = await signIn(account);
    const response = await postAccount(
      "update-profile",
      {
        firstName: "Casey",
        lastName: "Member",
        phone: "404-555-0100",
        isEmployee: "true",
        is_employee: "on",
      },
      cookie,
    );
    expect(response).toMatchObject({ ok: true });
    const update = await callAuthApi(authApi, {
      path: "/update-user",
      body: { isEmployee: true, name: "Casey Member" },
      cookie,
    });
    expect(update.status).toBeLessThan(500);
    const [row] = await db()
      .select({ isEmployee: profiles.isEmployee, phone: profiles.mobilePhone })
      .from(profiles)
      .where(eq(profiles.userId, account.id));
    expect(row).toEqual({ isEmployee: false, phone: "+14045550100" });
  });

  it("keeps one profile per user and touches only the caller's home", async () => {
    const a = await verifiedUser();
    const b = await verifiedUser();
    const { cookie } = await signIn(a);
    const saved = await postAccount(
      "save-home",
      { address: "1 Main St", city: "Decatur", state: "GA", zipCode: "30030" },
      cookie,
    );
    expect(saved).toMatchObject({ ok: true, message: "Home address created successfully" });
    const rows = await db()
      .select()
      .from(profiles)
      .where(and(eq(profiles.userId, b.id)));
    expect(rows).toHaveLength(1);
    const { getHome } = await import("~/features/accounts/profile.server");
    expect(await getHome(b.id)).toBeNull();
    expect((await getHome(a.id))?.city).toBe("Decatur");
  });
});
