/*
 * Metro Atlanta ZIP codes and the place each is in, for the places the business serves
 * (service-area.ts): a home page lead gives only its ZIP code, and staff read its city from
 * here. A ZIP code not listed shows alone. Where a ZIP code spans two places, the one its
 * homes mostly belong to is given.
 */
export const ZIP_CITIES: Readonly<Record<string, string>> = {
  // Atlanta (in town, Midtown, the east and west sides)
  "30303": "Atlanta",
  "30306": "Atlanta",
  "30307": "Atlanta",
  "30308": "Atlanta",
  "30309": "Atlanta",
  "30310": "Atlanta",
  "30311": "Atlanta",
  "30312": "Atlanta",
  "30313": "Atlanta",
  "30314": "Atlanta",
  "30315": "Atlanta",
  "30316": "Atlanta",
  "30317": "Atlanta",
  "30318": "Atlanta",
  "30324": "Atlanta",
  "30329": "Atlanta",
  "30331": "Atlanta",
  "30363": "Atlanta",
  // Buckhead
  "30305": "Buckhead",
  "30326": "Buckhead",
  "30327": "Buckhead",
  // Brookhaven
  "30319": "Brookhaven",
  // Sandy Springs
  "30328": "Sandy Springs",
  "30342": "Sandy Springs",
  "30350": "Sandy Springs",
  // Dunwoody
  "30338": "Dunwoody",
  "30346": "Dunwoody",
  // Decatur
  "30030": "Decatur",
  "30032": "Decatur",
  "30033": "Decatur",
  "30034": "Decatur",
  "30035": "Decatur",
  // Marietta
  "30008": "Marietta",
  "30060": "Marietta",
  "30062": "Marietta",
  "30064": "Marietta",
  "30066": "Marietta",
  "30067": "Marietta",
  "30068": "Marietta",
  // Roswell
  "30075": "Roswell",
  "30076": "Roswell",
  // Norcross
  "30071": "Norcross",
  "30092": "Norcross",
  "30093": "Norcross",
  // Alpharetta
  "30005": "Alpharetta",
  "30009": "Alpharetta",
  // Milton
  "30004": "Milton",
  // Johns Creek
  "30022": "Johns Creek",
  "30097": "Johns Creek",
};

/** "30306" → "Atlanta"; a ZIP code not listed (or none) → null. */
export function cityOfZip(zipCode: string | null | undefined): string | null {
  if (!zipCode) return null;
  return ZIP_CITIES[zipCode.trim().slice(0, 5)] ?? null;
}

/**
 * A lead's ZIP code and city as staff read them: "30306 Atlanta"; the city from the ZIP code
 * when the lead gave none (a home page lead); just the ZIP code when it is not a known one;
 * null when neither is known.
 */
export function zipAndCity(zipCode: string | null | undefined, city: string | null | undefined) {
  const place = city || cityOfZip(zipCode);
  return [zipCode, place].filter(Boolean).join(" ") || null;
}
