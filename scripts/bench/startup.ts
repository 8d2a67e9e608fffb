/**
 * Start-up (ADR 029): how long a built tree takes from `npm start` to its first answer, with the
 * embedded database (PGlite) and with PostgreSQL. Each start is a new process on a database
 * that already exists (a restart, a deploy, a second process): the clock runs from the spawn to
 * the end of the first `GET /` answered (the client asks every 10 ms from the spawn on). Five
 * starts each; the median is checked against 3 s. `node build/server/main.js` (what a process
 * manager runs: no npm, no build check) is measured the same way beside it. A newcomer's first
 * start (`npm start` on an empty data directory: the build's database template and the demo
 * data, ADR 092 and 101) is timed BENCH_FIRST_START_RUNS times (3) against the same 3 s, and the server's
 * resident memory read 30 s after the first of them (target 250 MB).
 *
 * PostgreSQL: a database of its own in the server of BENCH_DATABASE_URL or TEST_DATABASE_URL (an
 * admin URL), else a throwaway cluster (scripts/pg-cluster.sh).
 *
 * Results go to docs/benchmarks.md between <!-- startup:start --> and <!-- startup:end -->.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { isBuilt } from "../fingerprint.mjs";
import {
  createDatabase,
  freePort,
  SERVER_ENTRY,
  startPgCluster,
  tempDir,
  TEST_AUTH_SECRET,
} from "../../tests/support/processes";
import { writeSection } from "./support/common";
import { processTree, residentMb } from "./support/proc";

const ROOT = path.resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const TARGET_MS = 3_000;
const FIRST_RUNS = Number(process.env.BENCH_FIRST_START_RUNS ?? 3);
const TARGET_RESTING_MB = 250;

type Command = { label: string; file: string; args: string[] };
export const NPM_START: Command = {
  label: "`npm start`",
  file: "npm",
  args: ["start", "--silent"],
};
const NODE_MAIN: Command = {
  label: "`node build/server/main.js`",
  file: process.execPath,
  args: [SERVER_ENTRY],
};

function firstAnswer(port: number, urlPath = "/") {
  return new Promise<number>((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: urlPath }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", () => resolve(0));
  });
}

/** The server's resident memory: npm's child (the server, exec'd) or the process itself. */
function serverResidentMb(pid: number, command: Command) {
  const [server] = command === NPM_START ? processTree([pid]).filter((p) => p !== pid) : [pid];
  return server ? residentMb(server) : NaN;
}

/**
 * One start: milliseconds from the spawn to the end of the first answer to GET /; with `restMs`,
 * also the server's resident memory after that long at rest. `readyMs`: to the first 200 of
 * GET /healthz, asked once / has answered (a first start answers its public pages while the
 * demo is written, and /healthz, which reads the database, waits for it: ADR 108).
 */
