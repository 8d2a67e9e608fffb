/**
 * The pages people use, as they use them: `npm run bench -- pages`.
 *
 * Signs in as the demo member Maria, the demo office staff and (when the bench data set is
 * seeded) a handyman, and measures with wrk (10 connections) every page they open: a member's
 * `/dashboard` on each tab, each step of `/dashboard/book`, a visit's page, staff's `/employee`
 * tabs, a customer's membership page, and the handyman's 'Today' and the reports when the build
 * has them. Each page is measured right after the framework floor's 30-card list page (the
 * anchor, scripts/bench/floor/), so a ratio's two figures run under the same machine load; the
 * product runs on PGlite (embedded) and on PostgreSQL (a throwaway cluster), with the same data.
 * The server's resident memory is read after start and after the load, each after 10 s at rest.
 *
 * Data: the demo (server/seed/demo.ts) plus, when server/seed/bench.ts is present, the bench
 * data set (2,000 members over 3 years, 10 handymen). BENCH_DURATION (seconds per measurement,
 * default 4), BENCH_PAGES=pglite|postgres (one database only, no report written),
 * BENCH_PAGES_ONLY=<label substring> (those pages only, no report written). Results go to
 * docs/benchmarks.md between <!-- pages:start --> and <!-- pages:end -->.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "~/db/client.server";
import { businessToday } from "~/lib/business-calendar";
import { BENCH_EMAIL_DOMAIN, BENCH_PASSWORD, seedBench } from "../../server/seed/bench";
import { DEMO_LOGINS, seedDemo } from "../../server/seed/demo";
import {
  createDatabase,
  startPgCluster,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../../tests/support/processes";
import { buildFloor, requireWrk, startFloor } from "./throughput";

export { startFloor };
import { cpuSeconds, processTree, residentMb } from "./support/proc";
import * as extras from "./support/pages-extras";
import { memoryTable, pct, table, TARGETS } from "./support/pages-report";

export { TARGETS } from "./support/pages-report";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REPORT = path.join(ROOT, "docs", "benchmarks.md");
const START = "<!-- pages:start -->";
const END = "<!-- pages:end -->";
const WRK = process.env.WRK ?? "/usr/bin/wrk";
const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const CONNECTIONS = 10;
const WARM_UP_SECONDS = 2;

/* ---------------- wrk with p95 ---------------- */

const WRK_SCRIPT = `
done = function(summary, latency, requests)
  io.write(string.format("PERCENTILES %d %d %d %d\\n", latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
`;

export type Measurement = {
  label: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
  errors: number;
  /** CPU the server used per answered request (its process; on PostgreSQL its backends too). */
  cpuMs?: number;
};

function treeCpu(roots: number[]) {
  let total = 0;
  const each = new Map<number, number>();
  for (const pid of processTree(roots)) {
    const cpu = cpuSeconds(pid) ?? 0;
    each.set(pid, cpu);
    total += cpu;
  }
  return { total, each };
}

let scriptFile: string | undefined;

export async function measure(
  label: string,
  url: string,
  headers: Record<string, string>,
  serverPids: number[],
  seconds = DURATION,
): Promise<Measurement> {
  if (!scriptFile) {
    scriptFile = path.join(tempDir("handyman-wrk-"), "percentiles.lua");
    fs.writeFileSync(scriptFile, WRK_SCRIPT);
  }
  const args = ["-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--timeout", "10s", "-s", scriptFile];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  args.push(url);
  const before = treeCpu(serverPids);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(WRK, args, { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("exit", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`wrk failed (${code}): ${text}`)),
    );
  });
  const after = treeCpu(serverPids);
  let used = 0;
  for (const [pid, cpu] of after.each) used += cpu - (before.each.get(pid) ?? 0);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN);
  const [p50, p95, p99] = (/PERCENTILES (\d+) (\d+) (\d+)/.exec(output) ?? [])
    .slice(1)
    .map((us) => Number(us) / 1000);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    label,
    rps,
    p50,
    p95,
    p99,
    requests,
    errors: non2xx + socketErrors,
    cpuMs: requests > 0 ? (used * 1000) / requests : undefined,
  };
}

