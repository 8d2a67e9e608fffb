import os from "node:os";
import type { default as Sharp, OutputInfo } from "sharp";
import { env } from "~/lib/env.server";
import { Semaphore } from "~/lib/semaphore";

/*
 * Turns an uploaded file into images that are safe to store and serve (ADR 009):
 * the type is decided by the file's bytes, the picture is decoded and re-encoded (so nothing
 * of the original file survives: no EXIF, no GPS, no trailing payloads), orientation is
 * applied, and a thumbnail is made for lists.
 */

/** Formats we accept, by detected MIME type. HEIC decodes only where sharp's libheif can. */
const ACCEPTED_TYPES = new Set([
  "image/jpeg",
  "image/png",
  "image/webp",
  "image/avif",
  "image/heic",
  "image/heif",
]);

/**
 * The most pixels a photo may have (ADR 022): a 50-megapixel camera's full resolution (8160 x
 * 6144), which is about what a camera JPEG within the 10 MB limit can hold. Larger pictures (a
 * small PNG that unpacks to 10,900 x 10,900) are refused from their header, before decoding.
 */
export const MAX_INPUT_PIXELS = 52_000_000;

/*
 * Decoding is the expensive part of an upload: a few large pictures at once can take hundreds of
 * megabytes and every core. This process decodes at most PHOTO_DECODE_CONCURRENCY photos at a
 * time (2 unless set); the others wait their turn with their bytes already read. libvips gets
 * the cores shared between those slots, and keeps no cache of decoded images once a photo is
 * done, so memory goes back after a burst.
 */
let decodeSlots: Semaphore | undefined;
let vipsThreads = 0;

function slots() {
  if (!decodeSlots) configureDecoding(env().photoDecodeConcurrency);
  return decodeSlots!;
}

/** Sets how many photos this process decodes at once (startup reads PHOTO_DECODE_CONCURRENCY). */
export function configureDecoding(concurrency: number) {
  decodeSlots = new Semaphore(concurrency);
  vipsThreads = Math.max(1, Math.floor(os.availableParallelism() / concurrency));
}

/*
 * sharp (libvips) and file-type are loaded with the first photo rather than when the server
 * starts: most processes start far more often than they see a photo (ADR 029).
 */
let sharpLoaded: Promise<typeof Sharp> | undefined;
let threadsApplied = 0;

async function loadSharp() {
  sharpLoaded ??= import("sharp").then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  const sharp = await sharpLoaded;
  slots();
  if (threadsApplied !== vipsThreads) {
    sharp.concurrency(vipsThreads);
    threadsApplied = vipsThreads;
  }
  return sharp;
}

/** Photos being decoded and photos waiting for a turn, for tests and diagnostics. */
export function decodingLoad() {
  const current = slots();
  return { active: current.active, waiting: current.waiting };
}
const FULL_SIZE = 2560;
const THUMBNAIL_SIZE = 320;

export class PhotoRejectedError extends Error {
  constructor(
    public readonly reason: "not-an-image" | "unsupported-type" | "undecodable" | "too-large",
    detail: string,
  ) {
    super(detail);
    this.name = "PhotoRejectedError";
  }
}

export type EncodedImage = {
  data: Buffer;
  contentType: "image/jpeg" | "image/webp";
  extension: "jpg" | "webp";
  width: number;
  height: number;
};

export type ProcessedPhoto = { full: EncodedImage; thumbnail: EncodedImage; sourceType: string };

export async function detectImageType(data: Uint8Array) {
  const { fileTypeFromBuffer } = await import("file-type");
  const detected = await fileTypeFromBuffer(data);
  return detected?.mime;
}

export async function processPhoto(data: Buffer): Promise<ProcessedPhoto> {
  const sourceType = await detectImageType(data);
  if (!sourceType) throw new PhotoRejectedError("not-an-image", "the bytes are not an image");
  if (!ACCEPTED_TYPES.has(sourceType)) {
    throw new PhotoRejectedError("unsupported-type", `unsupported image type ${sourceType}`);
  }
  await refuseOversizePicture(data);
  return slots().run(() => decodeAndEncode(data, sourceType));
}

/** Reads the picture's size from its header only: a pixel bomb never takes a decoding slot. */
async function refuseOversizePicture(data: Buffer) {
  const sharp = await loadSharp();
  let width: number | undefined;
  let height: number | undefined;
  try {
    ({ width, height } = await sharp(data, { limitInputPixels: false }).metadata());
  } catch (error) {
    throw new PhotoRejectedError("undecodable", (error as Error).message);
  }
  if (!width || !height) throw new PhotoRejectedError("undecodable", "the picture has no size");
  if (width * height > MAX_INPUT_PIXELS) {
    throw new PhotoRejectedError("too-large", `${width} x ${height} pixels is over the limit`);
  }
}

async function decodeAndEncode(data: Buffer, sourceType: string): Promise<ProcessedPhoto> {
  const sharp = await loadSharp();
  // One decode: the picture is turned upright (EXIF orientation) and scaled to its stored size
  // as raw pixels; the stored image and the thumbnail are both encoded from those pixels, so
  // nothing of the original file (EXIF, GPS, trailing bytes) can reach the output.
  let pixels: Buffer;
  let info: OutputInfo;
  try {
    ({ data: pixels, info } = await sharp(data, {
      // A truncated or corrupt file is refused rather than stored half grey.
      failOn: "truncated",
      limitInputPixels: MAX_INPUT_PIXELS,
      animated: false,
    })
      .rotate()
      .resize({ width: FULL_SIZE, height: FULL_SIZE, fit: "inside", withoutEnlargement: true })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true }));
  } catch (error) {
    throw new PhotoRejectedError("undecodable", (error as Error).message);
  }

  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  // Pictures with transparency keep it as WebP; everything else becomes a JPEG.
  const hasAlpha = info.channels === 4 || info.channels === 2;
  try {
    const [full, thumbnail] = await Promise.all([
      hasAlpha
        ? sharp(pixels, raw).webp({ quality: 85 }).toBuffer({ resolveWithObject: true })
        : sharp(pixels, raw).jpeg({ quality: 82 }).toBuffer({ resolveWithObject: true }),
      sharp(pixels, raw)
        .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: "cover" })
        .webp({ quality: 75 })
        .toBuffer({ resolveWithObject: true }),
    ]);
    return {
      sourceType,
      full: {
        data: full.data,
        contentType: hasAlpha ? "image/webp" : "image/jpeg",
        extension: hasAlpha ? "webp" : "jpg",
        width: full.info.width,
        height: full.info.height,
      },
      thumbnail: {
        data: thumbnail.data,
        contentType: "image/webp",
        extension: "webp",
        width: thumbnail.info.width,
        height: thumbnail.info.height,
      },
    };
  } catch (error) {
    throw new PhotoRejectedError("undecodable", (error as Error).message);
  }
}
