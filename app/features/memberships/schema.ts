import { z } from "zod";
import { UUID_PATTERN } from "~/lib/uuid";
import { PLAN_IDS, VISIT_BLOCKS, WORK_STEP_MINUTES } from "~/content/plans";
import { DATE_WINDOW, isWithinWindow } from "~/lib/business-calendar";
import { CONTROL_CHARACTERS_MESSAGE, withoutControlCharacters } from "~/lib/validation";
import { formatPrice, parseDollars } from "~/lib/money";

/* The rules of the membership forms, shared by the forms and their actions. */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const amount = (label: string, max: number) =>
  z.string({ error: `Please enter the ${label} in dollars` }).transform((value, ctx) => {
    const cents = parseDollars(value);
    if (cents === undefined || cents <= 0 || cents > max) {
      ctx.addIssue({
        code: "custom",
        message: `Please enter the ${label} in dollars, more than $0 and at most ${formatPrice(max)}`,
      });
      return z.NEVER;
    }
    return cents;
  });

function isRealDate(value: string) {
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const START_DATE_WINDOW_MESSAGE =
  "The start date must be within a year of today (at most 1 year back or ahead)";

/**
 * The start form for a given "today" (the business day the server computes): a start at most
 * a year back or ahead (ADR 039). Every period from the start is charged in one transaction,
 * so a start back-dated by a century would post 1,200 charges at once.
 */
export function createStartMembershipSchema(today: string) {
  return z.object({
    plan: z.enum(PLAN_IDS, { error: "Please choose a plan" }),
    billing: z.enum(["monthly", "annual"], { error: "Please choose monthly or annual billing" }),
    startDate: z
      .string({ error: "Please choose the start date" })
      .regex(DATE, { message: "Please choose the start date", abort: true })
      .refine(isRealDate, { message: "Please choose the start date", abort: true })
      .refine(
        (value) => isWithinWindow(value, today, DATE_WINDOW.membershipStart),
        START_DATE_WINDOW_MESSAGE,
      ),
  });
}

export const PAYMENT_METHOD_VALUES = ["card", "check", "cash", "bank_transfer"] as const;

export const paymentSchema = z.object({
  amount: amount("amount", 10_000_000),
  method: z.enum(PAYMENT_METHOD_VALUES, { error: "Please choose how it was paid" }),
  reference: z
    .string()
    .max(100, "The reference must be at most 100 characters")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .optional()
    .transform((value) => value?.trim() ?? ""),
});

export const WORKED_CHOICES = Array.from(
  { length: VISIT_BLOCKS[1] / WORK_STEP_MINUTES },
  (_, i) => (i + 1) * WORK_STEP_MINUTES,
);

export const completeVisitSchema = z.object({
  appointmentId: z.string({ error: "Unknown visit" }).regex(UUID_PATTERN, "Unknown visit"),
  minutesWorked: z.coerce
    .number({ error: "Please choose the time worked" })
    .int("Please choose the time worked")
    .refine((m) => WORKED_CHOICES.includes(m), "Please choose the time worked"),
});

export const correctTimeSchema = completeVisitSchema.extend({
  reason: z
    .string({ error: "Please give the reason for the correction" })
    .trim()
    .min(1, "Please give the reason for the correction")
    .max(200, "The reason must be at most 200 characters")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
});

/** The handyman's 'Done' / 'Not done' per task, posted as task-<task id>. */
export function taskOutcomesFrom(values: Record<string, string>) {
  const outcomes: Record<string, "done" | "not_done"> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!key.startsWith("task-")) continue;
    if (value === "done" || value === "not_done") outcomes[key.slice(5)] = value;
  }
  return outcomes;
}

export const partSchema = z.object({
  appointmentId: z
    .string({ error: "Please choose the visit" })
    .regex(UUID_PATTERN, "Please choose the visit"),
  description: z
    .string({ error: "Please describe the part" })
    .trim()
    .min(1, "Please describe the part")
    .max(200, "The description must be at most 200 characters")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
  cost: amount("cost", 1_000_000),
});

export const partIdSchema = z.object({
  partId: z.string({ error: "Unknown part" }).regex(UUID_PATTERN, "Unknown part"),
});

/** 'Correct part': the part, its description and price as they should be. */
export const correctPartSchema = partIdSchema.extend({
  description: partSchema.shape.description,
  cost: partSchema.shape.cost,
});

const BLOCK_MESSAGE = "Please choose a visit of 1 h 45 min or 3 h 30 min";

export const bookingBlockSchema = z.coerce
  .number({ error: BLOCK_MESSAGE })
  .int(BLOCK_MESSAGE)
  .refine((m) => (VISIT_BLOCKS as readonly number[]).includes(m), BLOCK_MESSAGE);

/** The first error message of a failed parse, for a one-line notice. */
export function firstError(error: z.ZodError) {
  return error.issues[0]?.message ?? "Please check the form";
}

/** FormData to a plain object (last value wins), for the schemas above. */
export function formValues(form: FormData) {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}