/* ---------------- data ---------------- */

type BenchSeed = {
  seedBench: (db: Database, options: { today: string }) => Promise<unknown>;
  BENCH_PASSWORD: string;
  BENCH_EMAIL_DOMAIN: string;
};

/** The bench data set's seed (server/seed/bench.ts), unless BENCH_DATA=demo asks for the demo only. */
export async function benchSeed(): Promise<BenchSeed | null> {
  if (process.env.BENCH_DATA === "demo") return null;
  return { seedBench, BENCH_PASSWORD, BENCH_EMAIL_DOMAIN };
}

export async function seed(
  options: { databaseUrl: string } | { dataDir: string },
  bench: BenchSeed | null,
) {
  const handle = await openDatabase(options);
  try {
    await handle.migrate();
    const today = businessToday();
    await seedDemo(handle.db, today);
    if (bench) await bench.seedBench(handle.db, { today });
  } finally {
    await handle.close();
  }
}

export async function signIn(origin: string, email: string, password: string, ip: string) {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, "x-forwarded-for": ip },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function getPage(url: string, cookie: string) {
  const response = await fetch(url, {
    headers: { accept: "text/html", cookie },
    redirect: "manual",
  });
  return { status: response.status, body: await response.text() };
}

/* ---------------- the pages ---------------- */

type Page = { label: string; path: string; cookie: string; mustContain: string };

const decode = (text: string) => text.replaceAll("&amp;", "&");

/** The first value of an input named `name` in a page (the step's first choice). */
function firstValue(body: string, name: string) {
  const match = new RegExp(`name="${name}"[^>]*?value="([^"]+)"`).exec(body);
  if (match) return decode(match[1]);
  const reversed = new RegExp(`value="([^"]+)"[^>]*?name="${name}"`).exec(body);
  return reversed ? decode(reversed[1]) : undefined;
}

