/** A customer's name as staff read it, from the profile's first and last name. */
export function customerName(first: string | null, last: string | null) {
  return [first, last].filter(Boolean).join(" ") || "Unknown customer";
}
