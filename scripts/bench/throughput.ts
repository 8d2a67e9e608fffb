/**
 * Throughput: `npm run bench` (or `npm run bench -- throughput`).
 *
 * Measures the servers with wrk (Debian package `wrk`), never with a load generator that tops
 * out before the server does, and writes every figure as a ratio to its anchor measured in the
 * same run:
 * - static bytes against nginx serving the same bytes with the same headers: the home page
 *   (rendered at start), the stylesheet (the build's gzip copy), robots.txt, sitemap.xml and
 *   /healthz's answer (ours pings the database); each is measured on nginx with one wrk thread
 *   and with two, and wrk's own CPU is sampled, so the report says whether the load generator
 *   was the limit, then on ours right after. BENCH_THROUGHPUT=static runs only this part (it
 *   prints the table and leaves docs/benchmarks.md alone);
 * - signed-in pages against the framework floor: a minimal React Router 7 app on the same
 *   Express adapter and package versions (scripts/bench/floor/), generated into a temporary
 *   directory and built with this repository's node_modules in the same run.
 * The product runs twice, on PostgreSQL (a throwaway cluster) and on PGlite (embedded), with the
 * same seeded data: a member with 30 requests, an employee, and other customers' requests. The
 * embedded server's resident memory and idle CPU are recorded after start and after the load.
 *
 * BENCH_DURATION (seconds per measurement, default 10) shortens trial runs. Results go to
 * docs/benchmarks.md between <!-- throughput:start --> and <!-- throughput:end -->.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import {
  createDatabase,
  freePort,
  startPgCluster,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../../tests/support/processes";
import { startNginx, waitForPort, type NginxLocation } from "./support/nginx";
import { cpuSeconds, processTree, residentMb } from "./support/proc";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REPORT = path.join(ROOT, "docs", "benchmarks.md");
const START = "<!-- throughput:start -->";
const END = "<!-- throughput:end -->";
const WRK = process.env.WRK ?? "/usr/bin/wrk";
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const STATIC_CONNECTIONS = 50;
const PAGE_CONNECTIONS = 10;
const PASSWORD = "Bench-Pass-2026!";
const MEMBER_REQUESTS = 30;
/** How long the embedded server's idle CPU is measured. */
const IDLE_SECONDS = Math.max(10, Math.min(30, DURATION * 2));

export const TARGETS = {
  staticVsNginx: 0.5,
  authVsFloorForm: 0.8,
  dashboardVsFloorList: 0.5,
  employeeVsFloorList: 0.4,
  pgliteVsPostgres: 0.8,
  residentAfterStartMb: 250,
  residentAfterLoadMb: 350,
  idleCpuShare: 0.005,
};

/* ---------------- wrk ---------------- */

export class WrkMissingError extends Error {}

export function requireWrk() {
  if (!fs.existsSync(WRK)) {
    throw new WrkMissingError(
      `wrk is not installed (looked for ${WRK}). The throughput bench measures with wrk only, ` +
        "because a Node load generator tops out below the servers it measures on this machine. " +
        "Install it with `apt-get install wrk` (Debian package), or point WRK at the binary.",
    );
  }
}

export type WrkResult = {
  label: string;
  url: string;
  threads: number;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx/3xx, plus socket errors. */
  errors: number;
  /** wrk's own CPU time over the run, as a share of one core. */
  wrkCpu: number;
  /**
   * CPU time the server used per answered request (its process, and for PostgreSQL the
   * database's processes too), in ms: what a request costs, whatever else the machine runs.
   */
  cpuMsPerRequest?: number;
};

/** Milliseconds from wrk's "61.57ms" / "812.00us" / "1.20s". */
function wrkMs(text: string) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === "us"
    ? value / 1000
    : match[2] === "ms"
      ? value
      : match[2] === "s"
        ? value * 1000
        : value * 60_000;
}

export function parseWrk(output: string) {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN);
  const p50 = wrkMs(/^\s+50%\s+(\S+)/m.exec(output)?.[1] ?? "");
  const p99 = wrkMs(/^\s+99%\s+(\S+)/m.exec(output)?.[1] ?? "");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return { rps, requests, p50, p99, errors: non2xx + socketErrors };
}

/** CPU seconds (user + system) a process has used so far, from /proc; null once it is gone. */
function treeCpu(pids: number[]) {
  return new Map(pids.map((pid) => [pid, cpuSeconds(pid) ?? 0]));
}

