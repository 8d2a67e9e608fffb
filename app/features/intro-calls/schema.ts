import { z } from "zod";
import { emailSchema, nameSchema } from "~/lib/validation";

/** An intro call is by phone: the number is required (10 to 15 digits, any punctuation). */
export const bookingSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  phone: z
    .string({ error: "Phone number is required" })
    .trim()
    .min(1, "Phone number is required")
    .max(30, "Please enter a valid phone number")
    .refine((value) => {
      const digits = value.replace(/\D/g, "").length;
      return digits >= 10 && digits <= 15 && /^[\d\s().+-]+$/.test(value);
    }, "Please enter a valid phone number"),
  startsAt: z
    .string({ error: "Please choose a time" })
    .min(1, "Please choose a time")
    // A time the page offered is an ISO string; anything longer or unreadable is no time at all.
    .max(40, { message: "Please choose a time", abort: true })
    .refine((value) => !Number.isNaN(Date.parse(value)), "Please choose a time")
    .transform((value) => new Date(value)),
});
