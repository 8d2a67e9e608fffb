/*
 * The words of the second handyman's fee (ADR 091), one place for every screen, e-mail and the
 * statement, each with the amount of the business's setting (SECOND_HANDYMAN_FEE).
 */

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** 9500 -> "$95", 9550 -> "$95.50". */
function feePrice(cents: number) {
  return usd.format(cents / 100).replace(/\.00$/, "");
}

/** The booking's checkbox. */
export const TWO_HANDYMEN_LABEL = "Two handymen";

/** Under the checkbox: "This job needs two handymen, +$95 a visit". */
export function twoHandymenOffer(feeCents: number) {
  return `This job needs two handymen, +${feePrice(feeCents)} a visit`;
}

/** The visit's, its e-mails' and the statement's line: "Second handyman: $95.00". */
export function secondHandymanFeeLine(feeCents: number) {
  return `Second handyman: ${usd.format(feeCents / 100)}`;
}

/** The pricing terms under the plans. */
export function twoHandymenTerm(feeCents: number) {
  return `Jobs one person cannot do alone (a heavy mirror, drywall sheets, a fan on a high ceiling) can have two handymen for ${feePrice(feeCents)} more a visit.`;
}

/** "Dana Whitfield and Sam Okafor": both handymen of a visit, the first one first. */
export function bothHandymen(first: string, second: string | null | undefined) {
  return second ? `${first} and ${second}` : first;
}
