/**
 * A page number from the query string (`?apage=3`): a whole number from 1 to 999,999, anything
 * else (absent, `0`, `1e309`, 22 digits, a word) the first page. Never handed to the database
 * as it came.
 */
export function pageParam(params: URLSearchParams, name: string): number {
  const value = params.get(name) ?? "";
  return /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}
