import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { sql } from "drizzle-orm";

/*
 * A mobile number that may receive a sign-in code (ADR 086), parsed with libphonenumber-js
 * (Google's metadata, kept up to date by its maintainers) rather than by counting digits: a US
 * number only, valid for its area code, and never a premium-rate (900) or toll-free one
 * (800, 833, 844, 855, 866, 877, 888), the numbers SMS pumping fraud is paid through.
 */

const REFUSED_TYPES = new Set(["PREMIUM_RATE", "TOLL_FREE", "SHARED_COST", "UAN", "VOICEMAIL"]);
const REFUSED_AREA_CODES = new Set(["900", "800", "833", "844", "855", "866", "877", "888"]);

/** The number in E.164 (+1 and ten digits), or null when it is not a US number we text. */
export function codeMobile(input: string | null | undefined): string | null {
  const value = input?.trim();
  if (!value || value.length > 40) return null;
  const parsed = parsePhoneNumberFromString(value, "US");
  if (!parsed || parsed.country !== "US" || !parsed.isValid()) return null;
  const type = parsed.getType();
  if (type && REFUSED_TYPES.has(type)) return null;
  if (REFUSED_AREA_CODES.has(parsed.nationalNumber.slice(0, 3))) return null;
  return parsed.number;
}

/**
 * The profile's verified mark when its mobile is set to `phone`: kept when the number stays the
 * same, cleared when it changes (a new number must be verified again before it signs in).
 */
export function verifiedMarkFor(phone: string | null) {
  return sql`case when "profiles"."mobile_phone" is not distinct from ${phone} then "profiles"."mobile_verified_at" else null end`;
}
