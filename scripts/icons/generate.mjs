// Generates the site's icons into public/ from two SVG sources, with sharp:
//   public/favicon.svg (rounded square) -> favicon.ico (16, 32 and 48 px PNGs in one ICO)
//   scripts/icons/app-icon.svg (full bleed, the house inside the maskable safe zone)
//     -> apple-touch-icon.png (180 px) and icon-192.png / icon-512.png for site.webmanifest.
// The outputs are committed; run `node scripts/icons/generate.mjs` after changing a source.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const root = path.resolve(import.meta.dirname, "../..");
const publicDir = path.join(root, "public");
const favicon = fs.readFileSync(path.join(publicDir, "favicon.svg"));
const appIcon = fs.readFileSync(path.join(import.meta.dirname, "app-icon.svg"));

function png(svg, size) {
  return sharp(svg, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** An ICO file whose images are PNGs (supported by every browser that asks for /favicon.ico). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  const entries = [];
  let offset = 6 + 16 * images.length;
  for (const { size, data } of images) {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2);
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    entries.push(entry);
  }
  return Buffer.concat([header, ...entries, ...images.map((image) => image.data)]);
}

const icoImages = [];
for (const size of [16, 32, 48]) icoImages.push({ size, data: await png(favicon, size) });
fs.writeFileSync(path.join(publicDir, "favicon.ico"), ico(icoImages));
fs.writeFileSync(path.join(publicDir, "apple-touch-icon.png"), await png(appIcon, 180));
for (const size of [192, 512]) {
  fs.writeFileSync(path.join(publicDir, `icon-${size}.png`), await png(appIcon, size));
}
console.log("Icons written to public/");
