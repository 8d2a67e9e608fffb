/*
 * At phone width a table's rows become cards: each field on its own line with its name, each
 * action in reach, nothing off-screen. The table stays one table (its headers kept for screen
 * readers); only its layout changes, and the names are CSS-generated from `data-label`, so the
 * cells' text is the same at every width.
 */

/*
 * Each is a component class of app.css (one name per row and cell instead of the utilities
 * spelled out on every one: a table of 25 rows wrote them 100 times).
 */

/** Cards below the `md` breakpoint (768 px): a table of a few columns. */
export const CARDS_BELOW_MD = {
  table: "cards-md-table",
  header: "cards-md-header",
  body: "cards-md-body",
  row: "cards-md-row",
  cell: "cards-md-cell",
  /** A cell with `data-label`: its field's name in front of the value, on the cards only. */
  labelled: "cards-md-labelled",
};

/** Cards below the `lg` breakpoint (1024 px): a wide table of many columns. */
export const CARDS_BELOW_LG = {
  table: "cards-lg-table",
  header: "cards-lg-header",
  body: "cards-lg-body",
  row: "cards-lg-row",
  cell: "cards-lg-cell",
  /** A cell with `data-label`: its field's name in front of the value, on the cards only. */
  labelled: "cards-lg-labelled",
};
