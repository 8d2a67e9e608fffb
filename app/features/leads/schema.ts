import { z } from "zod";
import {
  cleanText,
  CONTROL_CHARACTERS_MESSAGE,
  emailSchema,
  nameSchema,
  withoutControlCharacters,
  zipCodeSchema,
} from "~/lib/validation";

/*
 * The lead forms' rules. The home page form follows docs/product.md section 5 (text cleaning, name,
 * zip, email); the city-page form has only the browser's required and e-mail checks, which the
 * server repeats here (plus length caps, so nobody can store a novel in a lead).
 */

const cleaned = (message: string) => z.string({ error: message }).transform(cleanText);

export const homeLeadSchema = z.object({
  name: nameSchema,
  zipCode: cleaned("Zip code is required").pipe(zipCodeSchema),
  // An address is checked, never cleaned: removing ' or & would make it someone else's (ADR 027).
  email: z.string({ error: "Please enter a valid email address" }).pipe(emailSchema),
});

export type HomeLeadField = keyof z.input<typeof homeLeadSchema>;
export const HOME_LEAD_FIELDS: HomeLeadField[] = ["name", "zipCode", "email"];

/** The toast title for each home-form field (docs/product.md section 5). */
export const HOME_FIELD_TITLES: Record<HomeLeadField, string> = {
  name: "Invalid name",
  zipCode: "Invalid zip code",
  email: "Invalid email",
};

export const cityLeadSchema = z.object({
  name: z
    .string({ error: "Full Name is required" })
    .trim()
    .min(1, "Full Name is required")
    .max(100, "Full Name must be less than 100 characters")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
  phone: z
    .string({ error: "Phone Number is required" })
    .trim()
    .min(1, "Phone Number is required")
    .max(40, "Phone Number must be less than 40 characters")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
  email: z
    .string({ error: "Email Address is required" })
    .trim()
    .min(1, "Email Address is required")
    .pipe(emailSchema),
  message: z
    .string()
    .trim()
    .max(2000, "Message must be less than 2000 characters")
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .optional()
    .transform((value) => value || null),
});

export type CityLeadField = keyof z.input<typeof cityLeadSchema>;
export const CITY_LEAD_FIELDS: CityLeadField[] = ["name", "phone", "email", "message"];

export const CITY_FIELD_TITLES: Record<CityLeadField, string> = {
  name: "Invalid name",
  phone: "Invalid phone number",
  email: "Invalid email",
  message: "Invalid message",
};
