/**
 * The customer dashboard bench's data sizes, runs and targets
 * (scripts/bench/customer-dashboard.ts).
 */

export const REQUESTS = 200;
export const SMALL_REQUESTS = 20;
export const PHOTOS_PER_REQUEST = 5;
export const OTHER_CUSTOMERS = 100;
export const OTHER_REQUESTS_EACH = 100;
export const OTHER_PHOTOS_EACH = 3;
export const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
export const WARMUP = 15;
export const PHOTO_RUNS = 3;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const TARGETS = {
  pageP95: 50,
  documentKb: 150,
  queryP95: 50,
  photoSeconds: 5,
  photoPeakMb: 600,
};
export const FIRST_PAGES = { next: 1, later: 1, completed: 1 };
export const PASSWORD = "Bench-pass-2026!";

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
