/**
 * Lighthouse on the public pages: `npm run bench` (or `npm run bench -- lighthouse`).
 *
 * Starts the production build on a free port with a throwaway embedded database and runs
 * Lighthouse 12 (default mobile settings: Moto G Power emulation, simulated slow 4G, 4x CPU
 * slowdown) with Debian's Chromium against every public page (the home page, /book-call and the
 * 11 city pages), RUNS times each, on a loaded machine: beside the runs, a busy-looping process
 * (the CPU hog) competes with Chromium and the server for the whole time. Every run counts: the report shows each run's performance score and the worst
 * figure of the runs for everything else, in its section of docs/benchmarks.md.
 *
 * Options (environment): BENCH_BASE_URL=http://host:port measures a server that is already
 * running instead of starting one; LIGHTHOUSE_RUNS (default 5); LIGHTHOUSE_PAGES=/,/book-call;
 * LIGHTHOUSE_HOGS (busy processes beside the runs, default 1; 0 for none).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CITY_PATHS } from "../../app/content/city-paths";
import { busyShare, cpuTimes, startHogs } from "./support/cpu-load";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REPORT = path.join(ROOT, "docs", "benchmarks.md");
const START = "<!-- lighthouse:start -->";
const END = "<!-- lighthouse:end -->";

export const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * The public pages (ADR 030). The not-found page is one too, but Lighthouse refuses to audit a
 * document answered 404; the end-to-end tests check its script.
 */
const DEFAULT_PAGES = ["/", "/book-call", ...CITY_PATHS.map((path) => `/${path}`)];

/** The public pages' targets (ADR 030), checked in every run and marked in the report. */
export const TARGETS = {
  performance: 100,
  accessibility: 100,
  seo: 100,
  bestPractices: 100,
  lcpMs: 1000,
  tbtMs: 50,
  /** JavaScript over the wire: bodies and HTTP headers, as Lighthouse counts transfers. */
  jsTransferKiB: 15,
};

/** One run's figures. */
export type RunResult = {
  performance: number;
  accessibility: number;
  seo: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Every script the page loaded, as transferred (HTTP headers included). */
  jsTransferBytes: number;
  scripts: number;
  failedAudits: string[];
};

