/*
 * Money as people read it. Amounts are integer cents everywhere (ADR 013); these are the one
 * place they become text, in pages, e-mails and CSV files alike.
 */

const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** 1234567 -> "$12,345.67", -1000 -> "-$10.00". */
export function formatCents(cents: number) {
  return dollars.format(cents / 100);
}

/** Whole dollars without cents ("$150"), otherwise like formatCents ("$84.29"). */
export function formatPrice(cents: number) {
  return cents % 100 === 0 ? formatCents(cents).replace(/\.00$/, "") : formatCents(cents);
}

/**
 * Cents as a plain decimal amount, without the dollar sign or thousands separators: an input's
 * value or a CSV cell. 1234567 -> "12345.67"; null -> "".
 */
export function centsAsDecimal(cents: number | null) {
  return cents === null ? "" : (cents / 100).toFixed(2);
}

/**
 * A typed dollar amount as cents: "$1,234.5" -> 123450; undefined when it is not an amount.
 * `maxLength` bounds the text (longer text never reaches the pattern), `plainDigits` the whole
 * dollars written without thousands separators.
 */
export function parseDollars(value: string, { maxLength = 20, plainDigits = 7 } = {}) {
  const text = value.trim();
  const amount = new RegExp(`^\\$?\\s*(\\d{1,3}(,\\d{3})+|\\d{1,${plainDigits}})(\\.\\d{1,2})?$`);
  if (text.length > maxLength || !amount.test(text)) return undefined;
  const [whole, fraction = ""] = text.replace(/[$,\s]/g, "").split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}