export async function wrk(
  label: string,
  url: string,
  options: {
    threads?: number;
    connections: number;
    headers?: Record<string, string>;
    /** The server's root processes, to count the CPU its requests cost. */
    serverPids?: number[];
  },
): Promise<WrkResult> {
  const threads = options.threads ?? 1;
  const args = [
    `-t${threads}`,
    `-c${options.connections}`,
    `-d${DURATION}s`,
    "--latency",
    "--timeout",
    "10s",
  ];
  for (const [name, value] of Object.entries(options.headers ?? {}))
    args.push("-H", `${name}: ${value}`);
  args.push(url);
  const serverCpuBefore = options.serverPids ? treeCpu(processTree(options.serverPids)) : undefined;
  const child = spawn(WRK, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const started = Date.now();
  let lastCpu = 0;
  let lastAt = started;
  const sampler = setInterval(() => {
    const cpu = cpuSeconds(child.pid!);
    if (cpu !== null) {
      lastCpu = cpu;
      lastAt = Date.now();
    }
  }, 200);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`wrk ${args.join(" ")} failed (${code}):\n${output}`);
  const parsed = parseWrk(output);
  let cpuMsPerRequest: number | undefined;
  if (options.serverPids && serverCpuBefore) {
    let used = 0;
    for (const [pid, after] of treeCpu(processTree(options.serverPids)))
      used += after - (serverCpuBefore.get(pid) ?? 0);
    cpuMsPerRequest = parsed.requests > 0 ? (used * 1000) / parsed.requests : undefined;
  }
  return {
    label,
    url,
    threads,
    connections: options.connections,
    seconds: DURATION,
    ...parsed,
    wrkCpu: lastCpu / Math.max(0.001, (lastAt - started) / 1000),
    cpuMsPerRequest,
  };
}

/* ---------------- the machine ---------------- */

/** Share of all cores busy over `ms`, from /proc/stat, and the load averages. */
async function machineLoad(ms = 2000) {
  const read = () => {
    const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].split(/\s+/);
    const numbers = fields.filter(Boolean).map(Number);
    const idle = numbers[3] + (numbers[4] ?? 0);
    const total = numbers.slice(0, 8).reduce((sum, n) => sum + n, 0);
    return { idle, total };
  };
  const a = read();
  await new Promise((r) => setTimeout(r, ms));
  const b = read();
  const busy = 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
  return { busy, loadavg: os.loadavg() };
}

function describeLoad(load: Awaited<ReturnType<typeof machineLoad>>) {
  return `${(load.busy * 100).toFixed(0)}% of all cores busy over 2 s, load average ${load.loadavg
    .map((l) => l.toFixed(2))
    .join(" / ")} (1/5/15 min)`;
}

/* ---------------- the framework floor ---------------- */

const FLOOR_PACKAGES = [
  "react",
  "react-dom",
  "react-router",
  "@react-router/node",
  "@react-router/express",
  "express",
  "isbot",
];

