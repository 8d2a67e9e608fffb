import { sql } from "drizzle-orm";
import { profiles } from "./schema";

/*
 * The pieces of a staff search (requests by title or customer, customers by name, e-mail or
 * phone) that more than one feature builds its queries from.
 */

/** Escapes LIKE wildcards so a search for "50%" means those characters. */
export function likePattern(search: string) {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Must stay identical to the expression of profiles_full_name_trgm_idx (schema.ts). */
export const profileFullName = sql`(coalesce(${profiles.firstName}, '') || ' ' || coalesce(${profiles.lastName}, ''))`;
