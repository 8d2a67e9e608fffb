/**
 * The customer dashboard bench's measurements: the dashboard's documents, and a photo's upload
 * in a process of its own.
 */
import zlib from "node:zlib";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { processPhoto } from "~/features/photos/image.server";
import { createLocalStorage } from "~/lib/storage.server";
import { stats, timed } from "./common";
import { ITERATIONS, MAX_UPLOAD_BYTES, PHOTO_RUNS, WARMUP } from "./customer-dashboard-config";

/** Samples the resident set size every 5 ms while `work` runs (libvips works off the JS thread). */
async function withPeakRss<T>(work: () => Promise<T>) {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

type Target = { url: string; headers: Record<string, string>; check(body: string): void };

/**
 * Every dashboard document the member can open: each page of each list (Next, Later, Completed
 * Work), on the tab that shows it, fetched once; the largest is reported.
 */
export async function largestDocument(base: string, headers: Record<string, string>) {
  const params = { next: "npage", later: "lpage", completed: "cpage" } as const;
  let largest = { url: "", bytes: 0, documents: 0 };
  for (const [list, param] of Object.entries(params)) {
    for (let n = 1; ; n++) {
      const tab = list === "completed" ? "tab=completed&" : "";
      const url = `${base}/dashboard?${tab}${param}=${n}`;
      const response = await fetch(url, { headers });
      if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
      const html = await response.text();
      const bytes = Buffer.byteLength(html);
      largest.documents += 1;
      if (bytes > largest.bytes) largest = { ...largest, url: url.slice(base.length), bytes };
      // The last page has no link onwards (a page past the end shows the last page again).
      if (!html.includes(`${param}=${n + 1}`)) break;
    }
  }
  return largest;
}

/** Times GETs of two targets call for call in alternation, so both see the same machine load. */
export async function timeGetPair(big: Target, small: Target) {
  const get = async (target: Target) => {
    const response = await fetch(target.url, { headers: target.headers });
    if (response.status !== 200) throw new Error(`${target.url}: HTTP ${response.status}`);
    return response.text();
  };
  for (let i = 0; i < WARMUP; i++) {
    await get(big);
    await get(small);
  }
  const samples = { big: [] as number[], small: [] as number[] };
  const bytes = { big: 0, small: 0 };
  const gzipped = { big: 0, small: 0 };
  for (let i = 0; i < ITERATIONS; i++) {
    for (const [key, target] of [
      ["big", big],
      ["small", small],
    ] as const) {
      const { ms: took, result } = await timed(() => get(target));
      if (i === 0) target.check(result);
      bytes[key] = Buffer.byteLength(result);
      gzipped[key] = zlib.gzipSync(result).length;
      samples[key].push(took);
    }
  }
  return {
    big: { ...stats(samples.big), bytes: bytes.big, gzipped: gzipped.big },
    small: { ...stats(samples.small), bytes: bytes.small, gzipped: gzipped.small },
  };
}

/*
 * The photo's time and memory are measured in a child process of their own, so the figure is
 * the upload pipeline's and not this process's (which holds the server and the seeding).
 */
export const PHOTO_CHILD_FLAG = "--photo-child";

export async function photoChild(file: string) {
  const { readMultipart } = await import("~/features/photos/multipart.server");
  const store = createLocalStorage(fs.mkdtempSync(path.join(os.tmpdir(), "bench-photo-")));
  const data = fs.readFileSync(file);
  // Load sharp's code and threads first, so the baseline is the ready-to-serve process.
  await processPhoto(
    await sharp({ create: { width: 64, height: 64, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer(),
  );
  global.gc?.();
  const results: { ms: number; peak: number; baseline: number }[] = [];
  for (let i = 0; i < PHOTO_RUNS; i++) {
    const body = new FormData();
    body.append("photo", new File([new Uint8Array(data)], "IMG_0001.jpg", { type: "image/jpeg" }));
    const request = new Request("http://localhost/upload", { method: "POST", body });
    const baseline = process.memoryUsage().rss;
    const measured = await withPeakRss(() =>
      timed(() =>
        readMultipart(request, {
          maxFileBytes: MAX_UPLOAD_BYTES,
          maxFiles: 1,
          maxTotalBytes: MAX_UPLOAD_BYTES + 1024 * 1024,
          async onFile(upload) {
            const photo = await processPhoto(upload.data);
            await store.put(`request-photos/bench/${i}.jpg`, photo.full.data, "image/jpeg");
            await store.put(
              `request-photos/bench/${i}-thumb.webp`,
              photo.thumbnail.data,
              "image/webp",
            );
          },
        }),
      ),
    );
    results.push({ ms: measured.result.ms, peak: measured.peak, baseline });
  }
  console.log(JSON.stringify(results));
}

export async function measurePhotoInChild(file: string) {
  const { execFileSync } = await import("node:child_process");
  const output = execFileSync(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      "tsx",
      path.resolve("scripts/bench/customer-dashboard.ts"),
      PHOTO_CHILD_FLAG,
      file,
    ],
    { encoding: "utf8", env: { ...process.env, LOG_LEVEL: "silent" } },
  );
  const line = output.trim().split("\n").pop()!;
  return JSON.parse(line) as { ms: number; peak: number; baseline: number }[];
}
