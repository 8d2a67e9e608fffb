import { z } from "zod";
import { requestStatusSchema } from "~/features/service-requests/schema";
import {
  CONTROL_CHARACTERS_MESSAGE,
  removeControlCharacters,
  withoutControlCharacters,
} from "~/lib/validation";

export const REQUESTS_PAGE_SIZE = 25;
/** SPEC section 9: description preview 80 characters, notes preview 15. */
export const DESCRIPTION_PREVIEW_LENGTH = 80;
export const NOTES_PREVIEW_LENGTH = 15;
/** A search's matching requests are counted up to this many (the heading says "more than"). */
export const MATCH_COUNT_CAP = 1000;

/** Longest search term the server accepts (longer input is cut). */
export const SEARCH_MAX_LENGTH = 100;

/** Internal notes: plain text, capped so one request cannot grow without bound. */
export const NOTES_MAX_LENGTH = 5000;

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

/** The last `n` characters of an id: 6 in the table, 8 in the dialog (SPEC section 9). */
export function shortId(id: string, n: 6 | 8) {
  return id.slice(-n);
}

export function customerName(first: string | null, last: string | null) {
  return [first, last].filter(Boolean).join(" ") || "Unknown customer";
}

/** Normalises a search term from the URL: trimmed, single spaces, bounded length. */
export function normaliseSearch(value: string | null | undefined) {
  // Control characters are dropped: nobody types them, and PostgreSQL refuses NUL.
  const clean = removeControlCharacters(value ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, SEARCH_MAX_LENGTH);
  return clean === "" ? undefined : clean;
}
