import sharpActual from "sharp";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  configureDecoding,
  MAX_INPUT_PIXELS,
  PhotoRejectedError,
  processPhoto,
} from "~/features/photos/image.server";
import { Semaphore } from "~/lib/semaphore";

/*
 * Image decoding per process is capped (ADR 022): however many photos arrive at once, at most
 * N are decoded at a time, counted here by wrapping sharp, not by timing. Pixel bombs are
 * refused from their header before they take a turn.
 */

const decoding = vi.hoisted(() => ({ now: 0, most: 0, started: 0 }));
vi.mock("sharp", async (importOriginal) => {
  const real = (await importOriginal<{ default: typeof sharpActual }>()).default;
  // A decode is a pipeline opened on the uploaded bytes with a pixel limit; encodes start from
  // raw pixels and metadata reads call no toBuffer.
  const wrapped = ((...args: Parameters<typeof sharpActual>) => {
    const instance = real(...args);
    const options = args[1] as { limitInputPixels?: number | boolean } | undefined;
    if (typeof options?.limitInputPixels !== "number") return instance;
    const toBuffer = instance.toBuffer.bind(instance) as (...a: unknown[]) => Promise<unknown>;
    (instance as unknown as { toBuffer: unknown }).toBuffer = async (...a: unknown[]) => {
      decoding.started++;
      decoding.most = Math.max(decoding.most, ++decoding.now);
      try {
        return await toBuffer(...a);
      } finally {
        decoding.now--;
      }
    };
    return instance;
  }) as unknown as typeof sharpActual;
  Object.assign(wrapped, real);
  return { default: wrapped };
});

async function png(width: number, height: number) {
  return sharpActual({
    create: { width, height, channels: 3, background: { r: 120, g: 60, b: 30 } },
  })
    .png({ compressionLevel: 9 })
    .toBuffer();
}

afterEach(() => {
  Object.assign(decoding, { now: 0, most: 0, started: 0 });
});

describe("decoding photos", () => {
  for (const slots of [1, 2, 3]) {
    it(`decodes at most ${slots} at once when 10 arrive together`, async () => {
      configureDecoding(slots);
      const photo = await png(1200, 900);
      const results = await Promise.all(Array.from({ length: 10 }, () => processPhoto(photo)));
      expect(results.every((r) => r.full.width === 1200)).toBe(true);
      expect(decoding.started).toBe(10);
      expect(decoding.most).toBe(slots);
    });
  }

  it("refuses a picture over the pixel limit from its header, without decoding it", async () => {
    configureDecoding(2);
    const side = Math.ceil(Math.sqrt(MAX_INPUT_PIXELS)) + 1;
    const bomb = await png(side, side);
    expect(bomb.length).toBeLessThan(10 * 1024 * 1024);
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => processPhoto(bomb)));
    for (const outcome of outcomes) {
      expect(outcome.status).toBe("rejected");
      const error = (outcome as PromiseRejectedResult).reason as PhotoRejectedError;
      expect(error).toBeInstanceOf(PhotoRejectedError);
      expect(error.reason).toBe("too-large");
    }
    expect(decoding.started).toBe(0);
  });

  it("a 48-megapixel camera picture is still accepted", async () => {
    configureDecoding(2);
    const photo = await png(8064, 6048);
    const processed = await processPhoto(photo);
    expect(processed.full.width).toBe(2560);
  });
});

describe("the semaphore", () => {
  it("runs at most its limit at once, in arrival order, and passes on failures", async () => {
    const semaphore = new Semaphore(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const tasks = Array.from({ length: 5 }, (_, i) =>
      semaphore.run(async () => {
        order.push(i);
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        if (i === 1) throw new Error("task 1 failed");
        return i;
      }),
    );
    const settled = Promise.allSettled(tasks);
    // Let the queue settle, then release the tasks one at a time.
    for (let done = 0; done < 5; done++) {
      while (releases.length === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(semaphore.active).toBeLessThanOrEqual(2);
      releases.shift()!();
    }
    const outcomes = await settled;
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(outcomes.map((o) => o.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
    expect(semaphore.active).toBe(0);
    expect(semaphore.waiting).toBe(0);
  });
});
