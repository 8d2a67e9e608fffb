/*
 * People's names as the product shows them, from the first and last names a profile keeps
 * (either may be missing). Reading a name from the database is readPersonName in the
 * notifications feature; this is only the words.
 */

type NamePart = string | null | undefined;

/**
 * "Maria Alvarez" from a first and a last name, either alone when the other is missing, and ""
 * when neither is kept: the caller says what stands in for it (`personName(f, l) || email`).
 */
export function personName(first: NamePart, last: NamePart) {
  return [first, last].filter(Boolean).join(" ");
}

/** A customer's name as staff read it, "Unknown customer" when the profile has none. */
export function customerName(first: NamePart, last: NamePart) {
  return personName(first, last) || "Unknown customer";
}
