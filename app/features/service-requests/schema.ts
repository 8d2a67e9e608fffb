import { z } from "zod";
import { REQUEST_STATUSES } from "~/db/request-status";
import { CONTROL_CHARACTERS_MESSAGE, withoutControlCharacters } from "~/lib/validation";

/*
 * The service request form (SPEC section 5 "Service request"), shared by the dialogs and the
 * actions. Title is required, description optional, priority next or later.
 */

export const PRIORITIES = ["next", "later"] as const;
export type Priority = (typeof PRIORITIES)[number];

/** A status from a form or the URL: one of the database's request statuses. */
export const requestStatusSchema = z.enum(REQUEST_STATUSES);

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5000;

export const serviceRequestSchema = z.object({
  title: z
    .string({ error: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(TITLE_MAX, `Title must be at most ${TITLE_MAX} characters`)
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE),
  description: z
    .string()
    .trim()
    .max(DESCRIPTION_MAX, `Description must be at most ${DESCRIPTION_MAX} characters`)
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .optional()
    .transform((value) => (value ? value : null)),
  priority: z.enum(PRIORITIES, { error: "Choose next or later" }).default("later"),
});

export type ServiceRequestInput = z.output<typeof serviceRequestSchema>;

/** Internal notes: plain text, capped so one request cannot grow without bound. */
export const NOTES_MAX_LENGTH = 5000;

/** Staff changes from the request detail dialog: its status, and its internal notes. */
export const updateStatusSchema = z.object({
  intent: z.literal("status"),
  status: requestStatusSchema,
});

export const updateNotesSchema = z.object({
  intent: z.literal("notes"),
  notes: z
    .string()
    .max(NOTES_MAX_LENGTH, `Notes must be at most ${NOTES_MAX_LENGTH} characters`)
    .refine(withoutControlCharacters, CONTROL_CHARACTERS_MESSAGE)
    .default(""),
});

export function isPriority(value: unknown): value is Priority {
  return value === "next" || value === "later";
}

/**
 * The label of a status or priority: "in_progress" → "In progress" (SPEC section 4: underscores
 * to spaces, first letter capitalised).
 */
export function statusLabel(status: string) {
  const text = status.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The edit form's "Remove photo" checkboxes: one field per photo, `removePhoto:<photo id>`, so a
 * plain multipart post (whose reader keeps one value per name) carries every marked photo.
 */
export const REMOVE_PHOTO_FIELD = "removePhoto:";

/** The photo ids marked for removal in a posted edit form. */
export function photosToRemove(formData: FormData) {
  const ids = new Set<string>();
  for (const name of formData.keys()) {
    if (name.startsWith(REMOVE_PHOTO_FIELD)) ids.add(name.slice(REMOVE_PHOTO_FIELD.length));
  }
  return [...ids];
}
