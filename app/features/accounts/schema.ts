import { z } from "zod";
import {
  CONTROL_CHARACTERS_MESSAGE,
  emailSchema,
  nameSchema,
  newPasswordSchema,
  tidyName,
  withoutControlCharacters,
} from "~/lib/validation";
import { stateCode } from "./us-states";
import { isUsPhone, MOBILE_MESSAGE, TEXTS_NEED_MOBILE_MESSAGE } from "~/lib/message-kinds";

/*
 * The account forms' rules (SPEC section 5), shared by the browser (Conform) and the server,
 * which re-validates every submission. Each form posts an `intent`.
 */

/** A required e-mail: empty and malformed addresses get the spec's two different notices. */
const requiredEmail = (emptyMessage: string) =>
  z.string({ error: emptyMessage }).trim().min(1, emptyMessage).pipe(emailSchema);

/** An optional mobile number: empty is none; anything typed must be a US number. */
export const optionalMobileSchema = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined)
  .refine((value) => value === undefined || isUsPhone(value), MOBILE_MESSAGE);

export const signUpSchema = z
  .object({
    intent: z.literal("sign-up"),
    firstName: nameSchema,
    lastName: nameSchema,
    email: requiredEmail("Please enter a valid email address"),
    password: newPasswordSchema,
    mobilePhone: optionalMobileSchema,
    /** 'Text me about my visits': unchecked unless the person ticks it. */
    textMe: z.literal("on").optional(),
  })
  .refine((value) => !value.textMe || value.mobilePhone, {
    message: TEXTS_NEED_MOBILE_MESSAGE,
    path: ["mobilePhone"],
  });

export const signInSchema = z.object({
  intent: z.literal("sign-in"),
  email: requiredEmail("Please enter a valid email address"),
  // Sign-in never re-checks the sign-up rules: older passwords must keep working.
  password: z.string({ error: "Please enter your password" }).min(1, "Please enter your password"),
});

export const forgotPasswordSchema = z.object({
  intent: z.literal("forgot"),
  email: requiredEmail("Please enter your email address first"),
});

/** 'Resend confirmation e-mail', offered when signing in before confirming the address. */
export const resendConfirmationSchema = z.object({
  intent: z.literal("resend-confirmation"),
  email: requiredEmail("Please enter your email address first"),
});

export const resetPasswordSchema = z.object({
  intent: z.literal("reset-password"),
  token: z
    .string({ error: "This reset link is not valid" })
    .min(1, "This reset link is not valid")
    .max(500, "This reset link is not valid")
    .refine(withoutControlCharacters, "This reset link is not valid"),
  password: newPasswordSchema,
});

export const twoFactorCodeSchema = z.object({
  intent: z.enum(["verify-totp", "verify-backup-code"]),
  code: z
    .string({ error: "Please enter the code" })
    .transform((value) => value.replace(/\s+/g, ""))
    .pipe(
      z
        .string()
        .min(1, "Please enter the code")
        .max(32, "That code is too long")
        .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
    ),
});

export const totpCodeSchema = z
  .string({ error: "Please enter the 6-digit code" })
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app"));

/** Plain text fields of the profile and home forms: trimmed, empty becomes absent (null). */
const plainText = (max: number) =>
  z
    .string()
    .max(max, `Must be at most ${max} characters`)
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .optional()
    .transform((value) => value?.replace(/\s+/g, " ").trim() || null);

const requiredText = (message: string, max: number) =>
  z
    .string({ error: message })
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .transform((value) => value.replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, message).max(max, `Must be at most ${max} characters`));

/** The property setup dialog and the Home Address card: four required fields, notes optional. */
export const homeSchema = z.object({
  address: requiredText("Street address is required", 200),
  city: requiredText("City is required", 100),
  // A choice from the list (its USPS code); a state's name is taken too, as the code.
  state: requiredText("State is required", 50).transform((value, context) => {
    const code = stateCode(value);
    if (!code)
      context.addIssue({ code: "custom", message: "Enter a US state, such as GA or Georgia" });
    return code ?? value;
  }),
  zipCode: requiredText("ZIP code is required", 20),
  propertyNotes: z
    .string()
    .max(2000, "Must be at most 2000 characters")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .optional()
    .transform((value) => value?.trim() || null),
});
export type HomeInput = z.output<typeof homeSchema>;

/** A customer's home as the Home Address card shows it. */
export type HomeAddress = {
  id: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  propertyNotes: string | null;
};

/** Profile edits are plain text with no rules shown (SPEC section 5); only sane lengths. */
export const profileSchema = z.object({
  firstName: plainText(50),
  lastName: plainText(50),
  // The person's one number (ADR 085), also the one texts go to: a US number, or nothing.
  phone: optionalMobileSchema,
});
export type ProfileInput = z.output<typeof profileSchema>;

export const passwordConfirmSchema = z.object({
  password: z.string({ error: "Please enter your password" }).min(1, "Please enter your password"),
});

export type Notice = {
  kind: "success" | "error";
  title: string;
  description?: string;
};

/**
 * The toast for the first invalid field of an auth form, with the spec's titles
 * ('Invalid first name', 'Invalid email', 'Password required', 'Email required', ...).
 */
export function validationNotice(field: string, message: string): Notice {
  const titles: Record<string, string> = {
    firstName: "Invalid first name",
    lastName: "Invalid last name",
    email: message === "Please enter your email address first" ? "Email required" : "Invalid email",
    password: message === "Please enter your password" ? "Password required" : "Invalid password",
    code: "Invalid code",
    mobilePhone: "Invalid mobile number",
    key: "Error",
  };
  return { kind: "error", title: titles[field] ?? "Error", description: message };
}

/** The fields of each auth form in the order a person fills them (first error wins). */
export const FIELD_ORDER = [
  "firstName",
  "lastName",
  "email",
  "mobilePhone",
  "password",
  "token",
  "code",
  "key",
];

/** The first problem of a failed submission (Conform's error map), as the spec's toast. */
export function firstValidationNotice(errors: Record<string, string[] | null> | null | undefined) {
  const fields = Object.keys(errors ?? {}).filter((field) => errors?.[field]?.length);
  fields.sort((a, b) => rank(a) - rank(b));
  const field = fields[0];
  if (!field) return null;
  return validationNotice(field, errors![field]![0]);
}

function rank(field: string) {
  const index = FIELD_ORDER.indexOf(field);
  return index === -1 ? FIELD_ORDER.length : index;
}

/** What the sign-up form sends as the display name (Better Auth's `name`). */
export function fullName(firstName: string, lastName: string) {
  return tidyName(`${firstName} ${lastName}`);
}

/** 'Sign in with a text code', first step: the mobile number (ADR 086). */
export const textCodeRequestSchema = z.object({
  intent: z.literal("send-sign-in-code"),
  mobilePhone: z
    .string({ error: "Please enter your mobile number" })
    .trim()
    .min(1, "Please enter your mobile number")
    .max(40, "Please enter a 10-digit US mobile number")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
  /** The form's idempotency key (a double tap texts once). */
  key: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "This form is out of date. Please try again."),
});

/** Six digits, however they were typed (spaces and dashes dropped). */
export const textCodeDigits = z
  .string({ error: "Please enter the code" })
  .transform((value) => value.replace(/[\s-]+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Please enter the 6-digit code from the text"));

/** Second step: the code from the text. */
export const textCodeSchema = z.object({
  intent: z.literal("verify-sign-in-code"),
  code: textCodeDigits,
});