/** A page's runs, and the worst figure of them for each measure. */
export type PageResult = {
  path: string;
  runs: RunResult[];
  worst: Omit<RunResult, "failedAudits">;
  failedAudits: string[];
  /** The gzip-encoded bodies of its script files, as the server sends them. */
  jsGzipBytes: number;
  /** Its inline scripts (the enhancement script, ADR 030), gzipped on their own. */
  inlineJsGzipBytes: number;
  documentGzipBytes: number;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server at ${url} did not become healthy`);
}

/** Starts `npm start` (which builds first when the sources changed) on a free port. */
async function startServer(): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-lighthouse-"));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
  };
  // A benchmark of the embedded default; the pages are static either way.
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForHealth(baseUrl, child);
  return {
    baseUrl,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type NetworkItem = {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
  mimeType?: string;
};

/** The bytes of a body exactly as the server sends it to a browser that accepts gzip. */
async function gzipBodySize(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
        if (response.headers["content-encoding"] !== "gzip") {
          response.resume();
          reject(new Error(`${url} was not sent gzipped`));
          return;
        }
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => resolve(bytes));
      })
      .on("error", reject);
  });
}

/**
 * One Lighthouse run. A trace Lighthouse itself failed to record (NO_NAVSTART and the like, seen
 * on a busy machine) is run again, up to twice; a page that fails to load is not.
 */
async function measureOnce(url: string, port: number, attempt = 1): Promise<LighthouseResult> {
  const runner = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
  });
  if (!runner) throw new Error(`Lighthouse returned nothing for ${url}`);
  const lhr = runner.lhr;
  if (lhr.runtimeError) {
    const traceFailed = /^NO_(NAVSTART|FCP|TRACING_STARTED|LCP)|TRACE/.test(lhr.runtimeError.code);
    if (traceFailed && attempt < 3) {
      console.warn(`lighthouse ${url}: ${lhr.runtimeError.code}, running again`);
      return measureOnce(url, port, attempt + 1);
    }
    throw new Error(`${url}: ${lhr.runtimeError.message}`);
  }
  return lhr;
}

type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];
type Lhr = LighthouseResult;

function score(lhr: Lhr, category: string) {
  return Math.round((lhr.categories[category]?.score ?? 0) * 100);
}

function numeric(lhr: Lhr, audit: string) {
  return lhr.audits[audit]?.numericValue ?? Number.NaN;
}

function failedAudits(lhr: Lhr) {
  const failed = Object.values(lhr.categories)
    .filter((category) => category.id !== "performance")
    .flatMap((category) => category.auditRefs)
    .map((ref) => lhr.audits[ref.id])
    .filter(
      (audit) =>
        audit &&
        audit.score !== null &&
        audit.score < 1 &&
        audit.scoreDisplayMode !== "informative" &&
        audit.scoreDisplayMode !== "manual" &&
        audit.scoreDisplayMode !== "notApplicable",
    )
    .map((audit) => `${audit.id}: ${audit.title}`);
  return [...new Set(failed)];
}

function networkItems(lhr: Lhr) {
  return ((lhr.audits["network-requests"]?.details as { items?: NetworkItem[] })?.items ??
    []) as NetworkItem[];
}

function runResult(lhr: Lhr): RunResult {
  const scripts = networkItems(lhr).filter((item) => item.resourceType === "Script");
  return {
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    seo: score(lhr, "seo"),
    bestPractices: score(lhr, "best-practices"),
    fcpMs: numeric(lhr, "first-contentful-paint"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    cls: numeric(lhr, "cumulative-layout-shift"),
    jsTransferBytes: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    scripts: scripts.length,
    failedAudits: failedAudits(lhr),
  };
}

/** The executable inline scripts of a page (JSON-LD is data), each gzipped on its own. */
async function inlineScriptGzipBytes(url: string) {
  const html = await (await fetch(url)).text();
  let bytes = 0;
  for (const [, attributes, body] of html.matchAll(
    /<script(?![^>]*\bsrc=)([^>]*)>([\s\S]*?)<\/script>/gi,
  )) {
    if (/application\/ld\+json/i.test(attributes) || !body.trim()) continue;
    bytes += zlib.gzipSync(body, { level: 9 }).length;
  }
  return bytes;
}

async function summarize(pagePath: string, lhrs: Lhr[]): Promise<PageResult> {
  const runs = lhrs.map(runResult);
  const min = (pick: (run: RunResult) => number) => Math.min(...runs.map(pick));
  const max = (pick: (run: RunResult) => number) => Math.max(...runs.map(pick));
  const last = lhrs[lhrs.length - 1];
  const items = networkItems(last);
  let jsGzipBytes = 0;
  for (const script of items.filter((item) => item.resourceType === "Script")) {
    jsGzipBytes += await gzipBodySize(script.url);
  }
  const documentItem = items.find((item) => item.resourceType === "Document");
  return {
    path: pagePath,
    runs,
    worst: {
      performance: min((r) => r.performance),
      accessibility: min((r) => r.accessibility),
      seo: min((r) => r.seo),
      bestPractices: min((r) => r.bestPractices),
      fcpMs: max((r) => r.fcpMs),
      lcpMs: max((r) => r.lcpMs),
      tbtMs: max((r) => r.tbtMs),
      cls: max((r) => r.cls),
      jsTransferBytes: max((r) => r.jsTransferBytes),
      scripts: max((r) => r.scripts),
    },
    failedAudits: [...new Set(runs.flatMap((r) => r.failedAudits))],
    jsGzipBytes,
    inlineJsGzipBytes: documentItem?.url ? await inlineScriptGzipBytes(documentItem.url) : 0,
    documentGzipBytes: documentItem?.url ? await gzipBodySize(documentItem.url) : 0,
  };
}

export async function measurePages(
  baseUrl: string,
  pages = DEFAULT_PAGES,
  runsPerPage = 5,
): Promise<PageResult[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: CHROME_FLAGS,
  });
  try {
    const results: PageResult[] = [];
    for (const pagePath of pages) {
      const url = new URL(pagePath, baseUrl).toString();
      const lhrs: Lhr[] = [];
      for (let i = 0; i < runsPerPage; i++) lhrs.push(await measureOnce(url, chrome.port));
      const result = await summarize(pagePath, lhrs);
      results.push(result);
      const w = result.worst;
      console.log(
        `lighthouse ${pagePath}: performance ${result.runs.map((r) => r.performance).join(", ")}; ` +
          `worst: accessibility ${w.accessibility}, SEO ${w.seo}, best practices ${w.bestPractices}, ` +
          `LCP ${Math.round(w.lcpMs)} ms, TBT ${Math.round(w.tbtMs)} ms, ` +
          `JS ${(w.jsTransferBytes / 1024).toFixed(1)} KiB over the wire (${w.scripts} files)`,
      );
      for (const failed of result.failedAudits) console.log(`  not passed: ${failed}`);
    }
    return results;
  } finally {
    await chrome.kill();
  }
}

const mark = (ok: boolean) => (ok ? "" : " ✗");
const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export type Conditions = {
  chromium: string;
  date: string;
  hogs: number;
  /** Share of all cores busy over the whole measurement. */
  busy: number;
  load: [number, number];
  runs: number;
};

export function renderSection(results: PageResult[], meta: Conditions) {
  const t = TARGETS;
  const rows = results.map((r) => {
    const w = r.worst;
    const scores = r.runs.map(
      (run) => `${run.performance}${mark(run.performance >= t.performance)}`,
    );
    return (
      `| \`${r.path}\` | ${scores.join(", ")} ` +
      `| ${w.accessibility}${mark(w.accessibility >= t.accessibility)} ` +
      `| ${w.seo}${mark(w.seo >= t.seo)} | ${w.bestPractices}${mark(w.bestPractices >= t.bestPractices)} ` +
      `| ${seconds(w.fcpMs)} | ${seconds(w.lcpMs)}${mark(w.lcpMs <= t.lcpMs)} ` +
      `| ${Math.round(w.tbtMs)} ms${mark(w.tbtMs <= t.tbtMs)} | ${w.cls.toFixed(3)} ` +
      `| ${kib(r.inlineJsGzipBytes)} KiB inline + ${kib(w.jsTransferBytes)} KiB in ${w.scripts} files` +
      `${mark((r.inlineJsGzipBytes + w.jsTransferBytes) / 1024 <= t.jsTransferKiB)} ` +
      `| ${kib(r.documentGzipBytes)} KiB |`
    );
  });
  const all = results.flatMap((r) => r.runs);
  const worst = {
    performance: Math.min(...all.map((r) => r.performance)),
    lcpMs: Math.max(...all.map((r) => r.lcpMs)),
    tbtMs: Math.max(...all.map((r) => r.tbtMs)),
    js: Math.max(...results.map((r) => r.inlineJsGzipBytes + r.worst.jsTransferBytes)),
  };
  const notes = results
    .filter((r) => r.failedAudits.length)
    .map((r) => `- \`${r.path}\` audits not passed: ${r.failedAudits.join("; ")}`);
  return [
    START,
    "## Lighthouse: public pages",
    "",
    `Measured ${meta.date} with Lighthouse 12 and ${meta.chromium} (headless), default mobile ` +
      "settings (Moto G Power emulation, simulated slow 4G: 150 ms RTT, 1.6 Mbps, 4x CPU " +
      "slowdown), against the production build served by `npm start` on this machine: every " +
      `public page, ${meta.runs} runs each (${all.length} runs). Regenerate with \`npm run bench -- lighthouse\`. ` +
      "The not-found page is not measured: Lighthouse refuses a document answered 404.",
    "",
    `**On a loaded machine.** Beside the runs, ${meta.hogs} busy-looping process${meta.hogs === 1 ? "" : "es"} ` +
      `(the machine has ${os.cpus().length} cores) competed with Chromium and the server the whole time: ` +
      `${(meta.busy * 100).toFixed(0)}% of all cores were busy over the measurement, and the ` +
      `1-minute load average was ${meta.load[0].toFixed(1)} when the runs began and ` +
      `${meta.load[1].toFixed(1)} when they ended. Lighthouse multiplies the main-thread time it ` +
      "observes by 4, so every long task of parsing, layout or script on a busy machine counts " +
      "four times over.",
    "",
    "Targets (ADR 030), in every run: performance 100, accessibility, SEO and best practices " +
      `100, LCP <= ${seconds(t.lcpMs)}, total blocking time <= ${t.tbtMs} ms, at most ` +
      `${t.jsTransferKiB} KiB of JavaScript over the wire. The performance column lists every run; ` +
      "the other columns show the worst of the runs. A ✗ marks a missed target.",
    "",
    `Worst of all ${all.length} runs: performance ${worst.performance}, LCP ${seconds(worst.lcpMs)}, ` +
      `TBT ${Math.round(worst.tbtMs)} ms, ${kib(worst.js)} KiB of JavaScript over the wire.`,
    "",
    "| page | performance (each run) | accessibility | SEO | best practices | FCP | LCP | TBT | CLS | JavaScript over the wire | HTML (gzip) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "JavaScript over the wire: the page's inline scripts, gzipped on their own (they travel in " +
      "the gzipped HTML), plus what Lighthouse counts as transferred for script files, HTTP " +
      "headers included (1 KiB = 1,024 bytes). The public pages run no React in the browser: " +
      "each runs one small enhancement script, inline (the menu and disclosures, the lead forms, " +
      "the booking picker), and loads no script file. The HTML column is the document as sent, " +
      "gzipped. How: docs/decisions/030-public-pages-without-hydration.md.",
    ...(notes.length ? ["", ...notes] : []),
    END,
  ].join("\n");
}

