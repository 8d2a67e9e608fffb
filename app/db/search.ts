import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { profiles } from "./schema";

/*
 * The pieces of a staff search (requests by title or customer, customers by name, e-mail or
 * phone) that more than one feature builds its queries from. Both sides of a match are folded by
 * search_fold (migration 0007: accents, typographic quotes and case), so "O'Brien" finds
 * "O’Brien" and "nunez" finds "Núñez".
 */

/**
 * The LIKE pattern for a search: folded first, then its wildcards escaped, in that order,
 * because folding can make a wildcard ("％" becomes "%"), so a search for "50%" means those
 * characters.
 */
function foldedPattern(search: string): SQL {
  return sql`'%' || replace(replace(replace(search_fold(${search}), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%'`;
}

/** `text` (a column or an expression) contains `search`, both folded. */
export function foldedMatch(text: SQLWrapper, search: string): SQL {
  return sql`search_fold(${text}) like ${foldedPattern(search)}`;
}

/**
 * "First Last", folded: must stay identical to the expression of
 * profiles_full_name_folded_trgm_idx (schema.ts), so a search is served by that index.
 */
const profileFullName = sql`(coalesce(${profiles.firstName}, '') || ' ' || coalesce(${profiles.lastName}, ''))`;

/** The customer's full name contains `search`, both folded. */
export function fullNameMatches(search: string): SQL {
  return foldedMatch(profileFullName, search);
}
