/**
 * Lighthouse on the public pages: `npm run bench` (or `tsx scripts/bench/lighthouse.ts`).
 *
 * Starts the production build on a free port with a throwaway embedded database, runs
 * Lighthouse 12 (default mobile settings: Moto G Power emulation, simulated slow 4G, 4x CPU
 * slowdown) with Debian's Chromium against /, /book-call and one city page, and writes the
 * scores to its section of docs/benchmarks.md. Each page is measured RUNS times and the median
 * run (by performance score, then LCP) is reported, as Lighthouse's own docs advise.
 *
 * Options (environment): BENCH_BASE_URL=http://host:port measures a server that is already
 * running instead of starting one; LIGHTHOUSE_RUNS (default 5); LIGHTHOUSE_PAGES=/,/book-call.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

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

const DEFAULT_PAGES = ["/", "/book-call", "/dunwoody-handyman"];

/** The public pages' targets (ADR 008), checked and marked in the report. */
export const TARGETS = {
  performance: 100,
  performanceFloor: 98,
  accessibility: 100,
  seo: 100,
  bestPractices: 100,
  lcpMs: 1300,
  tbtMs: 50,
  jsGzipKiB: 115,
};

export type PageResult = {
  path: string;
  performance: number;
  accessibility: number;
  seo: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  speedIndexMs: number;
  /** Compressed bytes of every script the page loaded (bodies, gzip as served). */
  jsGzipBytes: number;
  /** The same scripts as transferred, HTTP headers included (Lighthouse's transferSize). */
  jsTransferBytes: number;
  scripts: number;
  documentGzipBytes: number;
  failedAudits: string[];
  runs: number[];
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

async function summarize(lhr: Lhr, pagePath: string, runs: number[]): Promise<PageResult> {
  const items = ((lhr.audits["network-requests"]?.details as { items?: NetworkItem[] })?.items ??
    []) as NetworkItem[];
  const scripts = items.filter((item) => item.resourceType === "Script");
  let jsGzipBytes = 0;
  for (const script of scripts) jsGzipBytes += await gzipBodySize(script.url);
  const documentItem = items.find((item) => item.resourceType === "Document");
  const failedAudits = Object.values(lhr.categories)
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
  return {
    path: pagePath,
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    seo: score(lhr, "seo"),
    bestPractices: score(lhr, "best-practices"),
    fcpMs: numeric(lhr, "first-contentful-paint"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    cls: numeric(lhr, "cumulative-layout-shift"),
    speedIndexMs: numeric(lhr, "speed-index"),
    jsGzipBytes,
    jsTransferBytes: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
    scripts: scripts.length,
    documentGzipBytes: documentItem?.url ? await gzipBodySize(documentItem.url) : 0,
    failedAudits: [...new Set(failedAudits)],
    runs,
  };
}

export async function measurePages(
  baseUrl: string,
  pages = DEFAULT_PAGES,
  runsPerPage = 3,
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
      const ordered = [...lhrs].sort(
        (a, b) =>
          score(a, "performance") - score(b, "performance") ||
          numeric(b, "largest-contentful-paint") - numeric(a, "largest-contentful-paint"),
      );
      const median = ordered[Math.floor(ordered.length / 2)];
      const result = await summarize(
        median,
        pagePath,
        lhrs.map((lhr) => score(lhr, "performance")),
      );
      results.push(result);
      console.log(
        `lighthouse ${pagePath}: performance ${result.performance} (runs ${result.runs.join(", ")}), ` +
          `accessibility ${result.accessibility}, SEO ${result.seo}, best practices ${result.bestPractices}, ` +
          `LCP ${Math.round(result.lcpMs)} ms, TBT ${Math.round(result.tbtMs)} ms, ` +
          `JS ${(result.jsGzipBytes / 1024).toFixed(1)} KiB gzip`,
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

export function renderSection(
  results: PageResult[],
  meta: { chromium: string; date: string; load: [number, number] },
) {
  const rows = results.map((r) => {
    const t = TARGETS;
    return (
      `| \`${r.path}\` | ${r.performance}${mark(r.performance >= t.performance)} ` +
      `(${r.runs.join(", ")}) | ${r.accessibility}${mark(r.accessibility >= t.accessibility)} ` +
      `| ${r.seo}${mark(r.seo >= t.seo)} | ${r.bestPractices}${mark(r.bestPractices >= t.bestPractices)} ` +
      `| ${(r.fcpMs / 1000).toFixed(2)} s | ${(r.lcpMs / 1000).toFixed(2)} s${mark(r.lcpMs <= t.lcpMs)} ` +
      `| ${Math.round(r.tbtMs)} ms${mark(r.tbtMs <= t.tbtMs)} | ${r.cls.toFixed(3)} ` +
      `| ${kib(r.jsGzipBytes)} KiB${mark(r.jsGzipBytes / 1024 <= t.jsGzipKiB)} (${r.scripts} files) ` +
      `| ${kib(r.documentGzipBytes)} KiB |`
    );
  });
  const notes = results
    .filter((r) => r.failedAudits.length)
    .map((r) => `- \`${r.path}\` audits not passed: ${r.failedAudits.join("; ")}`);
  return [
    START,
    "## Lighthouse: public pages",
    "",
    `Measured ${meta.date} with Lighthouse 12 and ${meta.chromium} (headless), default mobile ` +
      "settings (Moto G Power emulation, simulated slow 4G: 150 ms RTT, 1.6 Mbps, 4x CPU " +
      "slowdown), against the production build served by `npm start` on this machine. Each page " +
      "is measured five times; the table shows the median run and, in brackets, every run's " +
      "performance score. Regenerate with `npm run bench`.",
    "",
    `Machine load (1-minute load average, ${os.cpus().length} cores) was ${meta.load[0].toFixed(1)} ` +
      `when the runs began and ${meta.load[1].toFixed(1)} when they ended. Lighthouse multiplies ` +
      "the CPU time it observes by 4, so on a busy machine a single run's total blocking time " +
      "(and with it the performance score) can jump; the median run is the fair figure, and the " +
      "spread of the runs shows how busy the machine was.",
    "",
    "Targets (ADR 008): performance 100 (never under 98), accessibility, SEO and best practices " +
      "100, LCP <= 1.3 s, total blocking time <= 50 ms, at most 115 KiB of gzipped JavaScript. " +
      "A ✗ marks a missed target.",
    "",
    "| page | performance | accessibility | SEO | best practices | FCP | LCP | TBT | CLS | JavaScript (gzip) | HTML (gzip) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "JavaScript is the sum of the gzip-encoded bodies, as the server sends them, of every script " +
      "the page loads before Lighthouse ends its trace: React, React Router and the page's own " +
      "modules, i.e. everything hydration needs (1 KiB = 1,024 bytes). The HTML column is the " +
      "prerendered document, which also carries the page's content as loader data. How the pages " +
      "stay inside the budget: docs/decisions/008-public-pages-javascript-budget.md.",
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
  const external = process.env.BENCH_BASE_URL;
  const server = external ? undefined : await startServer();
  try {
    const baseUrl = external ?? server!.baseUrl;
    const loadBefore = os.loadavg()[0];
    const results = await measurePages(baseUrl, pages, runs);
    const version = await chromiumVersion();
    writeSection(
      renderSection(results, {
        chromium: version,
        date: new Date().toISOString().slice(0, 10),
        load: [loadBefore, os.loadavg()[0]],
      }),
    );
    console.log(`lighthouse: results written to ${path.relative(ROOT, REPORT)}`);
    return results;
  } finally {
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
