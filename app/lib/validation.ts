import { z } from "zod";

/*
 * The shared rules of docs/product.md section 5, used by the browser and re-checked by the server.
 * Messages are the spec's exact words.
 */

/*
 * Plain words for what only a hand-made request can send: a field repeated (it arrives as a
 * list), a value of the wrong kind, a choice that is not one of the options. Without this a
 * person would read Zod's own "Invalid input: expected string, received array". A message set
 * on a schema always wins over these.
 */
z.config({
  customError(issue) {
    if (issue.code === "invalid_type") {
      if (issue.expected === "string") return "Please enter this as text";
      if (issue.expected === "array") return "Please check this list";
      return "Please check this form";
    }
    if (issue.code === "invalid_value" || issue.code === "invalid_union")
      return "Please choose one of the options";
    return undefined;
  },
});

/**
 * Control characters nobody types (a form's text is letters, digits, punctuation, spaces, tabs
 * and line breaks). PostgreSQL cannot even store NUL: text containing one would fail on save.
 */
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const CONTROL_CHARACTERS_MESSAGE = "Please remove the unusual characters from this field";

export function withoutControlCharacters(value: string) {
  return !CONTROL_CHARACTERS.test(value);
}

/** The text without them, where nobody is asked to fix it (a search term from the URL). */
export function removeControlCharacters(value: string) {
  return value.replace(new RegExp(CONTROL_CHARACTERS.source, "g"), "");
}

/**
 * Removes < > ' " &, collapses whitespace and trims: the spec's cleaning of the home page
 * form's other fields. Names are no longer cleaned (ADR 020).
 */
export function cleanText(value: string) {
  return value
    .replace(/[<>'"&]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/*
 * The one rule for an e-mail address (ADR 027), used by every form, sign-up, leads, the booking,
 * calendar files and mail: what the calendar library (`ics`), the mail library (nodemailer) and
 * the accounts library (Better Auth, which checks with zod's `z.email()`) all carry unchanged,
 * so an address we accept never fails after a booking or a sign-up has begun.
 * - local part: ASCII letters, digits and _ ' + - in dot-separated runs (no leading, trailing or
 *   doubled dot: nodemailer would quote it), not ending in an apostrophe, at most 64 characters;
 * - domain: labels of letters, digits and inner hyphens (at most 63 characters each), then a
 *   top-level label of two or more letters (nodemailer reads "a@1.2" as an IP address);
 * - at most 254 characters in all. No spaces, quotes, brackets or non-ASCII letters
 *   ("josé@example.com"): the calendar library refuses them.
 */
const EMAIL_ATEXT = "[a-z0-9_'+-]";
const EMAIL_LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
export const EMAIL_PATTERN = new RegExp(
  `^${EMAIL_ATEXT}+(?:\\.${EMAIL_ATEXT}+)*@(?:${EMAIL_LABEL}\\.)+[a-z]{2,63}$`,
  "i",
);
export const EMAIL_MAX_LENGTH = 254;
const EMAIL_LOCAL_MAX_LENGTH = 64;

/** True when `value` is an e-mail address by the one rule above (case does not matter). */
export function isValidEmail(value: string) {
  if (value.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(value)) return false;
  const at = value.indexOf("@");
  return at <= EMAIL_LOCAL_MAX_LENGTH && value[at - 1] !== "'";
}

/**
 * A name as its owner writes it (DESIGN decision 13, ADR 020): letters of any script with their
 * accents, spaces, hyphens, straight and curly apostrophes and periods ("Siobhán O'Brien-Nuñez",
 * "D’Arcy Jr.", "李 小龍"). Nothing is removed: a name with other characters is refused with the
 * spec's message, and pages escape names when they show them.
 */
const NAME_CHARACTERS = /^[\p{L}\p{M} '’ʼ.\-‐]+$/u;

/** The same name however it was typed: one space between words, composed accents (NFC). */
export function tidyName(value: string) {
  return value.normalize("NFC").replace(/\s+/g, " ").trim();
}

export const nameSchema = z
  .string({ error: "Name is required" })
  .transform(tidyName)
  .pipe(
    // Conform turns an empty string into undefined even here, after tidying ("  " → "").
    z
      .string({ error: "Name is required" })
      .min(1, "Name is required")
      .min(2, "Name must be at least 2 characters")
      .max(50, "Name must be less than 50 characters")
      .regex(NAME_CHARACTERS, "Name contains invalid characters")
      .regex(/\p{L}/u, "Name contains invalid characters"),
  );

export const zipCodeSchema = z
  .string({ error: "Zip code is required" })
  .trim()
  .min(1, "Zip code is required")
  .regex(/^\d{5}(-\d{4})?$/, "Please enter a valid zip code");

export const emailSchema = z
  .string({ error: "Please enter a valid email address" })
  .trim()
  .toLowerCase()
  // Too long stops here, before the pattern sees hostile input of any length.
  .max(EMAIL_MAX_LENGTH, { message: "Please enter a valid email address", abort: true })
  .refine(isValidEmail, "Please enter a valid email address");

export const PASSWORD_SPECIALS = /[!@#$%^&*(),.?":{}|<>]/;

export const newPasswordSchema = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .min(8, "Password must be at least 8 characters")
  .max(128, "Password must be less than 128 characters")
  .refine(
    (value) =>
      /[A-Z]/.test(value) &&
      /[a-z]/.test(value) &&
      /\d/.test(value) &&
      PASSWORD_SPECIALS.test(value),
    "Password must contain uppercase, lowercase, number, and special character",
  );
