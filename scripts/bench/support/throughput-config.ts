/** The throughput bench's settings and targets (scripts/bench/throughput.ts). */
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../../..");
export const REPORT = path.join(ROOT, "docs", "benchmarks.md");
export const START = "<!-- throughput:start -->";
export const END = "<!-- throughput:end -->";
export const WRK = process.env.WRK ?? "/usr/bin/wrk";
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const STATIC_CONNECTIONS = 50;
export const PAGE_CONNECTIONS = 10;
export const PASSWORD = "Bench-Pass-2026!";
export const MEMBER_REQUESTS = 30;
/** How long the embedded server's idle CPU is measured. */
export const IDLE_SECONDS = Math.max(10, Math.min(30, DURATION * 2));

export const TARGETS = {
  staticVsNginx: 0.5,
  authVsFloorForm: 0.8,
  // Issue 45: at least 0.35 of the lean floor (the goal beyond it: 0.5).
  dashboardVsFloorList: 0.35,
  employeeVsFloorList: 0.4,
  pgliteVsPostgres: 0.8,
  residentAfterStartMb: 250,
  residentAfterLoadMb: 350,
  idleCpuShare: 0.005,
};
