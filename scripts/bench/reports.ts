/**
 * The reports page at a real business's size (issue 30, item 4): the bench data set of
 * `npm run cli -- seed:bench` (2,000 members over 3 years, 10 handymen, their visits, parts and
 * leads, server/seed/bench.ts) beside the small demo data, on PGlite and on PostgreSQL, in one
 * run. Measures the whole /employee/reports document through the production build, signed in as
 * the demo's office staff, for every period of the picker (this month, last month, this
 * quarter, last 12 months) and a custom range of 3 years: the server time from the request to the last byte, one request at a time,
 * alternating between the small and the big database so both see the same machine load.
 *
 * PostgreSQL: BENCH_DATABASE_URL or TEST_DATABASE_URL (an admin URL), otherwise a throwaway
 * cluster (scripts/pg-cluster.sh). Results go to docs/benchmarks.md between
 * <!-- reports:start --> and <!-- reports:end -->.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { setDatabase, type DatabaseHandle } from "~/db/client.server";
import { businessToday } from "~/lib/business-calendar";
import { createLocalStorage, setStorage } from "~/lib/storage.server";
import { seedBench } from "../../server/seed/bench";
import { DEMO_LOGINS, seedDemo } from "../../server/seed/demo";
import {
  ms,
  openBenchDatabase,
  signIn,
  startServer,
  stats,
  timed,
  writeSection,
  yes,
  type Stats,
} from "./support/common";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 60);
const WARMUP = 10;
const TARGET_P95_MS = 200;
/** Every choice of the period picker, and a custom range of 3 years ending today. */
function periods(today: string) {
  const threeYearsAgo = `${Number(today.slice(0, 4)) - 3}${today.slice(4)}`;
  return [
    ["this month (the page's default)", ""],
    ["last month", "?period=last-month"],
    ["this quarter", "?period=this-quarter"],
    ["last 12 months", "?period=last-12-months"],
    ["custom range of 3 years", `?period=custom&from=${threeYearsAgo}&to=${today}`],
  ] as const;
}

type Db = { handle: DatabaseHandle; label: string; drop: () => Promise<void> };

function startCluster() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-reports-pg-"));
  const url = execFileSync("bash", ["scripts/pg-cluster.sh", "start", dir], {
    encoding: "utf8",
  }).trim();
  return { url, stop: () => execFileSync("bash", ["scripts/pg-cluster.sh", "stop", dir]) };
}

