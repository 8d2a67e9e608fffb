/*
 * One text, one SMS segment (issue 40 item 9): 160 characters of the GSM-7 alphabet. A single
 * character outside it (a curly quote, an emoji, "…") makes the whole text UCS-2, 70 characters
 * a segment, so every text is written in GSM-7 and its variable parts (a name, a subject) are
 * shortened to fit; the fixed words and the link are never cut.
 */

export const SEGMENT_LENGTH = 160;

const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** Characters of the extension table: each takes two of the 160. */
const GSM7_EXTENSION = "^{}\\[~]|€";

/** A text's length in GSM-7 septets, or null when a character is outside GSM-7. */
export function gsm7Length(text: string): number | null {
  let length = 0;
  for (const ch of text) {
    if (GSM7_BASIC.includes(ch)) length += 1;
    else if (GSM7_EXTENSION.includes(ch)) length += 2;
    else return null;
  }
  return length;
}

/** Whether a text goes as one SMS segment. */
export function fitsOneSegment(text: string) {
  const length = gsm7Length(text);
  return length !== null && length <= SEGMENT_LENGTH;
}

const REPLACEMENTS: Record<string, string> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201c": '"',
  "\u201d": '"',
  "\u2013": "-",
  "\u2014": "-",
  "\u2026": "...",
  "\u00a0": " ",
};

/** The text in GSM-7: typographic quotes and dashes made plain, other accents dropped. */
export function plainGsm7(text: string): string {
  let out = "";
  for (const ch of text) {
    if (gsm7Length(ch) !== null) out += ch;
    else if (REPLACEMENTS[ch]) out += REPLACEMENTS[ch];
    else {
      const bare = ch.normalize("NFD").replace(/\p{M}/gu, "");
      out += gsm7Length(bare) !== null ? bare : "";
    }
  }
  return out;
}

/**
 * A text from a template with one variable part: the part in GSM-7, shortened (at a word when
 * it can, with "...") until the whole text fits one segment.
 */
export function oneSegment(template: (part: string) => string, part: string): string {
  let value = plainGsm7(part).trim();
  const render = (v: string) => plainGsm7(template(v));
  if (fitsOneSegment(render(value))) return render(value);
  const room = SEGMENT_LENGTH - (gsm7Length(render("")) ?? SEGMENT_LENGTH) - 3;
  value = value.slice(0, Math.max(0, room));
  const space = value.lastIndexOf(" ");
  if (space > room / 2) value = value.slice(0, space);
  let text = render(`${value.trimEnd()}...`);
  while (!fitsOneSegment(text) && value.length > 0) {
    value = value.slice(0, -1);
    text = render(`${value.trimEnd()}...`);
  }
  return text;
}
