import type { RequestListName } from "./types";

/** The query parameter holding the page of each dashboard list (ADR 031). */
export const LIST_PAGE_PARAMS: Record<RequestListName, string> = {
  next: "npage",
  later: "lpage",
  completed: "cpage",
};

const NAMES = Object.values(LIST_PAGE_PARAMS);

/**
 * The list pages a query string holds, as a query string of their own ("npage=2&cpage=3"; empty
 * on the first pages). Forms and redirects carry it so a request moved on page 3 stays on page 3.
 * Only page numbers pass: anything else is dropped.
 */
export function listPageQuery(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of NAMES) {
    const value = params.get(name);
    if (value && /^[1-9]\d{0,5}$/.test(value) && value !== "1") kept.set(name, value);
  }
  return kept.toString();
}
