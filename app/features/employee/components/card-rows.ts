/*
 * At phone width a table's rows become cards: each field on its own line with its name, each
 * action in reach, nothing off-screen. The table stays one table (its headers kept for screen
 * readers); only its layout changes, and the names are CSS-generated from `data-label`, so the
 * cells' text is the same at every width. The class names are written out in full for Tailwind.
 */

/** Cards below the `md` breakpoint (768 px): a table of a few columns. */
export const CARDS_BELOW_MD = {
  table: "max-md:block",
  header: "max-md:sr-only",
  body: "max-md:grid max-md:gap-3 max-md:[&_tr:last-child]:border",
  row: "max-md:grid max-md:gap-2 max-md:rounded-lg max-md:border max-md:p-3",
  cell: "max-md:block max-md:min-w-0 max-md:p-0 max-md:text-left",
  /** A cell with `data-label`: its field's name in front of the value, on the cards only. */
  labelled:
    "max-md:before:mr-1 max-md:before:font-medium max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)_':']",
};

/** Cards below the `lg` breakpoint (1024 px): a wide table of many columns. */
export const CARDS_BELOW_LG = {
  table: "max-lg:block",
  header: "max-lg:sr-only",
  body: "max-lg:grid max-lg:gap-3 max-lg:[&_tr:last-child]:border",
  row: "max-lg:grid max-lg:gap-2 max-lg:rounded-lg max-lg:border max-lg:p-3",
  cell: "max-lg:block max-lg:min-w-0 max-lg:p-0 max-lg:text-left",
  /** A cell with `data-label`: its field's name in front of the value, on the cards only. */
  labelled:
    "max-lg:before:mr-1 max-lg:before:font-medium max-lg:before:text-muted-foreground max-lg:before:content-[attr(data-label)_':']",
};

/**
 * The heading of a list that can be searched or filtered: 'Customers (9)' as it is, and what is
 * shown when a search or filter is on: 'Customers (2 of 9 customers)'. `shown` above `cap`
 * (a count that stopped there) reads "more than".
 */
export function listHeading(
  label: string,
  options: {
    shown: number;
    total: number;
    filtered: boolean;
    noun: [string, string];
    cap?: number;
  },
) {
  const { shown, total, filtered, noun, cap } = options;
  if (!filtered) return `${label} (${total})`;
  const number = (n: number) => n.toLocaleString("en-US");
  const shownText = cap !== undefined && shown > cap ? `more than ${number(cap)}` : number(shown);
  return `${label} (${shownText} of ${number(total)} ${total === 1 ? noun[0] : noun[1]})`;
}
