/*
 * One mobile number per person (issue 40, item 8; ADR 085): stored once (profiles.mobile_phone,
 * +1 and ten digits when it is a US number), used for texts, and shown everywhere in one
 * format, (404) 555-0181.
 */

/** The ten digits of a US number (with or without its leading 1), or null. */
function usDigits(phone: string): string | null {
  const digits = phone.replace(/\D/g, "");
  if (digits.length === 10 && /^[2-9]/.test(digits)) return digits;
  if (digits.length === 11 && digits.startsWith("1") && /^[2-9]/.test(digits.slice(1)))
    return digits.slice(1);
  return null;
}

/** A US number as stored: +1 and ten digits; anything else as typed (trimmed), or null. */
export function storedPhone(phone: string | null | undefined): string | null {
  const value = phone?.trim();
  if (!value) return null;
  const digits = usDigits(value);
  return digits ? `+1${digits}` : value;
}

/** A number as people read it: "(404) 555-0181"; a number that is not a US one as stored. */
export function formatPhone(phone: string): string;
export function formatPhone(phone: string | null | undefined): string | null;
export function formatPhone(phone: string | null | undefined): string | null {
  if (!phone) return null;
  const digits = usDigits(phone);
  if (!digits) return phone;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** A US number as +1 and ten digits (the form texts are sent to), or null when it is not one. */
export function e164(phone: string | null | undefined): string | null {
  const digits = phone ? usDigits(phone) : null;
  return digits ? `+1${digits}` : null;
}

/**
 * A tel: link for a number: "(404) 555-0142" -> "tel:+14045550142" (ten digits get the US
 * country code; other lengths their digits after a plus). With `asWritten`, the digits and any
 * plus sign as the number is written: "(404) 555-0181" -> "tel:4045550181" (the handyman's
 * 'Today').
 */
export function phoneHref(phone: string, { asWritten = false } = {}): string {
  if (asWritten) return `tel:${phone.replace(/[^\d+]/g, "")}`;
  const digits = phone.replace(/\D/g, "");
  return `tel:+${digits.length === 10 ? `1${digits}` : digits}`;
}

/** The digits a search for a phone number looks for ("(404) 555" finds +14045550181). */
export function phoneSearchDigits(search: string): string | null {
  if (!/^[\d\s().+-]+$/.test(search)) return null;
  const digits = search.replace(/\D/g, "");
  return digits.length >= 3 ? digits : null;
}
