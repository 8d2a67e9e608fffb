/*
 * The staff's list of every customer's requests (SPEC section 9), as the server reads it and
 * the employee dashboard shows it.
 */

export const REQUESTS_PAGE_SIZE = 25;
/** SPEC section 9: description preview 80 characters, notes preview 15. */
export const DESCRIPTION_PREVIEW_LENGTH = 80;
export const NOTES_PREVIEW_LENGTH = 15;
/** A search's matching requests are counted up to this many (the heading says "more than"). */
export const MATCH_COUNT_CAP = 1000;

/** The last `n` characters of an id: 6 in the table, 8 in the dialog (SPEC section 9). */
export function shortId(id: string, n: 6 | 8) {
  return id.slice(-n);
}