export async function timeStart(
  command: Command,
  env: Record<string, string>,
  restMs?: number,
): Promise<{ ms: number; readyMs: number; restingMb?: number }> {
  const port = await freePort();
  let output = "";
  const started = performance.now();
  // A process group of its own: `npm start` runs the server in a child of npm's.
  const child = spawn(command.file, command.args, {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      AUTH_SECRET: TEST_AUTH_SECRET,
      SHUTDOWN_DRAIN_MS: "100",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    for (;;) {
      const status = await firstAnswer(port);
      if (status === 200) break;
      if (status !== 0) throw new Error(`GET / answered ${status}:\n${output}`);
      if (child.exitCode !== null) throw new Error(`The server exited:\n${output}`);
      if (performance.now() - started > 120_000) throw new Error(`No answer:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ms = performance.now() - started;
    while ((await firstAnswer(port, "/healthz")) !== 200) {
      if (child.exitCode !== null) throw new Error(`The server exited:\n${output}`);
      if (performance.now() - started > 120_000) throw new Error(`Not ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const readyMs = performance.now() - started;
    if (restMs === undefined) return { ms, readyMs };
    await new Promise((resolve) => setTimeout(resolve, restMs));
    return { ms, readyMs, restingMb: serverResidentMb(child.pid!, command) };
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
}

async function series(command: Command, env: Record<string, string>) {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) runs.push((await timeStart(command, env)).ms);
  const sorted = [...runs].sort((a, b) => a - b);
  return { runs, median: sorted[Math.floor(sorted.length / 2)] };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function run() {
  if (!isBuilt(ROOT)) {
    console.log("startup bench: building first (npm run build)");
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  }
  const dataDir = tempDir("handyman-bench-startup-");
  const pgDataDir = tempDir("handyman-bench-startup-pg-");
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const cluster = adminUrl ? undefined : await startPgCluster();
  const database = await createDatabase(adminUrl ?? cluster!.url);
  const rows: string[] = [];
  let met = true;
  let firstStartMemory = "";
  try {
    const embedded = { DATA_DIR: dataDir, DATABASE_URL: "" };
    const postgres = { DATA_DIR: pgDataDir, DATABASE_URL: database.url };
    // A newcomer's first start: `npm start` on an empty data directory (the database from the
    // build's template, the demo data written), its memory read 30 s later (ADR 092).
    const firsts: { ms: number; readyMs: number; restingMb?: number }[] = [];
    for (let i = 0; i < FIRST_RUNS; i++) {
      console.log(`startup bench: first start of a new embedded database (${i + 1})`);
      const fresh = tempDir("handyman-bench-first-start-");
      firsts.push(
        await timeStart(
          NPM_START,
          { DATA_DIR: fresh, DATABASE_URL: "" },
          i === 0 ? 30_000 : undefined,
        ),
      );
      fs.rmSync(fresh, { recursive: true, force: true });
    }
    const firstMs = firsts.map((f) => f.ms);
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const firstMedian = median(firstMs);
    const readyMs = firsts.map((f) => f.readyMs);
    const restingMb = firsts[0].restingMb ?? NaN;
    if (firstMedian > TARGET_MS || !(restingMb <= TARGET_RESTING_MB)) met = false;
    await timeStart(NODE_MAIN, embedded);
    console.log("startup bench: first start of a new PostgreSQL database");
    await timeStart(NODE_MAIN, postgres);
    for (const [name, env] of [
      ["embedded (PGlite)", embedded],
      ["PostgreSQL", postgres],
    ] as const) {
      for (const command of [NPM_START, NODE_MAIN]) {
        console.log(`startup bench: ${command.label}, ${name}`);
        const { runs, median } = await series(command, env);
        const counts = command === NPM_START;
        if (counts && median > TARGET_MS) met = false;
        rows.push(
          `| ${command.label} | ${name} | **${seconds(median)}** | ${runs.map(seconds).join(", ")} | ${
            counts ? (median <= TARGET_MS ? "yes" : "**no**") : "(reference)"
          } |`,
        );
      }
    }
    rows.push(
      `| ${NPM_START.label} | embedded (PGlite), an empty data directory: the database from the build's template, the demo data | **${seconds(firstMedian)}** | ${firstMs.map(seconds).join(", ")} | ${firstMedian <= TARGET_MS ? "yes" : "**no**"} |`,
    );
    firstStartMemory = `Those first starts answered their public pages while the demo data was being written (ADR 108); GET /healthz, which reads the database and waits for the demo, first answered 200 after a median of **${seconds(median(readyMs))}** (${readyMs.map(seconds).join(", ")}): from then on every page answers at once.

After the first of those first starts, 30 s at rest: **${restingMb.toFixed(0)} MB** resident (the server's process; target at most ${TARGET_RESTING_MB} MB: ${restingMb <= TARGET_RESTING_MB ? "yes" : "**no**"}).`;
  } finally {
    await database.drop();
    await cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(pgDataDir, { recursive: true, force: true });
  }

  const [load] = os.loadavg();
  const section = `## Start-up

\`npm run bench -- startup\` (scripts/bench/startup.ts), run ${new Date().toISOString().slice(0, 10)} on Node.js ${process.version}, ${os.cpus().length} CPUs (load average ${load.toFixed(2)} at the end, shared with other work).

A built tree, started on an empty data directory (a newcomer's first start, ADR 092 and 101: the database copied from the build's template and opened by the server, the demo data written through it by a process started before the server's modules load), and started anew on a database that already exists (a restart or a deploy): from the spawn to the end of the first \`GET /\` answered, the client asking every 10 ms. ${RUNS} starts each; target: the median of \`npm start\` at most 3 s with either database (ADR 029).

| command | database | median | every start | target met |
| --- | --- | ---: | --- | --- |
${rows.join("\n")}

${firstStartMemory}

What a start does: \`npm start\` checks that build/ is a build of the sources (a fingerprint of them, no settings) and runs the compiled server, build/server/main.js. On an empty embedded data directory the entry first starts the demo's process (ADR 101). The server reads its settings, then loads React Router's server build and renders the 13 public pages with those settings while the database opens and applies pending migrations, then listens. On a first start it listens before the demo data is written (ADR 108): the public pages and files answer at once, every other request waits for the demo, and the demo's process runs at the lowest priority so as not to slow the server's own start. The outbox worker starts once the database is ready. Nothing is built or written into build/. Targets met: ${met ? "yes" : "**no**"}.
`;
  writeSection("startup", section);
  console.log(section);
}

// Run directly: `tsx scripts/bench/startup.ts`.
if (import.meta.url === `file://${process.argv[1]}`) await run();
