import { z } from "zod";
import { APPLIANCE_TYPES } from "~/db/appliance-types";
import { CONTROL_CHARACTERS_MESSAGE, withoutControlCharacters } from "~/lib/validation";

/* The home record's forms (ADR 087), read the same in the browser and on the server. */

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be ${max} characters or fewer.`)
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .optional()
    .transform((v) => (v ? v : null));

const optionalDate = (label: string) =>
  z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^\d{4}-\d{2}-\d{2}$/.test(v), `${label}: please give a date.`)
    .transform((v) => (v ? v : null));

/** "Installed": a year ("2019") or a day ("2019-06-14"). */
const installed = z
  .string()
  .trim()
  .optional()
  .refine(
    (v) => !v || /^\d{4}$/.test(v) || /^\d{4}-\d{2}-\d{2}$/.test(v),
    "Installed: please give a year (2019) or a date.",
  )
  .refine((v) => !v || (Number(v.slice(0, 4)) >= 1900 && Number(v.slice(0, 4)) <= 2200), {
    message: "Installed: please give a year (2019) or a date.",
  })
  .transform((v) => (v ? v : null));

export const applianceSchema = z.object({
  type: z.enum(APPLIANCE_TYPES, { message: "Please choose the type." }),
  brand: optionalText(80, "Brand"),
  model: optionalText(80, "Model"),
  serialNumber: optionalText(80, "Serial number"),
  installed,
  /** "1" when 'Installed' was filled from the serial number and left as it was. */
  installedEstimated: z
    .string()
    .optional()
    .transform((v) => v === "1"),
  warrantyEndsOn: optionalDate("Warranty ends"),
  location: optionalText(120, "Location"),
  filterSize: optionalText(40, "Filter size"),
  notes: optionalText(1000, "Notes"),
  /** The label photo read for this form (home_label_reads), if any. */
  labelReadId: z
    .string()
    .optional()
    .transform((v) => (v && /^[0-9a-f-]{36}$/.test(v) ? v : null)),
});
export type ApplianceInput = z.output<typeof applianceSchema>;

export const planTaskSchema = z.object({
  title: z
    .string({ message: "Please give the task." })
    .trim()
    .min(1, "Please give the task.")
    .max(200, "The task must be 200 characters or fewer.")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
  months: z.preprocess(
    (v) => (Array.isArray(v) ? v : v == null || v === "" ? [] : [v]),
    z
      .array(
        z.coerce
          .number({ message: "Please choose months from January to December." })
          .int("Please choose months from January to December.")
          .min(1, "Please choose months from January to December.")
          .max(12, "Please choose months from January to December."),
      )
      .min(1, "Please choose at least one month."),
  ),
  estimatedMinutes: z.coerce
    .number({ message: "Please give the time in minutes." })
    .int("Please give the time in whole minutes.")
    .min(5, "The time is at least 5 minutes.")
    .max(480, "The time is at most 480 minutes."),
});
export type PlanTaskInput = z.output<typeof planTaskSchema>;

export const HOME_INTENTS = [
  "add-appliance",
  "edit-appliance",
  "remove-appliance",
  "draw-plan",
  "add-task",
  "edit-task",
  "remove-task",
  "mark-done",
] as const;
export type HomeIntent = (typeof HOME_INTENTS)[number];