export function writeSection(section: string, file = REPORT) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const next =
    start !== -1 && end > start
      ? current.slice(0, start) + section + current.slice(end + END.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}

export async function run() {
  const pages = process.env.LIGHTHOUSE_PAGES?.split(",").filter(Boolean) ?? DEFAULT_PAGES;
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
  const hogs = Number(process.env.LIGHTHOUSE_HOGS ?? 1);
  const external = process.env.BENCH_BASE_URL;
  const server = external ? undefined : await startServer();
  const stopHogs = startHogs(hogs);
  try {
    const baseUrl = external ?? server!.baseUrl;
    // Let the hog take hold before the first run.
    await new Promise((r) => setTimeout(r, 2_000));
    const loadBefore = os.loadavg()[0];
    const before = cpuTimes();
    const results = await measurePages(baseUrl, pages, runs);
    const busy = busyShare(before, cpuTimes());
    const loadAfter = os.loadavg()[0];
    await stopHogs();
    const version = await chromiumVersion();
    writeSection(
      renderSection(results, {
        chromium: version,
        date: new Date().toISOString().slice(0, 10),
        hogs,
        busy,
        load: [loadBefore, loadAfter],
        runs,
      }),
    );
    console.log(`lighthouse: results written to ${path.relative(ROOT, REPORT)}`);
    return results;
  } finally {
    await stopHogs();
    await server?.stop();
  }
}

async function chromiumVersion(): Promise<string> {
  const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return new Promise((resolve) => {
    const child = spawn(chromePath, ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("close", () => resolve(out.trim() || "Chromium"));
    child.on("error", () => resolve("Chromium"));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
