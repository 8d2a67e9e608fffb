import fs from "node:fs";
import path from "node:path";
import slots from "~/content/images/slots.json";

/*
 * The public pages' pictures (ADR 028): one per section slot of app/content/images/slots.json,
 * written at build time as AVIF and WebP at several widths (scripts/build/images.mjs). A page's
 * loader turns a slot into the <picture> markup itself, which the page shows as is: the markup
 * travels in the prerendered HTML and no picture code joins the public pages' JavaScript
 * (ADR 008).
 */

export type ImageSlot = keyof typeof slots;

type Variant = { file: string; width: number };
type ManifestEntry = { width: number; height: number; avif: Variant[]; webp: Variant[] };

/** Where the build wrote the pictures (build/images); the server mounts it at /images. */
let imagesDir = path.resolve("build/images");
let manifest: Record<string, ManifestEntry> | null = null;

export function setPublicImagesDir(dir: string) {
  imagesDir = dir;
  manifest = null;
}

export function publicImagesDir() {
  return imagesDir;
}

function readManifest(): Record<string, ManifestEntry> {
  if (manifest && process.env.NODE_ENV === "production") return manifest;
  const file = path.join(imagesDir, "manifest.json");
  manifest = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, ManifestEntry>)
    : {};
  return manifest;
}

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

const srcset = (variants: Variant[]) =>
  variants.map((v) => `/images/${v.file} ${v.width}w`).join(", ");

/** How wide a picture is shown: a section's (42rem), the hero's (48rem), the contact card's. */
export const PICTURE_SIZES = {
  section: "(min-width: 704px) 42rem, calc(100vw - 2rem)",
  hero: "(min-width: 800px) 48rem, calc(100vw - 2rem)",
  narrow: "(min-width: 608px) 36rem, calc(100vw - 2rem)",
} as const;

/**
 * A slot's <picture>: AVIF then WebP at every width written, an <img> with width and height (no
 * layout shift) that loads lazily unless it is the hero (`eager`). Empty when the build wrote
 * none, so the page simply shows no picture.
 */
export function pictureHtml(
  slot: ImageSlot,
  { sizes = PICTURE_SIZES.section, eager = false }: { sizes?: string; eager?: boolean } = {},
): string {
  const entry = readManifest()[slot];
  if (!entry) return "";
  const loading = eager ? 'loading="eager" fetchpriority="high"' : 'loading="lazy"';
  return (
    `<picture>` +
    `<source type="image/avif" srcset="${srcset(entry.avif)}" sizes="${escape(sizes)}">` +
    `<source type="image/webp" srcset="${srcset(entry.webp)}" sizes="${escape(sizes)}">` +
    `<img src="/images/${entry.webp.at(-1)!.file}" alt="${escape(slots[slot].alt)}" ` +
    `width="${entry.width}" height="${entry.height}" ${loading} decoding="async" ` +
    `class="h-auto w-full rounded-2xl">` +
    `</picture>`
  );
}
