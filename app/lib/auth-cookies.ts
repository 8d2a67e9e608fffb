/*
 * Better Auth's cookies, by name, with or without the __Secure- prefix it gives them over HTTPS.
 * Plain patterns with no dependency: the session lookup, the sign-in page and the server's
 * fast path (which serves the sign-in page to a visitor who has none of them) read the same.
 */

/** The session cookie: its holder may be signed in. */
export const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

/** The cookie that holds a sign-in waiting for its second factor. */
export const PENDING_TWO_FACTOR = /(?:^|;\s*)(?:__Secure-)?better-auth\.two_factor=/;

/** Any of Better Auth's cookies (session, its cached data, don't-remember, two-factor). */
export const ANY_AUTH_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\./;
