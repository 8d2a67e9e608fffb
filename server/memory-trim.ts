import { createRequire } from "node:module";
import v8 from "node:v8";
import type Koffi from "koffi";
import vm from "node:vm";
import { logger } from "~/lib/logger.server";

/*
 * Hands memory back to the system once the server is idle (ADR 078). Two kinds stay resident
 * after work the server no longer does:
 * - V8's heap, grown by a busy minute of rendering. V8 keeps those pages until its memory
 *   reducer acts, which under a steady trickle of requests it never does (ADR 036). A full
 *   collection when the server is quiet, if the heap grew by `gcAfterGrowthMb` since the last
 *   one, brings the heap back to what is in use, and V8 unmaps the pages it freed.
 * - glibc's free memory: V8's optimising compiler takes hundreds of megabytes of short-lived
 *   32 KB zones from glibc while it compiles PGlite's engine and the application's hot code, and
 *   glibc keeps the holes they leave in its arenas resident (about 60 MB after start).
 *   `malloc_trim(0)` returns every whole free page of every arena.
 * Both pause the thread (a collection after a trial's load took 77-290 ms, a trim 2 ms), so they
 * run only when no request has come for `idleMs`, once per quiet spell. malloc_trim is called
 * through koffi (a prebuilt foreign-function module) rather than an addon of our own, which
 * would need Node's headers at install time; where libc is not glibc, or koffi has no build for
 * the platform, only the collection runs.
 */

type Trim = (pad: number) => number;

let trimFunction: Trim | null | undefined;

/** glibc's malloc_trim, or null where it cannot be called. */
export function mallocTrim(): Trim | null {
  if (trimFunction !== undefined) return trimFunction;
  trimFunction = null;
  if (process.platform !== "linux") return null;
  try {
    const require = createRequire(import.meta.url);
    const koffi = require("koffi") as typeof Koffi;
    const libc = koffi.load("libc.so.6");
    trimFunction = libc.func("int malloc_trim(size_t pad)") as Trim;
  } catch (error) {
    logger.warn({ err: (error as Error).message }, "malloc_trim is not available");
  }
  return trimFunction;
}

/**
 * A full garbage collection. The server runs without --expose-gc; the flag set now exposes
 * `gc` to contexts created after it (the way test runners' leak checks reach it).
 */
function fullCollection(): () => void {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

const MB = 1048576;

export type IdleTrim = {
  /** To be called on every request. */
  busy(): void;
  stop(): void;
};

/**
 * Every `checkMs`, when no request has come for `idleMs` and nothing was handed back since the
 * last one (or since start): a full collection if V8's heap grew by `gcAfterGrowthMb` since the
 * last, then a trim, and another trim `settleMs` later for what the collection's finalisers
 * freed. `idleMs` 0: never. The timers are unref'd: they never keep the process alive.
 */
export function startIdleTrim(
  options: {
    idleMs?: number;
    checkMs?: number;
    settleMs?: number;
    gcAfterGrowthMb?: number;
    trim?: Trim | null;
    collect?: () => void;
    heapBytes?: () => number;
  } = {},
): IdleTrim {
  const idleMs = options.idleMs ?? 5_000;
  if (idleMs === 0) return { busy() {}, stop() {} };
  const checkMs = options.checkMs ?? Math.min(1_000, idleMs);
  const settleMs = options.settleMs ?? 3_000;
  const growth = (options.gcAfterGrowthMb ?? 32) * MB;
  const trim = options.trim === undefined ? mallocTrim() : options.trim;
  const heapBytes = options.heapBytes ?? (() => process.memoryUsage().heapTotal);
  let collect = options.collect;
  let lastRequest = Date.now();
  let handedBack = false;
  // The first quiet spell collects: start-up (migrations, rendering the public pages) leaves
  // garbage enough.
  let heapAfterCollection = 0;
  let settle: NodeJS.Timeout | undefined;

  const handBack = () => {
    handedBack = true;
    const before = process.memoryUsage.rss();
    const started = performance.now();
    const heap = heapBytes();
    const collected = heap - heapAfterCollection >= growth;
    if (collected) {
      collect ??= fullCollection();
      collect();
      heapAfterCollection = heapBytes();
    }
    trim?.(0);
    if (trim && collected) {
      settle = setTimeout(() => {
        if (handedBack) trim(0);
      }, settleMs);
      settle.unref();
    }
    logger.debug(
      {
        collected,
        heapBeforeMb: Math.round(heap / MB),
        rssBeforeMb: Math.round(before / MB),
        rssAfterMb: Math.round(process.memoryUsage.rss() / MB),
        ms: Math.round(performance.now() - started),
      },
      "idle: memory handed back",
    );
  };
  const timer = setInterval(() => {
    if (!handedBack && Date.now() - lastRequest >= idleMs) handBack();
  }, checkMs);
  timer.unref();
  return {
    busy() {
      lastRequest = Date.now();
      handedBack = false;
    },
    stop() {
      clearInterval(timer);
      clearTimeout(settle);
    },
  };
}
