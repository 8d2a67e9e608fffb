import { hitAll, type RateLimitResult, refund } from "~/lib/rate-limit.server";
import type { Notice } from "./schema";

/**
 * SPEC section 5: 5 sign-in or sign-up attempts per 15 minutes (DESIGN decision 5, ADR 010),
 * counted per e-mail and client address together (ADR 021): someone guessing from one address
 * gets the spec's 5 tries, and a stranger's failures elsewhere do not lock the owner out.
 */
export const AUTH_ATTEMPT_LIMIT = 5;
export const AUTH_ATTEMPT_WINDOW_MS = 15 * 60_000;
/**
 * Guessing spread over many addresses: a ceiling per e-mail (ADR 021). A browser that signed in
 * to the account before (its device cookie) is not held by it: strangers can reach the ceiling,
 * and then only browsers new to the account wait.
 */
export const AUTH_EMAIL_LIMIT = 10;
/**
 * One client address is often many people (an office, a household, a carrier's NAT, every
 * visitor behind a proxy without TRUST_PROXY): it gets a wider limit than one e-mail (ADR 010).
 * A known device is not held by it either.
 */
export const AUTH_ADDRESS_LIMIT = 30;

export type AuthAttempt = RateLimitResult & {
  /** A correct password: the attempt is taken back from every counter it was counted in. */
  succeededSignIn(): Promise<void>;
  /** An account was created: taken back from the address counter (the e-mail's still counts). */
  succeededSignUp(): Promise<void>;
};

/**
 * Counts one sign-in or sign-up attempt before Better Auth sees it, so a burst cannot test
 * passwords faster than the limits allow:
 * - from a browser new to the account: per e-mail and client address (5), per e-mail (10), per
 *   client address (30);
 * - from a known device (`device`, the id in its signed cookie, sign-in only): per device (5).
 * What the limits are for is failures, so a successful attempt is taken back afterwards:
 * someone who signs in and out all day, or a family signing up one after another, is never
 * locked out.
 */
export async function limitAuthAttempt(
  email: string,
  clientAddress: string,
  device: string | null = null,
): Promise<AuthAttempt> {
  const now = Date.now();
  const address = email.trim().toLowerCase();
  const emailAndAddressKey = `auth:email-ip:${address}|${clientAddress}`;
  const emailKey = `auth:email:${address}`;
  const addressKey = `auth:ip:${clientAddress}`;
  const keys = device
    ? [{ key: `auth:device:${device}`, limit: AUTH_ATTEMPT_LIMIT }]
    : [
        { key: emailAndAddressKey, limit: AUTH_ATTEMPT_LIMIT },
        { key: emailKey, limit: AUTH_EMAIL_LIMIT },
        { key: addressKey, limit: AUTH_ADDRESS_LIMIT },
      ];
  const result = await hitAll(keys, AUTH_ATTEMPT_LIMIT, AUTH_ATTEMPT_WINDOW_MS, now);
  const takeBack = (taken: string[]) =>
    Promise.all(taken.map((key) => refund(key, AUTH_ATTEMPT_WINDOW_MS, now))).then(() => {});
  return {
    ...result,
    succeededSignIn: () => takeBack(keys.map(({ key }) => key)),
    succeededSignUp: () => takeBack(device ? [] : [addressKey]),
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
