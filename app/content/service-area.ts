/** The places the business serves (docs/product.md section 1, "Served places"). */
export const SERVED_PLACES = [
  "Atlanta",
  "Buckhead",
  "Decatur",
  "Marietta",
  "Roswell",
  "Norcross",
  "Alpharetta",
  "Johns Creek",
  "Sandy Springs",
  "Brookhaven",
  "Dunwoody",
  "Milton",
] as const;
