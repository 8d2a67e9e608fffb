import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import { db } from "~/db/client.server";
import { homes, profiles } from "~/db/schema";
import { auth } from "./auth.server";

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  isEmployee: boolean;
  profilePhotoUrl: string | null;
  hasHome: boolean;
  /** An authenticator app guards sign-in (two-factor authentication). */
  twoFactorEnabled: boolean;
};

/** Better Auth's session cookie, with or without the __Secure- prefix it takes over HTTPS. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

/** The signed-in user with their profile, or null. Reads the session cookie of the request. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  // No session cookie, no session: a visitor's request skips Better Auth's per-call context
  // (it showed in the CPU profile of /auth under load).
  if (!SESSION_COOKIE.test(request.headers.get("cookie") ?? "")) return null;
  const session = await auth().api.getSession({ headers: request.headers });
  if (!session) return null;
  const [row] = await db()
    .select({
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      phone: profiles.phone,
      isEmployee: profiles.isEmployee,
      profilePhotoUrl: profiles.profilePhotoUrl,
      homeId: homes.id,
    })
    .from(profiles)
    .leftJoin(homes, eq(homes.customerId, profiles.userId))
    .where(eq(profiles.userId, session.user.id))
    .limit(1);
  return {
    id: session.user.id,
    email: session.user.email,
    name: session.user.name,
    firstName: row?.firstName ?? null,
    lastName: row?.lastName ?? null,
    phone: row?.phone ?? null,
    isEmployee: row?.isEmployee ?? false,
    profilePhotoUrl: row?.profilePhotoUrl ?? null,
    hasHome: Boolean(row?.homeId),
    twoFactorEnabled: Boolean(session.user.twoFactorEnabled),
  };
}

/** No session: to /auth. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw redirect("/auth");
  return user;
}

/**
 * The customer dashboard's rule (SPEC section 2): no session or no home record → /auth
 * (where the property setup dialog opens); an employee → /employee.
 */
export async function requireCustomer(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (user.isEmployee) throw redirect("/employee");
  if (!user.hasHome) throw redirect("/auth");
  return user;
}

/** For actions: a customer may act without the redirect dance, but never an employee or a visitor. */
export async function requireCustomerForAction(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw new Response("Unauthorized", { status: 401 });
  if (user.isEmployee) throw new Response("Forbidden", { status: 403 });
  return user;
}

/** A non-employee is sent to /dashboard with the 'Access Denied' notice (?denied=employee). */
export async function requireEmployee(request: Request): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!user.isEmployee) throw redirect("/dashboard?denied=employee");
  return user;
}

/** For actions and resource routes: 401/403 instead of redirects. */
export async function requireEmployeeForAction(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (!user) throw new Response("Unauthorized", { status: 401 });
  if (!user.isEmployee) throw new Response("Forbidden", { status: 403 });
  return user;
}
