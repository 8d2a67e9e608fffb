import crypto from "node:crypto";
import { href } from "react-router";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { user } from "~/db/schema";
import { auth } from "~/lib/auth.server";
import { authSecret } from "~/lib/auth-secret.server";
import { env } from "~/lib/env.server";
import { codeMobile } from "~/lib/mobile-number.server";
import { knownDevice, knownDeviceCookie } from "./known-device.server";
import { limitAuthAttempt, tooManyAttempts } from "./rate-limit.server";
import type { Notice } from "./schema";
import { answerOf, cookiesOf, destinationFor, type AuthOutcome } from "./sign-in.server";
import { checkTextCode, requestTextCode, verifiedAccount } from "./text-codes.server";

/*
 * 'Sign in with a text code' on /auth (ADR 086). Step one takes the mobile number and answers
 * the same whether or not it belongs to an account; the number waits for step two in a short
 * signed cookie (never in the address bar). Step two checks the code under the sign-in's own
 * limits (the account's lockout and known-device rules, as a password), then Better Auth
 * creates the session, or asks for the TOTP code when the account has it.
 */

export const CODE_WRONG: Notice = {
  kind: "error",
  title: "Error",
  description:
    "This code is wrong or has expired. Check the text and try again, or ask for a new code.",
};

export const CODES_PAUSED: Notice = {
  kind: "error",
  title: "Text codes are paused",
  description:
    "We are not sending sign-in codes for a while. Please sign in with your e-mail and password.",
};

export const NOT_A_MOBILE = "Please enter a US mobile number (not a toll-free or 900 number)";

const COOKIE = "text_code_phone";
const COOKIE_MAX_AGE_S = 10 * 60;

function mac(value: string) {
  return crypto
    .createHmac("sha256", authSecret())
    .update(`text-code-phone\0${value}`)
    .digest("base64url");
}

/** The cookie that carries the number from step one to step two (10 minutes). */
function pendingCookie(phone: string, now = Date.now()) {
  const value = `${phone}.${now + COOKIE_MAX_AGE_S * 1000}`;
  const secure = env().publicUrl.startsWith("https://") ? "; Secure" : "";
  return `${COOKIE}=${value}.${mac(value)}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`;
}

function clearedCookie() {
  return `${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;
}

/** The number waiting for its code, when the request carries a valid, unexpired cookie. */
export function pendingPhone(request: Request, now = Date.now()): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== COOKIE) continue;
    const [phone, expires, sent] = rest.join("=").split(".");
    if (!phone || !expires || !sent) return null;
    const expected = mac(`${phone}.${expires}`);
    if (sent.length !== expected.length) return null;
    if (!crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) return null;
    return Number(expires) > now ? phone : null;
  }
  return null;
}

const STEP_TWO = `${href("/auth")}?step=text-code&notice=code-sent`;

/** Step one: a code to this number, if it signs in to an account. */
export async function sendSignInCode(
  input: { mobilePhone: string; key: string },
  clientAddress: string,
  now = new Date(),
): Promise<AuthOutcome> {
  const phone = codeMobile(input.mobilePhone);
  if (!phone)
    return {
      type: "notice",
      notice: { kind: "error", title: "Invalid mobile number", description: NOT_A_MOBILE },
      status: 400,
    };
  const outcome = await requestTextCode({
    purpose: "sign-in",
    phone,
    userId: null,
    clientAddress,
    key: input.key,
    now,
  });
  if (outcome.status === "limited")
    return { type: "notice", notice: tooManyAttempts(outcome.minutes), status: 429 };
  if (outcome.status === "paused") return { type: "notice", notice: CODES_PAUSED, status: 503 };
  const headers = new Headers({ "Set-Cookie": pendingCookie(phone, now.getTime()) });
  return { type: "redirect", to: STEP_TWO, headers };
}

/** Step two: the code; then the session (or the TOTP step), as after a right password. */
export async function signInWithTextCode(
  input: { code: string },
  request: Request,
  clientAddress: string,
  now = new Date(),
): Promise<AuthOutcome> {
  const phone = pendingPhone(request, now.getTime());
  if (!phone) return { type: "redirect", to: `${href("/auth")}?notice=text-code-expired` };
  const account = await verifiedAccount(db(), phone);
  const email = account ? await emailOf(account) : null;
  // The account's own limits, as a password sign-in; a number without one still counts.
  const lockKey = email ?? `text-code:${phone}`;
  const device = email ? knownDevice(request, email) : null;
  const limit = await limitAuthAttempt(lockKey, clientAddress, device);
  if (!limit.allowed)
    return { type: "notice", notice: tooManyAttempts(limit.minutes), status: 429 };
  const checked = await checkTextCode({ purpose: "sign-in", phone, code: input.code, now });
  if (!checked.ok || !email) return { type: "notice", notice: CODE_WRONG, status: 400 };
  await limit.succeededSignIn();

  const response = await answerOf(() =>
    auth().api.signInWithTextCode({
      body: { codeId: checked.codeId },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!response.ok) return { type: "notice", notice: CODE_WRONG, status: 400 };
  const body = (await response.json()) as { twoFactorRedirect?: boolean; user?: { id: string } };
  const headers = cookiesOf(response);
  headers.append("Set-Cookie", knownDeviceCookie(email, device));
  headers.append("Set-Cookie", clearedCookie());
  if (body.twoFactorRedirect) return { type: "two-factor", headers };
  if (!body.user) return { type: "notice", notice: CODE_WRONG, status: 400 };
  return { type: "redirect", to: await destinationFor(body.user.id), headers };
}

async function emailOf(userId: string) {
  const [row] = await db().select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email ?? null;
}
