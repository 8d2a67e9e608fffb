import crypto from "node:crypto";

/*
 * A small RFC 6238 implementation for tests: what an authenticator app computes from the
 * otpauth:// URI (or the setup key) that Profile Settings shows.
 */

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(input: string): Buffer {
  const clean = input.replace(/=+$/, "").replace(/\s+/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index === -1) throw new Error(`Not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** The code of a base32 setup key for a 30-second time step (default: now). */
export function totp(setupKey: string, step = currentStep()): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(step));
  const digest = crypto.createHmac("sha1", base32Decode(setupKey)).update(message).digest();
  const offset = digest[digest.length - 1] & 0x0f;
  return String((digest.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

export function currentStep(now = Date.now()) {
  return Math.floor(now / 30_000);
}

/** The setup key of an otpauth:// URI. */
export function secretOf(totpUri: string) {
  const secret = new URL(totpUri).searchParams.get("secret");
  if (!secret) throw new Error(`No secret in ${totpUri}`);
  return secret;
}

/** Waits out the end of a time step, so codes computed now stay valid for a few seconds. */
export async function awaitFreshStep(marginMs = 4_000) {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
