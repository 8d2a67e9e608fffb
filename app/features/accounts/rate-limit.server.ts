import { hitAll, type RateLimitResult } from "~/lib/rate-limit.server";
import type { Notice } from "./schema";

/** SPEC section 5: 5 sign-in or sign-up attempts per 15 minutes (DESIGN decision 5). */
export const AUTH_ATTEMPT_LIMIT = 5;
export const AUTH_ATTEMPT_WINDOW_MS = 15 * 60_000;

/**
 * Counts one sign-in or sign-up attempt against the e-mail address and the client address.
 * Every attempt counts, successful or not, before Better Auth sees it: a burst cannot test
 * passwords faster than the limit allows.
 */
export function limitAuthAttempt(email: string, clientAddress: string): Promise<RateLimitResult> {
  return hitAll(
    [`auth:email:${email.trim().toLowerCase()}`, `auth:ip:${clientAddress}`],
    AUTH_ATTEMPT_LIMIT,
    AUTH_ATTEMPT_WINDOW_MS,
  );
}

/** Reset and confirmation e-mails on request: the same numbers, so nobody floods an inbox. */
export function limitAccountMail(email: string, clientAddress: string): Promise<RateLimitResult> {
  return hitAll(
    [`auth-mail:email:${email.trim().toLowerCase()}`, `auth-mail:ip:${clientAddress}`],
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
