import { fileTypeFromBuffer } from "file-type";
import sharp, { type OutputInfo } from "sharp";

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

/** Big enough for any phone camera (a 108 MP sensor), small enough to refuse pixel bombs. */
const MAX_INPUT_PIXELS = 120_000_000;
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
  const detected = await fileTypeFromBuffer(data);
  return detected?.mime;
}

export async function processPhoto(data: Buffer): Promise<ProcessedPhoto> {
  const sourceType = await detectImageType(data);
  if (!sourceType) throw new PhotoRejectedError("not-an-image", "the bytes are not an image");
  if (!ACCEPTED_TYPES.has(sourceType)) {
    throw new PhotoRejectedError("unsupported-type", `unsupported image type ${sourceType}`);
  }

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
