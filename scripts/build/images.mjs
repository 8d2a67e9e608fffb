// The public pages' pictures (ADR 028): each slot of app/content/images/slots.json is drawn from
// the business's own photograph when one is there (`<slot>.jpg`, `.jpeg`, `.png` or `.webp` in
// app/content/images/) and otherwise from the slot's default illustration (an SVG there). Each is
// written at several widths as AVIF and WebP, with content-hashed names, into build/images/,
// with a manifest the pages read for srcset, width and height. Runs before the app's build
// (scripts/build.mjs) and before the development server; an unchanged source is not redone.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";

const root = path.resolve(import.meta.dirname, "../..");
const sourceDir = path.join(root, "app/content/images");
export const IMAGES_DIR = path.join(root, "build/images");
const PHOTO_TYPES = [".jpg", ".jpeg", ".png", ".webp"];
/** Widths written; a photograph is never enlarged past its own width. */
const WIDTHS = [480, 800, 1200];
/** Every picture is shown at this shape, cropped to its centre when a photograph differs. */
const ASPECT = 10 / 16;
const FORMATS = {
  avif: (image) => image.avif({ quality: 55, effort: 4 }),
  webp: (image) => image.webp({ quality: 72, effort: 4 }),
};
const VERSION = "1";

function sourceOf(slot, illustration) {
  for (const ext of PHOTO_TYPES) {
    const photo = path.join(sourceDir, `${slot}${ext}`);
    if (fs.existsSync(photo)) return photo;
  }
  const file = path.join(sourceDir, illustration);
  if (!fs.existsSync(file)) throw new Error(`Image slot ${slot}: ${illustration} is missing`);
  return file;
}

export async function buildImages({ quiet = false } = {}) {
  const slots = JSON.parse(fs.readFileSync(path.join(sourceDir, "slots.json"), "utf8"));
  fs.mkdirSync(IMAGES_DIR, { recursive: true });
  const manifestFile = path.join(IMAGES_DIR, "manifest.json");
  const previous = fs.existsSync(manifestFile)
    ? JSON.parse(fs.readFileSync(manifestFile, "utf8"))
    : {};
  const manifest = {};
  const cache = new Map();
  let written = 0;
  for (const [slot, { illustration }] of Object.entries(slots)) {
    const source = sourceOf(slot, illustration);
    const bytes = fs.readFileSync(source);
    const hash = crypto.createHash("sha256").update(VERSION).update(bytes).digest("hex");
    const key = hash.slice(0, 12);
    const done = previous[slot];
    if (done?.source === key && done.files.every((f) => fs.existsSync(path.join(IMAGES_DIR, f)))) {
      manifest[slot] = done;
      continue;
    }
    if (!cache.has(key)) cache.set(key, await encode(source, bytes, key));
    manifest[slot] = cache.get(key);
    written++;
  }
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  // Files no slot uses any more (a replaced photograph) go.
  const used = new Set(["manifest.json", ...Object.values(manifest).flatMap((m) => m.files)]);
  for (const file of fs.readdirSync(IMAGES_DIR)) {
    if (!used.has(file)) fs.rmSync(path.join(IMAGES_DIR, file));
  }
  if (!quiet) console.log(`Images: ${Object.keys(manifest).length} slots, ${written} redone`);
  return manifest;
}

async function encode(source, bytes, key) {
  const isSvg = source.endsWith(".svg");
  const meta = await sharp(bytes).metadata();
  const widths = isSvg ? WIDTHS : WIDTHS.filter((w) => w <= (meta.width ?? 0));
  if (widths.length === 0) widths.push(Math.min(meta.width ?? WIDTHS[0], WIDTHS[0]));
  const base = path.basename(source).replace(/\.[^.]+$/, "");
  const entry = { source: key, width: widths.at(-1), height: 0, avif: [], webp: [], files: [] };
  entry.height = Math.round(entry.width * ASPECT);
  for (const width of widths) {
    const height = Math.round(width * ASPECT);
    const density = isSvg ? Math.max(72, (72 * width) / (meta.width ?? width)) : undefined;
    for (const [format, apply] of Object.entries(FORMATS)) {
      const image = sharp(bytes, density ? { density } : {})
        .rotate()
        .resize(width, height, { fit: "cover" });
      const output = await apply(image).toBuffer();
      const name = `${base}-${key.slice(0, 8)}-${width}.${format}`;
      fs.writeFileSync(path.join(IMAGES_DIR, name), output);
      entry[format].push({ file: name, width });
      entry.files.push(name);
    }
  }
  return entry;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildImages();
