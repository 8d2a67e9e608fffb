import { hitAll, type RateLimitResult, refund } from "~/lib/rate-limit.server";
import type { Notice } from "./schema";

/** SPEC section 5: 5 sign-in or sign-up attempts per 15 minutes (DESIGN decision 5, ADR 010). */
export const AUTH_ATTEMPT_LIMIT = 5;
export const AUTH_ATTEMPT_WINDOW_MS = 15 * 60_000;
/**
 * One client address is often many people (an office, a household, a carrier's NAT, every
 * visitor behind a proxy without TRUST_PROXY): it gets a wider limit than one e-mail (ADR 010).
 */
export const AUTH_ADDRESS_LIMIT = 30;

export type AuthAttempt = RateLimitResult & {
  /** A correct password: the attempt is taken back from both counters. */
  succeededSignIn(): Promise<void>;
  /** An account was created: taken back from the address counter (the e-mail's still counts). */
  succeededSignUp(): Promise<void>;
};

/**
 * Counts one sign-in or sign-up attempt against the e-mail address and the client address,
 * before Better Auth sees it: a burst cannot test passwords faster than the limit allows. What
 * the limit is for is failures, so a successful attempt is taken back afterwards: someone who
 * signs in and out all day, or a family signing up one after another, is never locked out.
 */
export async function limitAuthAttempt(email: string, clientAddress: string): Promise<AuthAttempt> {
  const now = Date.now();
  const emailKey = `auth:email:${email.trim().toLowerCase()}`;
  const addressKey = `auth:ip:${clientAddress}`;
  const result = await hitAll(
    [emailKey, { key: addressKey, limit: AUTH_ADDRESS_LIMIT }],
    AUTH_ATTEMPT_LIMIT,
    AUTH_ATTEMPT_WINDOW_MS,
    now,
  );
  const takeBack = (keys: string[]) =>
    Promise.all(keys.map((key) => refund(key, AUTH_ATTEMPT_WINDOW_MS, now))).then(() => {});
  return {
    ...result,
    succeededSignIn: () => takeBack([emailKey, addressKey]),
    succeededSignUp: () => takeBack([addressKey]),
  };
}

/** Reset and confirmation e-mails on request: the same numbers, so nobody floods an inbox. */
export function limitAccountMail(email: string, clientAddress: string): Promise<RateLimitResult> {
  return hitAll(
    [
      `auth-mail:email:${email.trim().toLowerCase()}`,
      { key: `auth-mail:ip:${clientAddress}`, limit: AUTH_ADDRESS_LIMIT },
    ],
    AUTH_ATTEMPT_LIMIT,
    AUTH_ATTEMPT_WINDOW_MS,
  );
}

export function tooManyAttempts(minutes: number): Notice {
  return {
    kind: "error",
    title: "Too many attempts",
    description: `Please wait ${minutes} minutes before trying again.`,
  };
}
