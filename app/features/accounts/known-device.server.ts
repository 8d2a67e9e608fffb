import crypto from "node:crypto";
import { authSecret } from "~/lib/auth-secret.server";
import { env } from "~/lib/env.server";

/*
 * The device cookie (OWASP, "Slow down online guessing attacks with device cookies"; ADR 021):
 * a browser that has signed in to an account with its password gets a signed cookie naming
 * that e-mail. Its later sign-ins to that account are limited per device, so failures made by
 * strangers against the e-mail (from any address) never lock it out.
 */

const NAME_PREFIX = "known_device_";
const ONE_YEAR_S = 365 * 24 * 60 * 60;

function normalized(email: string) {
  return email.trim().toLowerCase();
}

function mac(purpose: string, value: string) {
  return crypto
    .createHmac("sha256", authSecret())
    .update(`${purpose}\0${value}`)
    .digest("base64url");
}

/** One cookie per account signed in from this browser; its name does not reveal the e-mail. */
function cookieName(email: string) {
  return NAME_PREFIX + mac("device-name", normalized(email)).slice(0, 16);
}

function signature(email: string, nonce: string) {
  return mac("device", `${normalized(email)}\0${nonce}`);
}

/**
 * This browser's device id for `email`, when its request carries a device cookie signed for
 * that e-mail; null otherwise (a forged, copied-between-accounts or missing cookie).
 */
export function knownDevice(request: Request, email: string): string | null {
  const name = cookieName(email);
  const header = request.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key !== name) continue;
    const [nonce, sent] = rest.join("=").split(".");
    if (!nonce || !sent || !/^[A-Za-z0-9_-]{16,64}$/.test(nonce)) return null;
    const expected = signature(email, nonce);
    if (
      sent.length === expected.length &&
      crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected))
    )
      return nonce;
    return null;
  }
  return null;
}

/** The Set-Cookie header that marks this browser as known for `email` (after a right password). */
export function knownDeviceCookie(email: string, existing: string | null = null) {
  const nonce = existing ?? crypto.randomBytes(18).toString("base64url");
  const secure = env().publicUrl.startsWith("https://") ? "; Secure" : "";
  return `${cookieName(email)}=${nonce}.${signature(email, nonce)}; Path=/; Max-Age=${ONE_YEAR_S}; HttpOnly; SameSite=Lax${secure}`;
}