/** Every page to measure, found as a person would: by following the pages' own links. */
export async function pagesFor(origin: string, bench: BenchSeed | null): Promise<Page[]> {
  const [staffLogin, mariaLogin] = DEMO_LOGINS;
  const maria = await signIn(origin, mariaLogin.email, mariaLogin.password, "10.0.1.1");
  const staff = await signIn(origin, staffLogin.email, staffLogin.password, "10.0.1.2");
  const pages: Page[] = [];
  const member = (label: string, pathName: string, mustContain: string) =>
    pages.push({ label: `member: ${label}`, path: pathName, cookie: maria, mustContain });
  member("/dashboard (Requests)", "/dashboard", "Maria");
  member("/dashboard?tab=appointments", "/dashboard?tab=appointments", "Maria");
  member("/dashboard?tab=schedule", "/dashboard?tab=schedule", "Maria");
  member("/dashboard?tab=completed", "/dashboard?tab=completed", "Maria");
  member("/dashboard?tab=membership", "/dashboard?tab=membership", "Maria");
  member("/dashboard?tab=home", "/dashboard?tab=home", "Maria");

  // 'Book a Visit', step by step: each step's first choice leads to the next.
  const book = "/dashboard/book";
  member("/dashboard/book (the block)", book, "Book a Visit");
  const blockPage = await getPage(`${origin}${book}`, maria);
  const block = firstValue(blockPage.body, "block");
  if (block) {
    const dayPath = `${book}?block=${encodeURIComponent(block)}`;
    member("/dashboard/book (the day)", dayPath, "Book a Visit");
    const dayPage = await getPage(`${origin}${dayPath}`, maria);
    const date = firstValue(dayPage.body, "date");
    if (date) {
      const startPath = `${dayPath}&date=${encodeURIComponent(date)}`;
      member("/dashboard/book (the start)", startPath, "Book a Visit");
      const startPage = await getPage(`${origin}${startPath}`, maria);
      const start = firstValue(startPage.body, "start");
      if (start) {
        const tasksPath = `${startPath}&start=${encodeURIComponent(start)}`;
        member("/dashboard/book (the tasks)", tasksPath, "Book a Visit");
        // The summary needs a task chosen: the first of the member's requests offered.
        const tasksPage = await getPage(`${origin}${tasksPath}`, maria);
        const task = firstValue(tasksPage.body, "task");
        if (task)
          member(
            "/dashboard/book (the summary)",
            `${tasksPath}&task=${encodeURIComponent(task)}&tasks=chosen`,
            "Confirm Visit",
          );
      }
    }
  }

  // A visit's page: the first visit linked from the Schedule tab.
  const appointments = await getPage(`${origin}/dashboard?tab=schedule`, maria);
  const visit = /href="(\/dashboard\/visits\/[0-9a-f-]{36})"/.exec(appointments.body)?.[1];
  if (visit) member("a visit's page", visit, "Visit");

  const staffPage = (label: string, pathName: string, mustContain: string) =>
    pages.push({ label: `staff: ${label}`, path: pathName, cookie: staff, mustContain });
  staffPage("/employee (All Requests)", "/employee", "Requests");
  staffPage("/employee?tab=appointments", "/employee?tab=appointments", "Appointments");
  staffPage("/employee?tab=customers", "/employee?tab=customers", "Customers");
  // A customer's membership page: Maria's, found by her e-mail on the Customers tab (the first
  // of the list is whoever sorts first, a different member from one seed to the next).
  const customers = await getPage(
    `${origin}/employee?tab=customers&cq=${encodeURIComponent(mariaLogin.email)}`,
    staff,
  );
  const membership = /href="(\/employee\/customers\/[0-9a-f-]{36}\/membership)"/.exec(
    customers.body,
  )?.[1];
  if (membership) staffPage("a customer's membership page", membership, "Membership");
  staffPage("/employee/schedule (Week View)", "/employee/schedule", "Week View");
  const reports = await getPage(`${origin}/employee/reports`, staff);
  if (reports.status === 200) staffPage("/employee/reports", "/employee/reports", "Reports");

  if (bench) {
    const handyman = await signIn(
      origin,
      `handyman1@${bench.BENCH_EMAIL_DOMAIN}`,
      bench.BENCH_PASSWORD,
      "10.0.1.3",
    ).catch(() => null);
    if (handyman) {
      for (const candidate of ["/employee/today", "/today"]) {
        const today = await getPage(`${origin}${candidate}`, handyman);
        if (today.status === 200) {
          pages.push({
            label: `handyman: ${candidate} (Today)`,
            path: candidate,
            cookie: handyman,
            mustContain: "Today",
          });
          break;
        }
      }
    }
  }
  return pages;
}

/* ---------------- one database ---------------- */

type Row = { page: Page; anchor: Measurement; ours: Measurement };

export type DatabaseRun = {
  kind: "PGlite" | "PostgreSQL";
  /** Node settings added to the server's (a trial beside the shipped settings). */
  variant?: string;
  rows: Row[];
  residentAtRest: number;
  residentAfterLoad: number;
};

async function settle(pid: number) {
  await new Promise((r) => setTimeout(r, 10_000));
  return residentMb(pid);
}

