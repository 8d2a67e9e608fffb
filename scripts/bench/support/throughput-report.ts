/** The throughput bench's report: its table rows, the reasons for missed targets, its section. */
import fs from "node:fs";
import { END, REPORT, START, TARGETS } from "./throughput-config";
import { AUTH_RENDERED, type Measured } from "./throughput-product";
import type { StaticMeasurement } from "./throughput-static";
import type { WrkResult } from "./throughput-wrk";

/**
 * What the profiles (scripts/bench/support/profile.ts) show behind each target this run missed,
 * printed only for a missed target. Update these when the code they describe changes.
 */
export function reasons(r: {
  statics: StaticMeasurement[];
  pg: { results: Measured; anchors: Measured };
  pglite: { results: Measured; anchors: Measured };
}) {
  const missed = (value: WrkResult, anchor: WrkResult | undefined, target: number) =>
    anchor !== undefined && value.rps / anchor.rps < target;
  const missedPage = (key: string, target: number) =>
    missed(r.pg.results[key], r.pg.anchors[key], target) ||
    missed(r.pglite.results[key], r.pglite.anchors[key], target);
  const lines: string[] = [];
  const slow = r.statics.filter((s) => missed(s.ours, s.anchor, TARGETS.staticVsNginx));
  if (slow.some((s) => s.target.path !== "/healthz"))
    lines.push(
      "- Static bytes below half of nginx: these are answered by the fast path (server/fast-path.ts, ADR 032) before Express, every header prepared at start; what is left per request is Node's own HTTP server (parsing the request, writing the head, one write per answer), a request id and the log line, on one JavaScript thread, where nginx's worker is C.",
    );
  if (slow.some((s) => s.target.path === "/healthz"))
    lines.push(
      "- /healthz below half of nginx serving its answer as a file: each of ours waits for a `select 1` on PostgreSQL begun after it arrived (shared by the checks that arrive together: a round trip to the database's own process, and the driver's work) before it answers; nginx reads a file.",
    );
  if (missedPage("/auth", TARGETS.authVsFloorForm))
    lines.push(
      "- /auth: the fast path serves a visitor the sign-in page rendered at start (ADR 034); what is left per request is Node's HTTP server, the request id and the log line.",
    );
  if (missedPage(AUTH_RENDERED, TARGETS.authVsFloorForm))
    lines.push(
      "- /auth rendered per request (a stale session cookie, a query: what the fast path leaves): the cookie's signature is checked and found wrong, so neither Better Auth's API nor the database is called, and the sign-in form's constraints are worked out once; what is left is per request and mostly not ours: React Router matching the URL and building its route objects for our 40-odd routes (the floor has 3) several times per request, Conform's form state for the two fields, a page three times the floor form's bytes (header, card, links), and Express's middleware (request id, CSP nonce, compression, the same-origin check).",
    );
  if (
    missedPage("/dashboard", TARGETS.dashboardVsFloorList) ||
    missedPage("/employee", TARGETS.employeeVsFloorList)
  )
    lines.push(
      "- /dashboard and /employee: the session costs one query (no Better Auth context, ADR 031) and the page is written in one piece, but rendering is still most of the time: a request card is a heading, a badge, a form with two buttons, an edit button and three icons (about 2 KB, the floor's card 0.4 KB); /employee reads the counters, the staff list and the shown tab's list only (on All Requests six queries with the session's, two of them for the page of requests), and its table rows are a link, two badges and five cells each.",
    );
  const pgliteSlow = ["/auth", "/dashboard", "/employee"].some(
    (key) =>
      ratio(r.pglite.results[key].rps, r.pglite.anchors[key].rps) /
        ratio(r.pg.results[key].rps, r.pg.anchors[key].rps) <
      TARGETS.pgliteVsPostgres,
  );
  if (pgliteSlow)
    lines.push(
      "- PGlite below 80% of PostgreSQL: PGlite runs on a thread of its own (ADR 035), so its queries use the other core as PostgreSQL's processes do, and serves the server's ten connections (ADR 037), but on one session: the queries run one after another on one core, never side by side as in PostgreSQL's processes; each runs in WebAssembly (its file system layer calling fstat on every seek) and crosses the wire protocol twice (node-postgres and PGlite each parse it).",
    );
  lines.push(
    "- The machine was shared with other work during this run (see its load above): absolute figures move with it; each ratio's two figures ran one after the other, under much the same load.",
  );
  return `Reasons next to the targets missed in this run:\n\n${lines.join("\n")}`;
}

