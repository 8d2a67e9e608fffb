import { z } from "zod";
import { REFERRAL_STATUSES, SPECIALIST_TRADES } from "~/db/specialist-trade";
import { UUID_PATTERN } from "~/lib/uuid";
import {
  CONTROL_CHARACTERS_MESSAGE,
  EMAIL_MAX_LENGTH,
  isValidEmail,
  withoutControlCharacters,
} from "~/lib/validation";
import { parseDollars } from "~/lib/money";

/* The rules of the specialists' and referrals' forms (issue 41, ADR 088). */

const text = (label: string, max: number) =>
  z
    .string({ error: `Please enter the ${label}` })
    .trim()
    .max(max, `The ${label} is at most ${max} characters`)
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE);

const optionalText = (label: string, max: number) =>
  z
    .string()
    .optional()
    .transform((v) => v?.trim() ?? "")
    .pipe(
      z
        .string()
        .max(max, `The ${label} is at most ${max} characters`)
        .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
    )
    .transform((v) => v || null);

export const specialistSchema = z.object({
  trade: z.enum(SPECIALIST_TRADES, { error: "Please choose the trade" }),
  company: text("company", 120).min(1, "Please enter the company"),
  contactName: optionalText("contact", 120),
  phone: optionalText("phone", 40),
  email: optionalText("e-mail", EMAIL_MAX_LENGTH).refine(
    (v) => v === null || isValidEmail(v),
    "Please enter a valid e-mail address",
  ),
  licenseNumber: optionalText("license number", 60),
  notes: optionalText("notes", 1000),
  referralFee: optionalText("referral fee", 20).transform((v, ctx) => {
    if (v === null) return null;
    const cents = parseDollars(v, { maxLength: 14, plainDigits: 6 });
    if (cents === undefined) {
      ctx.addIssue({ code: "custom", message: "Please enter the referral fee in dollars" });
      return z.NEVER;
    }
    return cents;
  }),
});
export type SpecialistInput = z.output<typeof specialistSchema>;

export const REASON_MAX_LENGTH = 1000;

export const referralSchema = z.object({
  specialistId: z.string().regex(UUID_PATTERN, "Please choose a specialist"),
  reason: text("reason", REASON_MAX_LENGTH).min(1, "Please say why the job needs a specialist"),
});

export const referralStatusSchema = z.object({
  referralId: z.string().regex(UUID_PATTERN, "Unknown referral"),
  status: z.enum(REFERRAL_STATUSES, { error: "Please choose a status" }),
});

export function firstIssue(error: z.ZodError) {
  return error.issues[0]?.message ?? "Please check the form.";
}