async function measureDatabase(
  kind: DatabaseRun["kind"],
  server: ServerProcess,
  extraPids: number[],
  floor: { origin: string; pid: number },
  bench: BenchSeed | null,
): Promise<DatabaseRun> {
  const pid = server.child.pid!;
  const origin = server.origin.replace("localhost", "127.0.0.1");
  const residentAtRest = await settle(pid);
  const only = process.env.BENCH_PAGES_ONLY;
  const pages = (await pagesFor(server.origin, bench)).filter(
    (p) => !only || p.label.includes(only),
  );
  const rows: Row[] = [];
  // Warm-up: every page for a moment, so the first measured page does not pay for V8 compiling
  // the server's code and PGlite's engine; the floor's page too (a cold floor answered its first
  // measurement at 669-706 req/s against 813-875 for the rest, flattering the first page's ratio).
  await measure("warm-up", `${floor.origin}/list`, {}, [floor.pid], WARM_UP_SECONDS);
  for (const page of pages)
    await measure(
      "warm-up",
      `${origin}${page.path}`,
      { accept: "text/html", cookie: page.cookie },
      [pid],
      WARM_UP_SECONDS,
    );
  for (const page of pages) {
    const check = await getPage(`${origin}${page.path}`, page.cookie);
    if (check.status !== 200 || !check.body.includes(page.mustContain))
      throw new Error(
        `${kind} ${page.path}: ${check.status}, expected 200 with "${page.mustContain}"`,
      );
    const anchor = await measure("floor: GET /list (30 cards)", `${floor.origin}/list`, {}, [
      floor.pid,
    ]);
    const ours = await measure(
      `${kind}: ${page.label}`,
      `${origin}${page.path}`,
      { accept: "text/html", cookie: page.cookie },
      [pid, ...extraPids],
    );
    console.log(
      `pages bench: ${kind} ${page.label}: ${ours.rps.toFixed(0)} req/s (floor ${anchor.rps.toFixed(0)}, ${pct(ours.rps / anchor.rps)}), p50 ${ours.p50.toFixed(1)} ms, p95 ${ours.p95.toFixed(1)} ms`,
    );
    rows.push({ page, anchor, ours });
  }
  const residentAfterLoad = await settle(pid);
  return { kind, rows, residentAtRest, residentAfterLoad };
}

/* ---------------- the report ---------------- */

