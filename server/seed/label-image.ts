import sharp from "sharp";

/*
 * A rating plate as a phone would photograph it, drawn with sharp from SVG text: the demo's
 * water heater label (seed) and the label photos the OCR is measured on (tests, ADR 087).
 */
export type LabelLines = { brand: string; model: string; serial: string; extra?: string[] };

export function labelSvg(lines: LabelLines, width = 1000, height = 560) {
  const rows = [
    `<text x="50" y="95" font-family="DejaVu Sans, sans-serif" font-size="54" font-weight="bold">${lines.brand}</text>`,
    `<text x="50" y="185" font-family="DejaVu Sans, sans-serif" font-size="36">MODEL NO. ${lines.model}</text>`,
    `<text x="50" y="255" font-family="DejaVu Sans, sans-serif" font-size="36">SERIAL NO. ${lines.serial}</text>`,
    ...(lines.extra ?? []).map(
      (text, i) =>
        `<text x="50" y="${335 + i * 55}" font-family="DejaVu Sans, sans-serif" font-size="30">${text}</text>`,
    ),
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="#c9ccd0"/>
<rect x="20" y="20" width="${width - 40}" height="${height - 40}" fill="#eceeef" stroke="#333" stroke-width="4"/>
${rows.join("\n")}
</svg>`;
}

export type LabelStyle = "clean" | "rotated" | "blurred";

/** The label as a JPEG: clean, turned a few degrees, or soft as a phone photo in poor light. */
export async function labelPhoto(lines: LabelLines, style: LabelStyle = "clean") {
  let image = sharp(Buffer.from(labelSvg(lines))).flatten({ background: "#c9ccd0" });
  if (style === "rotated") image = image.rotate(4, { background: "#8a8d90" });
  if (style === "blurred") image = image.blur(1.6).modulate({ brightness: 0.85 });
  return image.jpeg({ quality: style === "blurred" ? 70 : 88 }).toBuffer();
}