/** Copies scripts/bench/floor into a temporary directory and builds it with our node_modules. */
export function buildFloor() {
  const dir = tempDir("handyman-floor-");
  fs.cpSync(path.join(import.meta.dirname, "floor"), dir, { recursive: true });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const ours = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const versions = { ...ours.dependencies, ...ours.devDependencies } as Record<string, string>;
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  // The same declared versions as ours (React Router looks for its server runtime here).
  pkg.dependencies = Object.fromEntries(FLOOR_PACKAGES.map((name) => [name, versions[name]]));
  pkg.devDependencies = {
    "@react-router/dev": versions["@react-router/dev"],
    vite: versions.vite,
  };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  execFileSync(
    process.execPath,
    [path.join(ROOT, "node_modules/@react-router/dev/bin.js"), "build"],
    {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
  const installed = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8"))
      .version as string;
  return {
    dir,
    versions: ["react-router", "@react-router/express", "express", "react-dom"]
      .map((name) => `${name} ${installed(name)}`)
      .join(", "),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export async function startFloor(dir: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["server.mjs"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  await waitForPort(port, 30_000);
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => {
      child.kill("SIGTERM");
    },
  };
}

/* ---------------- the product ---------------- */

function ensureBuild() {
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
    execFileSync("node", ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  }
}

export const MEMBER = "bench-member@example.com";
export const EMPLOYEE = "bench-staff@example.com";

/** The same data in either database: a member with 30 requests, an employee, 10 neighbours. */
export async function seed(options: { databaseUrl: string } | { dataDir: string }) {
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
    const db = handle.db;
    await createUser(db, {
      email: EMPLOYEE,
      password: PASSWORD,
      firstName: "Dana",
      lastName: "Bench",
      isEmployee: true,
    });
    const member = await createUser(db, {
      email: MEMBER,
      password: PASSWORD,
      firstName: "Maria",
      lastName: "Bench",
      phone: "(404) 555-0181",
    });
    const home = await createHome(db, member.id, { propertyNotes: "Gate code 2468." });
    const statuses = ["new", "reviewed", "scheduled", "complete"] as const;
    const day = 86_400_000;
    for (let i = 0; i < MEMBER_REQUESTS; i++) {
      await createServiceRequest(db, home, {
        title: `Request ${i + 1}: the hall closet door sticks`,
        description: "The hall closet door sticks in humid weather and needs planing.",
        priority: i % 2 === 0 ? "next" : "later",
        status: statuses[i % 4],
        position: i,
        createdAt: new Date(Date.now() - (MEMBER_REQUESTS - i) * day),
      });
    }
    for (let c = 0; c < 10; c++) {
      const neighbour = await createUser(db, {
        email: `bench-neighbour-${c}@example.com`,
        password: PASSWORD,
        firstName: "Neighbour",
        lastName: `Bench ${c}`,
      });
      const neighbourHome = await createHome(db, neighbour.id);
      for (let i = 0; i < 10; i++) {
        await createServiceRequest(db, neighbourHome, {
          title: `Neighbour ${c} request ${i + 1}`,
          description: "A loose handrail on the back steps.",
          status: statuses[(c + i) % 4],
          position: i,
        });
      }
    }
  } finally {
    await handle.close();
  }
}

export async function signIn(origin: string, email: string, ip: string) {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, "x-forwarded-for": ip },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Fails the bench when a page answers anything but 200 (a redirect would flatter wrk's count). */
async function expectPage(url: string, headers: Record<string, string>, mustContain?: string) {
  const response = await fetch(url, { headers, redirect: "manual" });
  const body = await response.text();
  if (response.status !== 200 || (mustContain && !body.includes(mustContain)))
    throw new Error(`${url}: ${response.status}, expected 200 with "${mustContain ?? ""}"`);
}

type Measured = Record<string, WrkResult>;

/**
 * /auth as React Router renders it per request: a browser that still carries a session cookie
 * that is no longer a session (signed out elsewhere, expired). A visitor without Better Auth's
 * cookies gets the page rendered at start, from the fast path (ADR 034).
 */
const AUTH_RENDERED = "/auth, rendered (a stale session cookie)";

/** Which floor page anchors each of our pages: the one measured just before it. */
const ANCHOR_OF: Record<string, "form" | "list" | undefined> = {
  "/auth": "form",
  [AUTH_RENDERED]: "form",
  "/dashboard": "list",
  "/dashboard.data": "list",
  "/employee": "list",
};

/**
 * Our pages, each measured right after its floor page (the anchor): on a shared machine the
 * load moves within minutes, and a ratio is only fair between two figures taken under the same
 * load. Returns our figures and, by the same keys, the anchors measured just before them.
 */
async function measureProduct(
  server: ServerProcess,
  kind: string,
  floorPage: (page: "form" | "list") => Promise<WrkResult>,
  databasePid?: number,
): Promise<{ results: Measured; anchors: Measured }> {
  const serverPids = [server.child.pid!, ...(databasePid ? [databasePid] : [])];
  const origin = server.origin.replace("localhost", "127.0.0.1");
  const member = await signIn(server.origin, MEMBER, "10.0.0.1");
  const employee = await signIn(server.origin, EMPLOYEE, "10.0.0.2");
  const html = { accept: "text/html" };
  const pages: [string, string, Record<string, string>, string?][] = [
    ["/auth", "/auth", html, "Sign in"],
    [AUTH_RENDERED, "/auth", { ...html, cookie: "better-auth.session_token=stale" }, "Sign in"],
    ["/dashboard", "/dashboard", { ...html, cookie: member }, "Request 30"],
    ["/dashboard.data", "/dashboard.data", { cookie: member }, "Request 30"],
    ["/employee", "/employee", { ...html, cookie: employee }, "Neighbour"],
    ["/healthz", "/healthz", {}, "ok"],
  ];
  const results: Measured = {};
  const anchors: Measured = {};
  for (const [key, pathName, headers, mustContain] of pages) {
    await expectPage(`${origin}${pathName}`, headers, mustContain);
    const anchor = ANCHOR_OF[key];
    if (anchor) anchors[key] = await floorPage(anchor);
    console.log(`throughput bench: ${kind} ${pathName}`);
    const label = key === AUTH_RENDERED ? `GET ${key}` : `GET ${pathName}`;
    results[key] = await wrk(`${kind}: ${label}`, `${origin}${pathName}`, {
      connections: PAGE_CONNECTIONS,
      headers,
      serverPids,
    });
  }
  return { results, anchors };
}

/** Resident memory and CPU share of a process left alone: 10 s to settle, then `seconds`. */
async function atRest(pid: number, seconds: number) {
  await new Promise((r) => setTimeout(r, 10_000));
  const before = cpuSeconds(pid) ?? 0;
  const started = Date.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const used = (cpuSeconds(pid) ?? 0) - before;
  return { residentMb: residentMb(pid), cpuShare: used / ((Date.now() - started) / 1000) };
}

/* ---------------- static bytes ---------------- */

/** One answer our server sends the same to everyone, and nginx serves from a file. */
type StaticTarget = {
  /** Also the path, on both servers. */
  path: string;
  label: string;
  /** Request headers, the same for both (wrk asks for no compression unless told). */
  request?: Record<string, string>;
  /** The file under nginx's root it is written to. */
  file: string;
  /** nginx sends the build's `.gz` beside it to a client that takes gzip (gzip_static). */
  gzipStatic?: boolean;
};

export type StaticMeasurement = {
  target: StaticTarget;
  /** nginx with one wrk thread and with two; the anchor is the higher. */
  one?: WrkResult;
  two?: WrkResult;
  anchor?: WrkResult;
  ours: WrkResult;
  /** A second wrk thread gave nginx over 10% more, or one thread used over 90% of a core. */
  generatorBound?: boolean;
};

/** Our headers nginx is told to send too (it makes its own Content-*, ETag, Date, Vary). */
const COPIED_HEADERS = [
  "cache-control",
  "content-security-policy",
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  "cross-origin-opener-policy",
  "permissions-policy",
];

type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

/** One GET, its body as sent (not decoded). */
function rawGet(origin: string, pathname: string, headers: Record<string, string> = {}) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const request = http.get(`${origin}${pathname}`, { headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    request.on("error", reject);
  });
}

function staticTargets(): StaticTarget[] {
  const assets = path.join(ROOT, "build/client/assets");
  // The stylesheet every page loads (a hashed name, the build's zopfli copy beside it).
  const stylesheet = fs.readdirSync(assets).find((f) => f.endsWith(".css"));
  if (!stylesheet || !fs.existsSync(path.join(assets, `${stylesheet}.gz`)))
    throw new Error("No stylesheet with its .gz copy in build/client/assets");
  return [
    { path: "/", label: "GET / (rendered at start)", file: "index.html" },
    {
      path: `/assets/${stylesheet}`,
      label: `GET /assets/${stylesheet} (gzip)`,
      request: { "accept-encoding": "gzip" },
      file: `assets/${stylesheet}`,
      gzipStatic: true,
    },
    { path: "/robots.txt", label: "GET /robots.txt", file: "robots.txt" },
    { path: "/sitemap.xml", label: "GET /sitemap.xml", file: "sitemap.xml" },
    { path: "/healthz", label: "GET /healthz (ours pings the database)", file: "healthz.json" },
  ];
}

/**
 * Static bytes: for each target, nginx serving what our server answered (the same body, the
 * same headers), measured with one wrk thread and with two, then our server right after, so the
 * two figures of a ratio run under the same machine load. Fails when nginx's answer is not ours
 * byte for byte.
 */
export async function measureStatic(
  origin: string,
  serverPids: number[],
): Promise<{ nginxVersion?: string; results: StaticMeasurement[] }> {
  const root = tempDir("handyman-bench-static-");
  try {
    const targets = staticTargets();
    const locations: NginxLocation[] = [];
    const ours = new Map<string, RawAnswer>();
    for (const target of targets) {
      const answer = await rawGet(origin, target.path, target.request);
      if (answer.status !== 200) throw new Error(`ours ${target.path}: ${answer.status}`);
      ours.set(target.path, answer);
      const file = path.join(root, target.file);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (target.gzipStatic) {
        const built = path.join(ROOT, "build/client", target.file);
        fs.copyFileSync(built, file);
        fs.copyFileSync(`${built}.gz`, `${file}.gz`);
      } else {
        fs.writeFileSync(file, answer.body);
      }
      const headers = Object.fromEntries(
        COPIED_HEADERS.filter((name) => answer.headers[name] !== undefined).map((name) => [
          name,
          String(answer.headers[name]),
        ]),
      );
      // Vary where ours sends it on an answer that gzip_static does not make.
      if (answer.headers.vary && !target.gzipStatic) headers.vary = String(answer.headers.vary);
      locations.push({
        path: target.path,
        file: target.path === `/${target.file}` ? undefined : target.file,
        headers,
        gzipStatic: target.gzipStatic,
      });
    }
    const nginx = await startNginx(root, locations);
    try {
      if (nginx) {
        for (const target of targets) {
          const theirs = await rawGet(nginx.origin, target.path, target.request);
          const mine = ours.get(target.path)!;
          if (
            theirs.status !== 200 ||
            !theirs.body.equals(mine.body) ||
            theirs.headers["content-encoding"] !== mine.headers["content-encoding"]
          ) {
            throw new Error(`nginx does not serve our bytes for ${target.path}: ${theirs.status}`);
          }
        }
      }
      const results: StaticMeasurement[] = [];
      for (const target of targets) {
        let one: WrkResult | undefined;
        let two: WrkResult | undefined;
        if (nginx) {
          console.log(`throughput bench: nginx ${target.path}`);
          const url = `${nginx.origin}${target.path}`;
          const options = {
            connections: STATIC_CONNECTIONS,
            headers: target.request,
            serverPids: [nginx.pid],
          };
          one = await wrk(`nginx: ${target.label} (1 wrk thread)`, url, options);
          two = await wrk(`nginx: ${target.label} (2 wrk threads)`, url, {
            ...options,
            threads: 2,
          });
        }
        console.log(`throughput bench: ours ${target.path}`);
        const measured = await wrk(`ours: ${target.label}`, `${origin}${target.path}`, {
          connections: STATIC_CONNECTIONS,
          headers: target.request,
          serverPids,
        });
        results.push({
          target,
          one,
          two,
          anchor: one && two ? (two.rps > one.rps ? two : one) : undefined,
          ours: measured,
          generatorBound: one && two ? two.rps > one.rps * 1.1 || one.wrkCpu > 0.9 : undefined,
        });
      }
      return { nginxVersion: nginx?.version, results };
    } finally {
      nginx?.stop();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The static bytes' rows, and one line per answer on whether wrk was the limit. */
function staticReport(measured: { results: StaticMeasurement[] }) {
  const rows: string[] = [];
  const checks: string[] = [];
  for (const { target, one, two, anchor, ours, generatorBound } of measured.results) {
    for (const r of [one, two]) {
      if (!r) continue;
      rows.push(
        row(
          r,
          r === anchor ? undefined : anchor,
          undefined,
          `(wrk CPU ${pct(r.wrkCpu)} of a core)`,
        ),
      );
    }
    // wrk near a full core on ours too: our figure may be wrk's, and ours faster still.
    const oursNote = `(wrk CPU ${pct(ours.wrkCpu)} of a core${ours.wrkCpu > 0.9 ? ": wrk may have been the limit for ours too" : ""})`;
    rows.push(row(ours, anchor, TARGETS.staticVsNginx, oursNote));
    if (one && two) {
      checks.push(
        `  - ${target.path}: nginx with one thread ${one.rps.toFixed(0)} req/s (wrk at ${pct(one.wrkCpu)} of a core), with two ${two.rps.toFixed(0)} req/s: ${
          generatorBound
            ? "**wrk may have been the limit** (a second thread gave more, or one thread used over 90% of a core; on two cores a second wrk thread also takes CPU from nginx): the anchor is the higher figure, and nginx's true capacity may be higher still."
            : "one thread was not the limit (two threads within 10%, wrk under 90% of a core)."
        }`,
      );
    }
  }
  return { rows, checks };
}

/** BENCH_THROUGHPUT=static: the static bytes alone, printed (docs/benchmarks.md left alone). */
async function runStatic() {
  const cluster = await startPgCluster();
  const database = await createDatabase(cluster.url);
  const dataDir = tempDir("handyman-bench-data-");
  let server: ServerProcess | undefined;
  try {
    const loadBefore = await machineLoad();
    server = await startServer({
      AUTH_SECRET: TEST_AUTH_SECRET,
      LOG_LEVEL: "warn",
      SEED_DEMO: "false",
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
    });
    const postmaster = Number(
      fs.readFileSync(path.join(cluster.dir, "data", "postmaster.pid"), "utf8").split("\n")[0],
    );
    const measured = await measureStatic(server.origin.replace("localhost", "127.0.0.1"), [
      server.child.pid!,
      postmaster,
    ]);
    const loadAfter = await machineLoad();
    const { rows, checks } = staticReport(measured);
    console.log(`
### Static bytes (anchor: nginx), BENCH_THROUGHPUT=static, ${DURATION} s per measurement

- ${measured.nginxVersion ?? "**nginx is not installed**"}; ${STATIC_CONNECTIONS} connections. Machine before: ${describeLoad(loadBefore)}. After: ${describeLoad(loadAfter)}.
- Load generator check, nginx with one wrk thread and with two for each answer:
${checks.join("\n")}

${[...TABLE_HEADER, ...rows].join("\n")}
`);
  } finally {
    await server?.stop();
    await database.drop().catch(() => {});
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/* ---------------- report ---------------- */

/**
 * What the profiles (scripts/bench/support/profile.ts) show behind each target this run missed,
 * printed only for a missed target. Update these when the code they describe changes.
 */
function reasons(r: {
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

const TABLE_HEADER = [
  "| what | req/s | p50 ms | p99 ms | errors | CPU ms per request | ratio to its anchor (same run) | target |",
  "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |",
];

function ratio(value: number, anchor: number) {
  return anchor > 0 ? value / anchor : NaN;
}

function pct(value: number) {
  return Number.isFinite(value) ? `${(value * 100).toFixed(0)}%` : "n/a";
}

function verdict(value: number, target: number) {
  return Number.isFinite(value) ? (value >= target ? "yes" : "**no**") : "n/a";
}

/** The floor page measured just before the row under it. */
function cpuCell(r: WrkResult) {
  return r.cpuMsPerRequest === undefined ? "" : r.cpuMsPerRequest.toFixed(2);
}

function anchorRow(r: WrkResult) {
  return `| ${r.label}, just before | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${cpuCell(r)} | anchor of the next row | |`;
}

function row(r: WrkResult, anchor: WrkResult | undefined, target?: number, note = "") {
  const share = anchor ? ratio(r.rps, anchor.rps) : NaN;
  // What the same comparison gives by CPU per request: the anchor's CPU over ours.
  const byCpu =
    anchor?.cpuMsPerRequest && r.cpuMsPerRequest
      ? ` (by CPU per request: ${pct(anchor.cpuMsPerRequest / r.cpuMsPerRequest)})`
      : "";
  return `| ${r.label} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${cpuCell(r)} | ${anchor ? `${pct(share)} of ${anchor.label}${byCpu}` : "anchor"} | ${target === undefined ? "" : `>= ${pct(target)}: ${verdict(share, target)}`}${note ? ` ${note}` : ""} |`;
}

function writeReport(section: string) {
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

/* ---------------- the run ---------------- */

export async function run() {
  requireWrk();
  ensureBuild();
  if (process.env.BENCH_THROUGHPUT === "static") return runStatic();
  const loadBefore = await machineLoad();
  console.log(`throughput bench: machine before: ${describeLoad(loadBefore)}`);
  const wrkVersion = (() => {
    try {
      return execFileSync(WRK, ["-v"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      // `wrk -v` prints its version and exits 1.
      const e = error as { stdout?: string; stderr?: string };
      return `${e.stdout ?? ""}${e.stderr ?? ""}`;
    }
  })()
    .split("\n")[0]
    .replace(/ \[.*$/, "")
    .trim();

  console.log("throughput bench: building the framework floor");
  const floorBuild = buildFloor();
  const cluster = await startPgCluster();
  const database = await createDatabase(cluster.url);
  const pgliteDir = tempDir("handyman-bench-pglite-");
  const pgDataDir = tempDir("handyman-bench-data-");
  const cleanups: (() => unknown)[] = [];
  try {
    await seed({ databaseUrl: database.url });
    await seed({ dataDir: pgliteDir });
    const common = { AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: "warn", SEED_DEMO: "false" };

    // 1. Static bytes: for each answer, nginx serving the same bytes (with one and two wrk
    //    threads: is the load generator the limit?), then our server.
    const pgServer = await startServer({
      ...common,
      DATABASE_URL: database.url,
      DATA_DIR: pgDataDir,
    });
    cleanups.push(() => pgServer.stop());
    const postmaster = Number(
      fs.readFileSync(path.join(cluster.dir, "data", "postmaster.pid"), "utf8").split("\n")[0],
    );
    const statics = await measureStatic(pgServer.origin.replace("localhost", "127.0.0.1"), [
      pgServer.child.pid!,
      postmaster,
    ]);
    const anchorOf = (pathname: string) =>
      statics.results.find((r) => r.target.path === pathname)?.anchor;

    // 2. The framework floor.
    const floor = await startFloor(floorBuild.dir);
    cleanups.push(() => floor.stop());
    await expectPage(`${floor.origin}/form`, {}, "Sign in");
    await expectPage(`${floor.origin}/list`, {}, "Request 30");
    console.log("throughput bench: floor /form and /list");
    const floorPage = (page: "form" | "list") =>
      page === "form"
        ? wrk("floor: GET /form", `${floor.origin}/form`, {
            connections: PAGE_CONNECTIONS,
            serverPids: [floor.pid],
          })
        : wrk("floor: GET /list (30 cards)", `${floor.origin}/list`, {
            connections: PAGE_CONNECTIONS,
            serverPids: [floor.pid],
          });
    const floorForm = await floorPage("form");
    const floorList = await floorPage("list");

    // 3. Ours on PostgreSQL, then on PGlite (the PostgreSQL server stops first: one at a time),
    //    each page right after its floor page.
    const pgRun = await measureProduct(pgServer, "PostgreSQL", floorPage, postmaster);
    const onPg = pgRun.results;
    await pgServer.stop();
    const pgliteServer = await startServer({ ...common, DATA_DIR: pgliteDir });
    cleanups.push(() => pgliteServer.stop());
    const pid = pgliteServer.child.pid!;
    const afterStart = await atRest(pid, IDLE_SECONDS);
    const pgliteRun = await measureProduct(pgliteServer, "PGlite", floorPage);
    const onPglite = pgliteRun.results;
    floor.stop();
    const afterLoad = await atRest(pid, IDLE_SECONDS);
    const loadAfter = await machineLoad();
    console.log(`throughput bench: machine after: ${describeLoad(loadAfter)}`);

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
    pair("/healthz", undefined, anchorOf("/healthz") ?? floorForm);

    const header = TABLE_HEADER;
    const { rows: staticRows, checks } = staticReport(statics);
    const mem = (value: number, target: number) =>
      `${value.toFixed(0)} MB (<= ${target} MB: ${value <= target ? "yes" : "**no**"})`;
    const cpu = (value: number) =>
      `${(value * 100).toFixed(2)}% of a core (<= ${(TARGETS.idleCpuShare * 100).toFixed(1)}%: ${value <= TARGETS.idleCpuShare ? "yes" : "**no**"})`;

    const section = `
## Throughput against anchors measured in the same run

\`npm run bench -- throughput\` (scripts/bench/throughput.ts), run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${DURATION} s per measurement.

- Load generator: ${wrkVersion || "wrk"}, on the same machine (${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GB), one thread unless said, keep-alive, no compression asked. Static bytes with ${STATIC_CONNECTIONS} connections, rendered pages with ${PAGE_CONNECTIONS}.
- Machine before: ${describeLoad(loadBefore)}. After: ${describeLoad(loadAfter)}. The machine is shared: other work running beside the bench takes CPU from both the servers and wrk, so compare the ratios (each rendered page measured right after its anchor), not the absolute figures, and rerun on a quiet machine for the record.
- Anchors: ${statics.nginxVersion ? `${statics.nginxVersion}, one worker, no access log, serving what our server answered as files: the same bodies (the stylesheet's build gzip copy through gzip_static) with our Cache-Control, CSP and security headers added` : "**nginx is not installed** (`apt-get install nginx-light`): the static ratios are missing"}; the framework floor, scripts/bench/floor/ built in this run (${floorBuild.versions}, the same Express adapter, production mode, React Router's default server entry).
- Load generator check, nginx with one wrk thread and with two for each static answer:
${checks.length ? checks.join("\n") : "  not run (no nginx)."}

### Static bytes (anchor: nginx)

${[...header, ...staticRows].join("\n")}

### Rendered pages (anchor: the framework floor)

${[...header, row(floorForm, undefined), row(floorList, undefined), ...pageRows].join("\n")}

Each of our pages was measured right after its floor page (the row above it), so the two figures of a ratio ran under the same machine load; the floor's first two rows are its first measurement, for reference. PGlite/PostgreSQL compares the two databases' ratios to their own anchors (the two ran minutes apart). CPU ms per request is the CPU time the server used over the run divided by the requests it answered (our server's process, and on PostgreSQL the database's processes too; the floor's process): it moves much less with the machine's load than req/s, so the ratio by CPU per request says what the req/s ratio would be if both were bound by their own CPU alone.

/dashboard is the member with ${MEMBER_REQUESTS} requests (a full page load, HTML); /dashboard.data is the same page's data request; /employee is the first page of All Requests signed in as an employee. Every page was first fetched once and checked to answer 200 with its content (a redirect to /auth would flatter the count). Errors are non-2xx/3xx answers and socket errors.

${reasons({ statics: statics.results, pg: pgRun, pglite: pgliteRun })}

### Embedded mode at rest (PGlite)

| when | resident memory | CPU while idle |
| --- | ---: | ---: |
| after start (${IDLE_SECONDS} s, after 10 s to settle) | ${mem(afterStart.residentMb, TARGETS.residentAfterStartMb)} | ${cpu(afterStart.cpuShare)} |
| after the load above (${IDLE_SECONDS} s, after 10 s to settle) | ${mem(afterLoad.residentMb, TARGETS.residentAfterLoadMb)} | ${cpu(afterLoad.cpuShare)} |

${
  afterStart.residentMb > TARGETS.residentAfterStartMb ||
  afterLoad.residentMb > TARGETS.residentAfterLoadMb ||
  afterLoad.cpuShare > TARGETS.idleCpuShare
    ? "Where these miss: PGlite starts with a 16 MB buffer cache and the outbox does not poll (docs/decisions/018-light-at-rest.md); the server runs with 8 MB V8 semi-spaces, two malloc arenas and a fixed 128 KB mmap threshold (scripts/server-node.mjs, docs/decisions/036-memory-of-the-embedded-server.md). After start, what remains is Node's own code (about 60 MB of its binary), PGlite's WebAssembly memory (about 30 MB of the 128 MB it declares) and engine on a thread of its own, whose V8 isolate adds about 25 MB (ADR 035), the server's ten connections to it (about 10 MB in a trial, ADR 037), the application's modules (about 45 MB of V8 heap), and memory glibc keeps after V8's optimising compiler freed it: optimising PGlite's query engine takes about 600 MB of 32 KB compiler segments for a moment, and the holes they leave in glibc's arenas stay resident (a 32 KB threshold returned them, 237 MB after start, but cost rendered pages 15% more CPU per request in the same bench). After the load, V8 keeps the old generation the rendered pages grew: ten seconds of /auth rendered at 1,100 req/s took its heap to 290 MB with 160 MB in use; a full collection brings that under 60 MB, but V8's memory reducer, which would collect and hand it back once the server is idle, judged the allocation rate high every 8 s for as long as it was watched (--trace-memory-reducer), a plain gc() shrank the heap but V8 kept its pages resident, and the one collection reachable from JavaScript that handed them back is a V8 test hook that also writes a heap snapshot (0.7 s with the server stopped). Capping the old generation (--max-old-space-size=256) held the heap near 110 MB but cost 15-20% of the rendered pages' throughput in a trial, so it is not set."
    : ""
}
`;
    writeReport(section);
    console.log(section);
    console.log(`throughput bench: written to ${path.relative(ROOT, REPORT)}`);
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
    floorBuild.remove();
    await database.drop().catch(() => {});
    await cluster.stop();
    fs.rmSync(pgliteDir, { recursive: true, force: true });
    fs.rmSync(pgDataDir, { recursive: true, force: true });
  }
}

// `tsx scripts/bench/throughput.ts` runs it directly too.
if (import.meta.url === `file://${process.argv[1]}`) {
  run().then(
    () => process.exit(0),
    (error) => {
      console.error(error instanceof WrkMissingError ? error.message : error);
      process.exit(1);
    },
  );
}