function writeReport(section: string) {
  let text = fs.readFileSync(REPORT, "utf8");
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
  extras.buildIfStale(ROOT);
  const which = process.env.BENCH_PAGES;
  const bench = await benchSeed();
  const loadBefore = os.loadavg();
  // A newcomer's first start first, on the quiet machine the bench began with.
  console.log("pages bench: a first start on an empty data directory, 30 s at rest");
  const firstStart = which ? null : await extras.firstStartRestingMb();
  let breakdown: { group: string; share: number }[] | null = null;
  const floorBuild = buildFloor();
  const floor = await startFloor(floorBuild.dir);
  const common = { AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: "warn", SEED_DEMO: "false" };
  const runs: DatabaseRun[] = [];
  const cleanups: (() => unknown)[] = [() => floor.stop(), () => floorBuild.remove()];
  try {
    if (which !== "postgres") {
      const dataDir = tempDir("handyman-pages-pglite-");
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      await seed({ dataDir }, bench);
      const server = await startServer({ ...common, DATA_DIR: dataDir });
      try {
        runs.push(await measureDatabase("PGlite", server, [], floor, bench));
      } finally {
        await server.stop();
      }
      console.log("pages bench: the CPU breakdown of a member's /dashboard (PGlite)");
      breakdown = await extras.profiledBreakdown(
        { ...common, DATA_DIR: dataDir },
        async (origin) => {
          const [, maria] = DEMO_LOGINS;
          const cookie = await signIn(origin, maria.email, maria.password, "10.0.1.9");
          const headers = { accept: "text/html", cookie };
          const url = `${origin.replace("localhost", "127.0.0.1")}/dashboard`;
          await measure("warm-up", url, headers, [], WARM_UP_SECONDS);
          const from = extras.monotonicMicros();
          await measure("profile", url, headers, [], 8);
          return { from, to: extras.monotonicMicros() };
        },
      );
    }
    // The same embedded server with other Node settings (BENCH_PAGES_VARIANT="--max-old-space-size=128"):
    // memory against throughput, in the same run.
    const variant = process.env.BENCH_PAGES_VARIANT?.split(/\s+/).filter(Boolean);
    if (variant?.length && which !== "postgres") {
      const dataDir = tempDir("handyman-pages-variant-");
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      await seed({ dataDir }, bench);
      const server = await startServer({ ...common, DATA_DIR: dataDir }, { nodeArgs: variant });
      try {
        const measured = await measureDatabase("PGlite", server, [], floor, bench);
        runs.push({ ...measured, variant: variant.join(" ") });
      } finally {
        await server.stop();
      }
    }
    if (which !== "pglite") {
      const cluster = await startPgCluster();
      cleanups.push(() => cluster.stop());
      const database = await createDatabase(cluster.url);
      cleanups.push(() => database.drop());
      await seed({ databaseUrl: database.url }, bench);
      const dataDir = tempDir("handyman-pages-data-");
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const server = await startServer({
        ...common,
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
      });
      const postmaster = Number(
        fs.readFileSync(path.join(cluster.dir, "data", "postmaster.pid"), "utf8").split("\n")[0],
      );
      try {
        runs.push(await measureDatabase("PostgreSQL", server, [postmaster], floor, bench));
      } finally {
        await server.stop();
      }
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
  }
  const loadAfter = os.loadavg();
  const section = `
## The pages people use (issue 31)

\`npm run bench -- pages\` (scripts/bench/pages.ts), run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${DURATION} s per measurement, wrk with one thread and ${CONNECTIONS} connections, keep-alive, HTML as a browser asks for a page load. Load average ${loadBefore.map((l) => l.toFixed(2)).join(" / ")} before, ${loadAfter.map((l) => l.toFixed(2)).join(" / ")} after (1/5/15 min; ${os.cpus().length} CPUs, shared with other work).

Data: ${bench ? "the bench data set (server/seed/bench.ts: 2,000 members over 3 years, 10 handymen, their visits, parts and leads) on top of the demo" : "the demo data (server/seed/demo.ts)"}. Signed in as the demo member Maria (a Complete Home Care member with visits, a statement and requests) and the demo office staff${bench ? ", and handyman1 of the bench data set" : ""}; each page was found by following the pages' own links (the booking steps take each step's first choice) and checked to answer 200 with its content before it was measured.

Each page was measured right after the framework floor's 30-card list page (scripts/bench/floor/, the column "floor req/s just before"), so a ratio's two figures ran under the same machine load. CPU ms per request is the CPU time the server used over the measurement divided by the answers (on PostgreSQL its backends too; the floor's process for the floor); the ratio by CPU per request (the floor's over ours, in brackets) is what the req/s ratio would be if both were bound by their own CPU alone, and moves much less with the machine's load than req/s. Targets (issues 31 and 45): every tab of a member's \`/dashboard\` at least ${pct(TARGETS.dashboardVsFloor)} of the lean floor (the goal beyond: 50%); every signed-in page p95 at most ${TARGETS.p95Ms} ms; the embedded server at most ${TARGETS.residentAtRestMb} MB resident at rest and ${TARGETS.residentAfterLoadMb} MB after the load.

${runs.map(table).join("\n\n")}

${memoryTable(runs)}
${firstStart ? `\nA newcomer's first \`npm start\` (an empty data directory: the database from the build's template, the demo data written by a process of its own through the server's database, ADR 092 and 101), in this run: first answer after ${(firstStart.ms / 1000).toFixed(2)} s; **${firstStart.restingMb.toFixed(0)} MB** resident 30 s at rest (at most ${TARGETS.residentAtRestMb} MB: ${firstStart.restingMb <= TARGETS.residentAtRestMb ? "yes" : "**no**"}).\n` : ""}
${breakdown ? extras.breakdownText("the demo member Maria's `/dashboard` (the Requests tab, PGlite, after the tables above)", breakdown) : ""}
`;
  console.log(section);
  if (!which && !process.env.BENCH_PAGES_ONLY) {
    writeReport(section);
    console.log(`pages bench: written to ${path.relative(ROOT, REPORT)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
