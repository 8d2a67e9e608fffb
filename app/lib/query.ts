import { removeControlCharacters } from "./validation";

/**
 * A page number from the query string (`?apage=3`): a whole number from 1 to 999,999, anything
 * else (absent, `0`, `1e309`, 22 digits, a word) the first page. Never handed to the database
 * as it came.
 */
export function pageParam(params: URLSearchParams, name: string): number {
  const value = params.get(name) ?? "";
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** Longest search term the server accepts (longer input is cut). */
export const SEARCH_MAX_LENGTH = 100;

/** Normalises a search term from the URL: trimmed, single spaces, bounded length. */
export function normaliseSearch(value: string | null | undefined) {
  // Control characters are dropped: nobody types them, and PostgreSQL refuses NUL.
  const clean = removeControlCharacters(value ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, SEARCH_MAX_LENGTH);
  return clean === "" ? undefined : clean;
}
