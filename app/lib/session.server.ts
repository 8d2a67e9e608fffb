import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { href, redirect } from "react-router";
import type { Database } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { homes, profiles, session, user } from "~/db/schema";
import { SESSION_COOKIE } from "./auth-cookies";
import { auth, type Auth } from "./auth.server";

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  isEmployee: boolean;
  /** An employee who is a handyman (ADR 047): their own visits only, never the office's pages. */
  isHandyman: boolean;
  profilePhotoUrl: string | null;
  hasHome: boolean;
  /** An authenticator app guards sign-in (two-factor authentication). */
  twoFactorEnabled: boolean;
};

/*
 * The session lookup of every signed-in page (docs/decisions/031-signed-in-pages-near-the-floor.md).
 * Better Auth still issues, refreshes and revokes sessions; reading one is ours: the signed
 * session cookie is checked here (HMAC-SHA256 with the auth secret, as Better Auth signs it)
 * and one indexed query reads the session row with its user, profile and home. Nothing is
 * cached: a session deleted by sign-out, a password reset or a revocation is refused on the
 * very next request, in every process.
 */

type LookupConfig = {
  tokenCookie: string;
  dontRememberCookie: string;
  key: Buffer;
  expiresInMs: number;
  updateAgeMs: number;
};

/** Cookie names, the signing key and the refresh rule, read once per Better Auth instance. */
const configs = new WeakMap<Auth, Promise<LookupConfig>>();
function lookupConfig(instance: Auth) {
  let config = configs.get(instance);
  if (!config) {
    config = instance.$context.then((context) => ({
      tokenCookie: context.authCookies.sessionToken.name,
      dontRememberCookie: context.authCookies.dontRememberToken.name,
      key: Buffer.from(context.secret, "utf8"),
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    }));
    configs.set(instance, config);
  }
  return config;
}

/** The first value of a cookie, URL-decoded as Better Auth reads it; undefined when absent. */
export function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return value.includes("%") ? decodeURIComponent(value) : value;
    } catch {
      return value;
    }
  }
  return undefined;
}

/**
 * Cookies whose signature was found right, by key: a signature right once is right every time,
 * so a signed-in person's next requests skip the HMAC (a new HMAC object and its key for each
 * request, 0.6% of a dashboard tab's CPU). Whether the session is still valid is the query's
 * to say, every time. Bounded: the oldest go first.
 */
const verified = new WeakMap<Buffer, Map<string, string>>();
const VERIFIED_KEPT = 2000;

/** The value of a cookie Better Auth signed (`value.base64(HMAC-SHA256)`), or null if forged. */
export function verifiedCookie(signed: string | undefined, key: Buffer): string | null {
  if (!signed) return null;
  let known = verified.get(key);
  const value = known?.get(signed);
  if (value !== undefined) return value;
  const checked = checkSignature(signed, key);
  if (checked === null) return null;
  if (!known) verified.set(key, (known = new Map()));
  if (known.size >= VERIFIED_KEPT) known.delete(known.keys().next().value!);
  known.set(signed, checked);
  return checked;
}

function checkSignature(signed: string, key: Buffer): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const value = signed.slice(0, dot);
  const signature = Buffer.from(signed.slice(dot + 1), "utf8");
  const expected = Buffer.from(
    crypto.createHmac("sha256", key).update(value).digest("base64"),
    "utf8",
  );
  return signature.length === expected.length && crypto.timingSafeEqual(signature, expected)
    ? value
    : null;
}

/** The one query: the session by its token, with its user, profile and home. */
function prepareLookup(database: Database) {
  return database
    .select({
      expiresAt: session.expiresAt,
      id: user.id,
      email: user.email,
      name: user.name,
      twoFactorEnabled: user.twoFactorEnabled,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      phone: profiles.mobilePhone,
      isEmployee: profiles.isEmployee,
      staffRole: profiles.staffRole,
      profilePhotoUrl: profiles.profilePhotoUrl,
      homeId: homes.id,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .leftJoin(profiles, eq(profiles.userId, session.userId))
    .leftJoin(homes, eq(homes.customerId, session.userId))
    .where(eq(session.token, sql.placeholder("token")))
    .limit(1)
    .prepare("session_user_by_token");
}
function lookup(token: string) {
  return prepared("session_user_by_token", prepareLookup).execute({ token });
}

/** The signed-in user with their profile, or null. Reads the session cookie of the request. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const cookies = request.headers.get("cookie") ?? "";
  // No session cookie, no session: a visitor's request costs nothing more.
  if (!SESSION_COOKIE.test(cookies)) return null;
  const instance = auth();
  const config = await lookupConfig(instance);
  const token = verifiedCookie(cookieValue(cookies, config.tokenCookie), config.key);
  if (!token) return null;
  const [row] = await lookup(token);
  const now = Date.now();
  if (!row || row.expiresAt.getTime() <= now) return null;
  // Better Auth moves a session's expiry forward once it is `updateAge` old (once a day): that
  // write stays Better Auth's, on the rare request that needs it.
  const rememberMe = !cookieValue(cookies, config.dontRememberCookie);
  if (rememberMe && row.expiresAt.getTime() - config.expiresInMs + config.updateAgeMs <= now) {
    await instance.api.getSession({ headers: request.headers });
  }
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    firstName: row.firstName ?? null,
    lastName: row.lastName ?? null,
    phone: row.phone ?? null,
    isEmployee: row.isEmployee ?? false,
    isHandyman: Boolean(row.isEmployee && row.staffRole === "handyman"),
    profilePhotoUrl: row.profilePhotoUrl ?? null,
    hasHome: Boolean(row.homeId),
    twoFactorEnabled: Boolean(row.twoFactorEnabled),
  };
}

/** No session: to /auth. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect(href("/auth"));
  return user;
}

/**
 * The customer dashboard's rule (SPEC section 2): no session or no home record → /auth
 * (where the property setup dialog opens); an employee → /employee.
 */
export async function requireCustomer(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.isEmployee) throw redirect(href("/employee"));
  if (!user.hasHome) throw redirect(href("/auth"));
  return user;
}

/** For actions: a customer may act without the redirect dance, but never an employee or a visitor. */
export async function requireCustomerForAction(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw new Response("Unauthorized", { status: 401 });
  if (user.isEmployee) throw new Response("Forbidden", { status: 403 });
  return user;
}

/**
 * The office's pages: a non-employee is sent to /dashboard with the 'Access Denied' notice
 * (?denied=employee), a handyman to their 'Today' (ADR 047).
 */
export async function requireEmployee(request: Request): Promise<SessionUser> {
  const user = await requireStaff(request);
  if (user.isHandyman) throw redirect(href("/employee/today"));
  return user;
}

/** For the office's actions and resource routes: 401/403 instead of redirects (a handyman: 403). */
export async function requireEmployeeForAction(request: Request): Promise<SessionUser> {
  const user = await requireStaffForAction(request);
  if (user.isHandyman) throw new Response("Forbidden", { status: 403 });
  return user;
}

/**
 * Pages open to every employee, office staff and handymen alike ('Today', their own hours):
 * each one narrows what a handyman sees to their own.
 */
export async function requireStaff(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!user.isEmployee) throw redirect(`${href("/dashboard")}?denied=employee`);
  return user;
}

/** requireStaff for actions: 401/403 instead of redirects. */
export async function requireStaffForAction(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw new Response("Unauthorized", { status: 401 });
  if (!user.isEmployee) throw new Response("Forbidden", { status: 403 });
  return user;
}
