/** The 11 city page paths of docs/product.md's route table; the pages' content lives in cities.ts. */
export const CITY_PATHS = [
  "brookhaven-handyman",
  "sandy-springs-handyman",
  "alpharetta-handyman",
  "dunwoody-handyman",
  "buckhead-handyman",
  "decatur-handyman",
  "marietta-handyman",
  "roswell-handyman",
  "norcross-handyman",
  "johns-creek-handyman",
  "milton-handyman",
] as const;

export type CityPath = (typeof CITY_PATHS)[number];
