import { z } from "zod";

/*
 * The shared rules of SPEC.md section 5, used by the browser and re-checked by the server.
 * Messages are the spec's exact words.
 */

/** Removes < > ' " &, collapses whitespace and trims (home page form and sign-up). */
export function cleanText(value: string) {
  return value
    .replace(/[<>'"&]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The simple e-mail pattern: something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const nameSchema = z
  .string({ error: "Name is required" })
  .transform(cleanText)
  .pipe(
    // Conform turns an empty string into undefined even here, after cleaning ("<>" → "").
    z
      .string({ error: "Name is required" })
      .min(1, "Name is required")
      .min(2, "Name must be at least 2 characters")
      .max(50, "Name must be less than 50 characters")
      .regex(/^[\p{L}\s'-]+$/u, "Name contains invalid characters"),
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
  .max(254, "Please enter a valid email address")
  .regex(EMAIL_PATTERN, "Please enter a valid email address");

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
