import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { startIdleTrim } from "./memory-trim";

/*
 * The idle trim (ADR 078): glibc's free memory is handed back once the server has been quiet,
 * once per quiet spell; and malloc_trim, called through koffi, really returns freed memory.
 */

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A heap whose size the test sets. */
function fakeHeap(mb: number) {
  const heap = { bytes: mb * 1048576 };
  return { heap, heapBytes: () => heap.bytes };
}

test("hands back once after the quiet time, again only after a request", () => {
  const trim = vi.fn(() => 1);
  const collect = vi.fn();
  const { heapBytes } = fakeHeap(100);
  const idle = startIdleTrim({ idleMs: 5_000, checkMs: 1_000, trim, collect, heapBytes });
  vi.advanceTimersByTime(4_000);
  expect(trim).not.toHaveBeenCalled();
  vi.advanceTimersByTime(2_000);
  // The first quiet spell collects (start-up's garbage), trims, and trims again 3 s later.
  expect(collect).toHaveBeenCalledTimes(1);
  expect(trim).toHaveBeenCalledTimes(1);
  expect(trim).toHaveBeenCalledWith(0);
  vi.advanceTimersByTime(3_000);
  expect(trim).toHaveBeenCalledTimes(2);
  vi.advanceTimersByTime(60_000);
  expect(trim).toHaveBeenCalledTimes(2);

  // Requests keep coming: nothing while they do. Then a quiet spell: a trim, and no collection,
  // as the heap has not grown.
  for (let i = 0; i < 10; i++) {
    idle.busy();
    vi.advanceTimersByTime(3_000);
  }
  expect(trim).toHaveBeenCalledTimes(2);
  vi.advanceTimersByTime(6_000);
  expect(trim).toHaveBeenCalledTimes(3);
  vi.advanceTimersByTime(10_000);
  expect(trim).toHaveBeenCalledTimes(3);
  expect(collect).toHaveBeenCalledTimes(1);

  idle.busy();
  idle.stop();
  vi.advanceTimersByTime(60_000);
  expect(trim).toHaveBeenCalledTimes(3);
});

test("collects only when the heap grew by 32 MB since the last collection", () => {
  const trim = vi.fn(() => 1);
  const collect = vi.fn(() => {
    heap.bytes = 60 * 1048576;
  });
  const { heap, heapBytes } = fakeHeap(150);
  const idle = startIdleTrim({ idleMs: 5_000, trim, collect, heapBytes });
  vi.advanceTimersByTime(6_000);
  expect(collect).toHaveBeenCalledTimes(1);

  heap.bytes = 91 * 1048576; // 31 MB more than after the collection
  idle.busy();
  vi.advanceTimersByTime(6_000);
  expect(collect).toHaveBeenCalledTimes(1);

  heap.bytes = 92 * 1048576;
  idle.busy();
  vi.advanceTimersByTime(6_000);
  expect(collect).toHaveBeenCalledTimes(2);
  idle.stop();
});

test("a request during the settling time cancels nothing it needs: the next spell trims", () => {
  const trim = vi.fn(() => 1);
  const idle = startIdleTrim({ idleMs: 5_000, trim, collect: () => {}, ...fakeHeap(100) });
  vi.advanceTimersByTime(5_500);
  expect(trim).toHaveBeenCalledTimes(1);
  idle.busy(); // a request before the second trim: the busy server is not paused for it
  vi.advanceTimersByTime(3_000);
  expect(trim).toHaveBeenCalledTimes(1);
  vi.advanceTimersByTime(3_000);
  expect(trim).toHaveBeenCalledTimes(2);
  idle.stop();
});

test("IDLE_MEMORY_TRIM_MS=0 never hands anything back", () => {
  const trim = vi.fn(() => 1);
  const collect = vi.fn();
  startIdleTrim({ idleMs: 0, trim, collect });
  vi.advanceTimersByTime(600_000);
  expect(trim).not.toHaveBeenCalled();
  expect(collect).not.toHaveBeenCalled();
});

test("the collection is a real full collection, without --expose-gc", () => {
  // 80 MB of large arrays: V8 keeps them in its large-object space, which only a full
  // collection empties.
  let garbage: unknown[][] | null = Array.from({ length: 10 }, () =>
    new Array<number>(1_000_000).fill(1.5),
  );
  expect(garbage).toHaveLength(10);
  garbage = null;
  const before = process.memoryUsage().heapUsed;
  const idle = startIdleTrim({ idleMs: 5_000, trim: null });
  vi.advanceTimersByTime(6_000);
  idle.stop();
  expect(before - process.memoryUsage().heapUsed).toBeGreaterThan(60 * 1048576);
});

test.runIf(process.platform === "linux")(
  "malloc_trim hands freed memory back to the system",
  () => {
    vi.useRealTimers();
    // A child process with the server's malloc settings: 80 MB of 2 KB blocks from glibc's
    // arenas (Buffers off V8's heap), all but a few freed, then trimmed.
    const script = `
      const { mallocTrim } = await import(${JSON.stringify(path.resolve(import.meta.dirname, "memory-trim.ts"))});
      const rss = () => process.memoryUsage.rss() / 1048576;
      let blocks = [];
      for (let i = 0; i < 40000; i++) blocks.push(Buffer.allocUnsafeSlow(2000));
      const kept = blocks.filter((_, i) => i % 1000 === 999);
      blocks = null;
      globalThis.gc();
      await new Promise((resolve) => setTimeout(resolve, 50));
      globalThis.gc();
      const freed = rss();
      const trim = mallocTrim();
      trim(0);
      console.log(JSON.stringify({ freed, trimmed: rss(), kept: kept.length }));`;
    const output = execFileSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script],
      {
        env: { ...process.env, MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" },
        encoding: "utf8",
      },
    );
    const { freed, trimmed } = JSON.parse(output.trim().split("\n").at(-1)!) as {
      freed: number;
      trimmed: number;
    };
    // The 80 MB freed stay resident until the trim; most of them go with it.
    expect(freed - trimmed).toBeGreaterThan(50);
  },
);
