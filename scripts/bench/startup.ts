/**
 * Start-up (ADR 029): how long a built tree takes from `npm start` to its first answer, with the
 * embedded database (PGlite) and with PostgreSQL. Each start is a new process on a database
 * that already exists (a restart, a deploy, a second process): the clock runs from the spawn to
 * the end of the first `GET /` answered (the client asks every 10 ms from the spawn on). Five
 * starts each; the median is checked against 3 s. `node build/server/main.js` (what a process
 * manager runs: no npm, no build check) is measured the same way beside it, and the very first
 * start of a new embedded database (migrations and demo data) once, for reference.
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

const ROOT = path.resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const TARGET_MS = 3_000;

type Command = { label: string; file: string; args: string[] };
const NPM_START: Command = { label: "`npm start`", file: "npm", args: ["start", "--silent"] };
const NODE_MAIN: Command = {
  label: "`node build/server/main.js`",
  file: process.execPath,
  args: [SERVER_ENTRY],
};

function firstAnswer(port: number) {
  return new Promise<number>((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: "/" }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("error", () => resolve(0));
  });
}

/** One start: milliseconds from the spawn to the end of the first answer to GET /. */
async function timeStart(command: Command, env: Record<string, string>) {
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
    return performance.now() - started;
  } finally {
    process.kill(-child.pid!, "SIGTERM");
    await exited;
  }
}

async function series(command: Command, env: Record<string, string>) {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timeStart(command, env));
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
  try {
    const embedded = { DATA_DIR: dataDir, DATABASE_URL: "" };
    const postgres = { DATA_DIR: pgDataDir, DATABASE_URL: database.url };
    console.log("startup bench: first start of a new embedded database");
    const first = await timeStart(NODE_MAIN, { ...embedded, SEED_DEMO: "true" });
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
      `| ${NODE_MAIN.label} | embedded (PGlite), a new database: migrations and demo data | ${seconds(first)} | one start | (reference) |`,
    );
  } finally {
    await database.drop();
    await cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(pgDataDir, { recursive: true, force: true });
  }

  const [load] = os.loadavg();
  const section = `## Start-up

\`npm run bench -- startup\` (scripts/bench/startup.ts), run ${new Date().toISOString().slice(0, 10)} on Node.js ${process.version}, ${os.cpus().length} CPUs (load average ${load.toFixed(2)} at the end, shared with other work).

A built tree, started anew on a database that already exists (a restart or a deploy): from the spawn to the end of the first \`GET /\` answered, the client asking every 10 ms. ${RUNS} starts each; target: the median of \`npm start\` at most 3 s with either database (ADR 029).

| command | database | median | every start | target met |
| --- | --- | ---: | --- | --- |
${rows.join("\n")}

What a start does: \`npm start\` checks that build/ is a build of the sources (a fingerprint of them, no settings) and runs the compiled server, build/server/main.js. The server reads its settings, then loads React Router's server build and renders the 13 public pages with those settings while the database opens and applies pending migrations, then listens; the outbox worker starts once it listens. Nothing is built or written into build/. Targets met: ${met ? "yes" : "**no**"}.
`;
  writeSection("startup", section);
  console.log(section);
}

// Run directly: `tsx scripts/bench/startup.ts`.
if (import.meta.url === `file://${process.argv[1]}`) await run();
