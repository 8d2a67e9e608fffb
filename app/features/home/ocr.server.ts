import { createRequire } from "node:module";
import path from "node:path";
import sharp from "sharp";
import { logger } from "~/lib/logger.server";
import { Semaphore } from "~/lib/semaphore";

/*
 * Reading a label photo on our own server (ADR 087): Tesseract (tesseract.js, its WebAssembly
 * build) with the English data of the npm package @tesseract.js-data/eng, in a worker thread
 * (tesseract.js runs its engine in a Node worker). Nothing is downloaded at run time: the
 * language data is read from node_modules, the cache is off. Bounded:
 * - one read at a time per server process (the others wait their turn);
 * - the picture is made grey and at most OCR_MAX_SIDE pixels on its longer side before the
 *   engine sees it, which bounds the engine's memory (measured in docs/benchmarks.md);
 * - OCR_TIME_LIMIT_MS per read, after which the worker is ended and the read fails;
 * - the worker lives for one read and is ended after it: its memory goes with it.
 */

export const OCR_MAX_SIDE = 1600;
export const OCR_TIME_LIMIT_MS = 30_000;

const turns = new Semaphore(1);

const PLATE_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-./#:()&,% ";

export class OcrFailedError extends Error {}

/** The folder of the English data the npm package ships (eng.traineddata.gz). */
function englishData() {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("@tesseract.js-data/eng/package.json")), "4.0.0");
}

/** The picture as the engine reads it: upright, grey, stretched contrast, bounded in size. */
export async function ocrInput(image: Buffer) {
  return sharp(image, { limitInputPixels: 52_000_000 })
    .rotate()
    .resize(OCR_MAX_SIDE, OCR_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
    .grayscale()
    .normalize()
    .png()
    .toBuffer();
}

/** The text Tesseract reads on `image` (any format sharp reads). */
export async function readText(
  image: Buffer,
  options: { timeLimitMs?: number } = {},
): Promise<string> {
  const input = await ocrInput(image);
  return turns.run(async () => {
    const { createWorker, OEM } = await import("tesseract.js");
    const worker = await createWorker("eng", OEM.LSTM_ONLY, {
      langPath: englishData(),
      gzip: true,
      cacheMethod: "none",
    });
    // Rating plates are printed in capitals: a lower-case letter or a symbol read is a misread
    // (a "c" for a "C", a "£" for an "E").
    await worker.setParameters({ tessedit_char_whitelist: PLATE_CHARACTERS });
    let timer: NodeJS.Timeout | undefined;
    try {
      const limit = options.timeLimitMs ?? OCR_TIME_LIMIT_MS;
      const result = await Promise.race([
        worker.recognize(input, { rotateAuto: true }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new OcrFailedError(`the label was not read within ${limit} ms`)),
            limit,
          );
        }),
      ]);
      return result.data.text;
    } finally {
      clearTimeout(timer);
      await worker.terminate().catch((error: Error) => {
        logger.warn({ err: error.message }, "the OCR worker did not end cleanly");
      });
    }
  });
}