async function prepare(kind: "pglite" | "postgres", big: boolean): Promise<Db> {
  const saved = process.env.BENCH_DATABASE_URL;
  if (kind === "pglite") {
    delete process.env.BENCH_DATABASE_URL;
    delete process.env.TEST_DATABASE_URL;
  }
  const database = await openBenchDatabase(`reports_${big ? "big" : "small"}`);
  if (saved) process.env.BENCH_DATABASE_URL = saved;
  const today = businessToday();
  const started = Date.now();
  await seedDemo(database.handle.db, today);
  if (big) {
    const { counts } = await seedBench(database.handle.db, { today });
    console.log(
      `${database.label}: seeded the bench data set in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      counts,
    );
  }
  return database;
}

export async function run() {
  const savedEnv = { ...process.env };
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const cluster = adminUrl ? undefined : startCluster();
  process.env.BENCH_DATABASE_URL = adminUrl ?? cluster!.url;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-reports-"));
  setStorage(createLocalStorage(path.join(dataDir, "uploads")));
  const opened: Db[] = [];
  let server: Awaited<ReturnType<typeof startServer>> = null;
  let session:
    { cookie: string; id: string; token: string; expiresAt: string; home: Db } | undefined;
  const results: { engine: string; period: string; small: Stats; big: Stats; bigCpu: Stats }[] = [];
  try {
    // BENCH_ENGINES=pglite (or postgres) measures one engine only, for a profile.
    const engines = (["pglite", "postgres"] as const).filter(
      (k) => !process.env.BENCH_ENGINES || process.env.BENCH_ENGINES.split(",").includes(k),
    );
    for (const kind of engines) {
      const small = await prepare(kind, false);
      opened.push(small);
      const big = await prepare(kind, true);
      opened.push(big);
      setDatabase(small.handle);
      server ??= await startServer(dataDir);
      if (!server) {
        console.log("no production build (run `npm run build` first): nothing measured");
        return;
      }
      // Better Auth keeps the database it started with (the first small one): sign in there
      // once, then give every other database the same session row, for its own copy of the
      // demo's staff.
      const staff = DEMO_LOGINS[0];
      if (!session) {
        setDatabase(small.handle);
        const cookie = await signIn(server.base, staff.email, staff.password);
        const [row] = (
          (await small.handle.db.execute(
            sql`select s.id, s.token, s.expires_at::text as "expiresAt" from session s join "user" u on u.id = s.user_id where u.email = ${staff.email} order by s.created_at desc limit 1`,
          )) as unknown as { rows: { id: string; token: string; expiresAt: string }[] }
        ).rows;
        session = { cookie, ...row, home: small };
      }
      for (const db of [small, big]) {
        if (db === session.home) continue;
        await db.handle.db.execute(
          sql`insert into session (id, token, expires_at, user_id) select ${session.id}, ${session.token}, ${session.expiresAt}::timestamptz, id from "user" where email = ${staff.email}`,
        );
      }
      const cookies = new Map<Db, string>([
        [small, session.cookie],
        [big, session.cookie],
      ]);
      for (const [label, query] of periods(businessToday())) {
        // The bench's process CPU time per request: the server's work (and PGlite's, which runs
        // in it), a measure the machine's other load disturbs less than the elapsed time.
        const cpuSamples = new Map<Db, number[]>([
          [small, []],
          [big, []],
        ]);
        const samples = new Map<Db, number[]>([
          [small, []],
          [big, []],
        ]);
        for (let i = 0; i < WARMUP + ITERATIONS; i++) {
          for (const db of i % 2 === 0 ? [small, big] : [big, small]) {
            setDatabase(db.handle);
            const cpuBefore = process.cpuUsage();
            const { ms: elapsed } = await timed(async () => {
              const response = await fetch(`${server!.base}/employee/reports${query}`, {
                headers: { cookie: cookies.get(db)!, accept: "text/html" },
              });
              const html = await response.text();
              if (response.status !== 200 || !html.includes("Prepaid hours")) {
                throw new Error(`the reports page did not render (HTTP ${response.status})`);
              }
            });
            const cpu = process.cpuUsage(cpuBefore);
            if (i >= WARMUP) {
              samples.get(db)!.push(elapsed);
              cpuSamples.get(db)!.push((cpu.user + cpu.system) / 1000);
            }
          }
        }
        const row = {
          engine: big.label,
          period: label,
          small: stats(samples.get(small)!),
          big: stats(samples.get(big)!),
          bigCpu: stats(cpuSamples.get(big)!),
        };
        results.push(row);
        console.log(
          `${row.engine}, ${label}: demo p95 ${ms(row.small.p95)}, bench data p95 ${ms(row.big.p95)}`,
        );
      }
    }
    const table = [
      "| database | period | demo data p50 | demo data p95 | bench data p50 | bench data p95 | bench data CPU p50 / p95 | target met (p95 <= 200 ms) |",
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
      ...results.map(
        (r) =>
          `| ${r.engine} | ${r.period} | ${ms(r.small.p50)} | ${ms(r.small.p95)} | ${ms(r.big.p50)} | ${ms(r.big.p95)} | ${ms(r.bigCpu.p50)} / ${ms(r.bigCpu.p95)} | ${yes(r.big.p95 <= TARGET_P95_MS)} |`,
      ),
    ].join("\n");
    const file = writeSection(
      "reports",
      `## The reports page on the bench data set (issue 30)

\`npm run bench -- reports\` (scripts/bench/reports.ts), run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC: the whole /employee/reports document (session, every query, the SVG charts and tables rendered) through the production build in the bench's process, signed in as the demo's office staff, ${ITERATIONS} requests per row after ${WARMUP} warm-up requests, one at a time, alternating between the demo data and the bench data set (\`npm run cli -- seed:bench\`: 2,000 members over 3 years, 10 handymen, about 15,700 visits, 79,000 ledger entries, 8,000 leads) so both see the same load (${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(2)} at the end, shared with other work). The CPU column is the bench process's CPU time per request on the bench data (the server's work, PGlite's included; PostgreSQL's own is in its server process and not counted), which the machine's other load disturbs less than the elapsed times. Target: p95 at most ${TARGET_P95_MS} ms server time on the bench data. Decisions: docs/decisions/063-reports-read-the-ledgers.md, docs/decisions/070-reports-monthly-summaries.md.

${table}
`,
    );
    console.log(`\n${table}\nwritten to ${file}`);
  } finally {
    await server?.close();
    setDatabase(undefined);
    for (const db of opened) await db.drop().catch(() => {});
    cluster?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.env = savedEnv;
  }
}

// Run directly: `tsx scripts/bench/reports.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
}
