/*
 * What a rating plate says, from the text OCR read of it (ADR 087): the brand (a known maker's
 * name on the plate), the model and the serial number (the words after MODEL and SERIAL), and,
 * where the maker documents how its serial numbers carry the date, the year it was made.
 */

/** Makers of the appliances and systems a home record holds, as their plates spell them. */
const BRANDS: [pattern: RegExp, name: string][] = [
  [/\bA\.?\s?O\.?\s?SMITH\b/i, "A. O. Smith"],
  [/\bRHEEM\b/i, "Rheem"],
  [/\bRUUD\b/i, "Ruud"],
  [/\bRICHMOND\b/i, "Richmond"],
  [/\bSTATE\s+(?:WATER|INDUSTRIES)\b/i, "State"],
  [/\bBRADFORD\s+WHITE\b/i, "Bradford White"],
  [/\bCARRIER\b/i, "Carrier"],
  [/\bBRYANT\b/i, "Bryant"],
  [/\bPAYNE\b/i, "Payne"],
  [/\bTRANE\b/i, "Trane"],
  [/\bAMERICAN\s+STANDARD\b/i, "American Standard"],
  [/\bLENNOX\b/i, "Lennox"],
  [/\bGOODMAN\b/i, "Goodman"],
  [/\bAMANA\b/i, "Amana"],
  [/\bDAIKIN\b/i, "Daikin"],
  [/\bYORK\b/i, "York"],
  [/\bRHEEM\b/i, "Rheem"],
  [/\bNAVIEN\b/i, "Navien"],
  [/\bRINNAI\b/i, "Rinnai"],
  [/\bWHIRLPOOL\b/i, "Whirlpool"],
  [/\bMAYTAG\b/i, "Maytag"],
  [/\bKITCHENAID\b/i, "KitchenAid"],
  [/\bGE\s+APPLIANCES\b|\bGENERAL\s+ELECTRIC\b/i, "GE"],
  [/\bFRIGIDAIRE\b/i, "Frigidaire"],
  [/\bSAMSUNG\b/i, "Samsung"],
  [/\bLG\b/, "LG"],
  [/\bBOSCH\b/i, "Bosch"],
  [/\bINSINKERATOR\b/i, "InSinkErator"],
  [/\bKIDDE\b/i, "Kidde"],
  [/\bFIRST\s+ALERT\b/i, "First Alert"],
  [/\bZOELLER\b/i, "Zoeller"],
  [/\bCULLIGAN\b/i, "Culligan"],
];

const MODEL = /\bMODEL\s*(?:NO\.?|NUMBER|#)?\s*[:.]?\s*([A-Z0-9][A-Z0-9\-/.]{3,29})/i;
const SERIAL = /\b(?:SERIAL|S\/N)\s*(?:NO\.?|NUMBER|#)?\s*[:.]?\s*([A-Z0-9][A-Z0-9-]{3,29})/i;

export type LabelReading = {
  brand: string | null;
  model: string | null;
  serialNumber: string | null;
  /** The year of manufacture from the serial number, where the maker's rule is known. */
  year: number | null;
};

/** A field's value as read: upper case, no trailing dot (the plate's "NO." leaks in). */
function cleaned(value: string | undefined) {
  const v = value?.toUpperCase().replace(/[.]+$/, "");
  return v && v.length >= 4 ? v : null;
}

export function parseLabel(text: string, thisYear: number): LabelReading {
  const brand = BRANDS.find(([pattern]) => pattern.test(text))?.[1] ?? null;
  const model = cleaned(MODEL.exec(text)?.[1]);
  const serialNumber = cleaned(SERIAL.exec(text)?.[1]);
  return {
    brand,
    model,
    serialNumber,
    year: brand && serialNumber ? serialYear(brand, serialNumber, thisYear) : null,
  };
}

/** Two digits of a year: 19 → 2019, 98 → 1998 (never a year still to come). */
function fullYear(twoDigits: number, thisYear: number) {
  const year = 2000 + twoDigits;
  return year <= thisYear ? year : 1900 + twoDigits;
}

/**
 * The year a serial number says, by the makers' published rules (their serial number guides,
 * as collected by the home inspection references):
 * - Rheem, Ruud, Richmond (water heaters): letters, then the month and year, MMYY ("Q0519...":
 *   May 2019).
 * - A. O. Smith and State (since 2008): the year and the week first, YYWW ("1905A...": 2019).
 * - Carrier, Bryant, Payne: the week and the year first, WWYY ("2419E...": 2019).
 * - Goodman, Amana (since 2000): the year and the month first, YYMM ("1905...": 2019).
 * - Trane, American Standard (since 2010): the year first, YY ("19...": 2019).
 * - Lennox: the plant's two digits, then the year, PPYY ("5819...": 2019).
 * Other makers (a letter code, or no published rule): no estimate.
 */
export function serialYear(brand: string, serial: string, thisYear: number): number | null {
  // OCR reads a plate's O as a zero and the reverse; the date digits are digits.
  const s = serial.toUpperCase();
  const digitsAfterLetters = /^[A-Z]{1,2}(\d{4})/.exec(s)?.[1];
  const leading = /^(\d{4})/.exec(s)?.[1];
  let year: number | null = null;
  let month: number | null = null;
  switch (brand) {
    case "Rheem":
    case "Ruud":
    case "Richmond":
      if (digitsAfterLetters) {
        month = Number(digitsAfterLetters.slice(0, 2));
        year = fullYear(Number(digitsAfterLetters.slice(2, 4)), thisYear);
      }
      break;
    case "A. O. Smith":
    case "State":
    case "Goodman":
    case "Amana":
      if (leading) {
        year = fullYear(Number(leading.slice(0, 2)), thisYear);
        if (brand === "Goodman" || brand === "Amana") month = Number(leading.slice(2, 4));
      }
      break;
    case "Carrier":
    case "Bryant":
    case "Payne":
    case "Lennox":
      if (leading) year = fullYear(Number(leading.slice(2, 4)), thisYear);
      if (leading && brand !== "Lennox" && Number(leading.slice(0, 2)) > 53) year = null;
      break;
    case "Trane":
    case "American Standard":
      if (leading) year = fullYear(Number(leading.slice(0, 2)), thisYear);
      if (year !== null && year < 2010) year = null;
      break;
  }
  if (month !== null && (month < 1 || month > 12)) return null;
  if (year === null || year < 1970 || year > thisYear) return null;
  return year;
}