export const TABLE_HEADER = [
  "| what | req/s | p50 ms | p99 ms | errors | CPU ms per request | ratio to its anchor (same run) | target |",
  "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
];

export function ratio(value: number, anchor: number) {
  return anchor > 0 ? value / anchor : NaN;
}

export function pct(value: number) {
  return Number.isFinite(value) ? `${(value * 100).toFixed(0)}%` : "n/a";
}

export function verdict(value: number, target: number) {
  return Number.isFinite(value) ? (value >= target ? "yes" : "**no**") : "n/a";
}

/** The floor page measured just before the row under it. */
function cpuCell(r: WrkResult) {
  return r.cpuMsPerRequest === undefined ? "" : r.cpuMsPerRequest.toFixed(2);
}

export function anchorRow(r: WrkResult) {
  return `| ${r.label}, just before | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${cpuCell(r)} | anchor of the next row | |`;
}

export function row(r: WrkResult, anchor: WrkResult | undefined, target?: number, note = "") {
  const share = anchor ? ratio(r.rps, anchor.rps) : NaN;
  // What the same comparison gives by CPU per request: the anchor's CPU over ours.
  const byCpu =
    anchor?.cpuMsPerRequest && r.cpuMsPerRequest
      ? ` (by CPU per request: ${pct(anchor.cpuMsPerRequest / r.cpuMsPerRequest)})`
      : "";
  return `| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${cpuCell(r)} | ${anchor ? `${pct(share)} of ${anchor.label}${byCpu}` : "anchor"} | ${target === undefined ? "" : `>= ${pct(target)}: ${verdict(share, target)}`}${note ? ` ${note}` : ""} |`;
}

export function writeReport(section: string) {
  let text = fs.existsSync(REPORT)
    ? fs.readFileSync(REPORT, "utf8")
    : "# Benchmarks\n\nFigures written by `npm run bench`; each module rewrites only its own section.\n";
  const block = `${START}\n${section.trim()}\n${END}`;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  text =
    start !== -1 && end > start
      ? text.slice(0, start) + block + text.slice(end + END.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(REPORT, text);
}

/**
 * Our pages' rows, each after the floor page measured just before it (its anchor), on
 * PostgreSQL then on PGlite; /healthz against `healthzAnchor`.
 */
export function pageRows(
  pgRun: { results: Measured; anchors: Measured },
  pgliteRun: { results: Measured; anchors: Measured },
  healthzAnchor: WrkResult,
) {
  const onPg = pgRun.results;
  const onPglite = pgliteRun.results;
  const pageRows: string[] = [];
  const pair = (key: string, target: number | undefined, fixedAnchor?: WrkResult) => {
    const pgAnchor = fixedAnchor ?? pgRun.anchors[key];
    const pgliteAnchor = fixedAnchor ?? pgliteRun.anchors[key];
    if (!fixedAnchor) pageRows.push(anchorRow(pgAnchor));
    pageRows.push(row(onPg[key], pgAnchor, target));
    // PGlite against PostgreSQL through their anchors: the two ran minutes apart.
    const vsPg = ratio(
      ratio(onPglite[key].rps, pgliteAnchor.rps),
      ratio(onPg[key].rps, pgAnchor.rps),
    );
    if (!fixedAnchor) pageRows.push(anchorRow(pgliteAnchor));
    pageRows.push(
      row(
        onPglite[key],
        pgliteAnchor,
        target,
        `(PGlite/PostgreSQL ${pct(vsPg)}, >= ${pct(TARGETS.pgliteVsPostgres)}: ${verdict(vsPg, TARGETS.pgliteVsPostgres)})`,
      ),
    );
  };
  pair("/auth", TARGETS.authVsFloorForm);
  pair(AUTH_RENDERED, TARGETS.authVsFloorForm);
  pair("/dashboard", TARGETS.dashboardVsFloorList);
  pair("/dashboard.data", undefined);
  pair("/employee", TARGETS.employeeVsFloorList);
  // /healthz on each database, against nginx serving its answer as a file.
  pair("/healthz", undefined, healthzAnchor);
  return pageRows;
}
