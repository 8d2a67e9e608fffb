import { fileTypeFromBuffer } from "file-type";
import sharp from "sharp";

/*
 * Turns an uploaded file into images that are safe to store and serve (issue 5 item 4):
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

  const input = () =>
    sharp(data, {
      // A truncated or corrupt file is refused rather than stored half grey.
      failOn: "truncated",
      limitInputPixels: MAX_INPUT_PIXELS,
      animated: false,
    }).rotate(); // applies the EXIF orientation, then the EXIF is dropped on output

  let hasAlpha: boolean;
  try {
    const metadata = await input().metadata();
    hasAlpha = Boolean(metadata.hasAlpha);
  } catch (error) {
    throw new PhotoRejectedError("undecodable", (error as Error).message);
  }

  try {
    // Pictures with transparency keep it as WebP; everything else becomes a JPEG.
    const fullPipeline = input().resize({
      width: FULL_SIZE,
      height: FULL_SIZE,
      fit: "inside",
      withoutEnlargement: true,
    });
    const fullResult = hasAlpha
      ? await fullPipeline.webp({ quality: 85 }).toBuffer({ resolveWithObject: true })
      : await fullPipeline
          .jpeg({ quality: 85, mozjpeg: true })
          .toBuffer({ resolveWithObject: true });
    const thumbResult = await input()
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: "cover" })
      .webp({ quality: 75 })
      .toBuffer({ resolveWithObject: true });
    return {
      sourceType,
      full: {
        data: fullResult.data,
        contentType: hasAlpha ? "image/webp" : "image/jpeg",
        extension: hasAlpha ? "webp" : "jpg",
        width: fullResult.info.width,
        height: fullResult.info.height,
      },
      thumbnail: {
        data: thumbResult.data,
        contentType: "image/webp",
        extension: "webp",
        width: thumbResult.info.width,
        height: thumbResult.info.height,
      },
    };
  } catch (error) {
    throw new PhotoRejectedError("undecodable", (error as Error).message);
  }
}
