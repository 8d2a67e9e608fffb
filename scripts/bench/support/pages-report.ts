/** The pages bench's tables (scripts/bench/pages.ts). */
import type { DatabaseRun } from "../pages";

export const TARGETS = {
  dashboardVsFloor: 0.35,
  p95Ms: 100,
  residentAtRestMb: 250,
  residentAfterLoadMb: 300,
};

export function pct(value: number) {
  return Number.isFinite(value) ? `${(value * 100).toFixed(0)}%` : "n/a";
}

export function table(run: DatabaseRun) {
  const lines = [
    `| page (${run.kind}${run.variant ? `, node ${run.variant}` : ""}) | req/s | p50 ms | p95 ms | errors | CPU ms per request | floor req/s just before | floor CPU ms per request | ratio to floor (by CPU per request) | targets |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const { page, anchor, ours } of run.rows) {
    const share = ours.rps / anchor.rps;
    // No answer within the measurement is a miss, not a p95 of 0.
    const answered = ours.requests > 0;
    const checks = [
      `p95 <= ${TARGETS.p95Ms} ms: ${answered && ours.p95 <= TARGETS.p95Ms ? "yes" : answered ? "**no**" : "**no** (no answer within the measurement)"}`,
    ];
    if (page.label.startsWith("member: /dashboard"))
      checks.unshift(
        `>= ${pct(TARGETS.dashboardVsFloor)} of floor: ${share >= TARGETS.dashboardVsFloor ? "yes" : "**no**"}`,
      );
    lines.push(
      `| ${page.label} | ${ours.rps.toFixed(0)} | ${ours.p50.toFixed(1)} | ${ours.p95.toFixed(1)} | ${ours.errors} | ${ours.cpuMs?.toFixed(2) ?? ""} | ${anchor.rps.toFixed(0)} | ${anchor.cpuMs?.toFixed(2) ?? ""} | ${pct(share)} (${anchor.cpuMs && ours.cpuMs ? pct(anchor.cpuMs / ours.cpuMs) : "n/a"}) | ${checks.join("; ")} |`,
    );
  }
  return lines.join("\n");
}

export function memoryTable(runs: DatabaseRun[]) {
  const mem = (value: number, target: number) =>
    `${value.toFixed(0)} MB (<= ${target} MB: ${value <= target ? "yes" : "**no**"})`;
  return [
    "| server | resident after start (10 s at rest) | after the load above (10 s at rest) |",
    "| --- | ---: | ---: |",
    ...runs.map((r) =>
      r.kind === "PGlite"
        ? `| embedded (PGlite)${r.variant ? `, node ${r.variant}` : ""} | ${mem(r.residentAtRest, TARGETS.residentAtRestMb)} | ${mem(r.residentAfterLoad, TARGETS.residentAfterLoadMb)} |`
        : `| PostgreSQL (the server's process only) | ${r.residentAtRest.toFixed(0)} MB | ${r.residentAfterLoad.toFixed(0)} MB |`,
    ),
  ].join("\n");
}
