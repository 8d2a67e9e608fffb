/**
 * What one page costs the embedded server, page by page, judged by CPU rather than by wall
 * clock (the machine is shared, so req/s is noisy; the CPU the server spends per answer moves
 * far less):
 *   npx tsx scripts/bench/support/page-cost.ts [seconds per page] [page label filter]
 * Seeds the demo and the bench data set into a PGlite directory (PAGE_COST_DATA=<dir> reuses
 * one seeded before; the path is printed; PAGE_COST_DATABASE_URL=<postgres URL> measures on
 * PostgreSQL instead), starts the production build with every query logged
 * (count-queries.mjs), signs in as the demo member Maria, a bench member with the longest
 * history still active, the demo office staff and a handyman, and for each page the pages
 * bench measures (pagesFor) prints: the queries of one
 * answer (count, rows, JSON size of the rows), the document's size, and under wrk (10
 * connections) the server's CPU ms per request. PAGE_COST_PROFILE=yes adds `--cpu-prof` (the
 * profile's directory is printed); PAGE_COST_SAVE=<dir> keeps each page's document there;
 * QUERY_LOG_FULL=<file> keeps each query whole with its parameters, for query-times.ts.
 */
import { sql } from "drizzle-orm";
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { businessToday } from "~/lib/business-calendar";
import { BENCH_EMAIL_DOMAIN, BENCH_PASSWORD, seedBench } from "../../../server/seed/bench";
import { seedDemo } from "../../../server/seed/demo";
import { startServer, tempDir, TEST_AUTH_SECRET } from "../../../tests/support/processes";
import { benchSeed, measure, pagesFor, signIn } from "../pages";
import { residentMb } from "./proc";

const [seconds = "4", only = ""] = process.argv.slice(2);
const dataDir = process.env.PAGE_COST_DATA ?? tempDir("handyman-page-cost-data-");
// PAGE_COST_DATABASE_URL: a PostgreSQL database instead (seeded here when it has no bench data).
const databaseUrl = process.env.PAGE_COST_DATABASE_URL;
const handle = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir });
await handle.migrate();
const seeded = await handle.db.execute(
  sql.raw(`select count(*)::int as n from "user" where email like '%@${BENCH_EMAIL_DOMAIN}'`),
);
if (!(seeded.rows[0] as { n: number }).n) {
  await seedDemo(handle.db, businessToday());
  await seedBench(handle.db, { today: businessToday() });
}
const longest = await handle.db.execute(
  sql.raw(`select u.email from memberships m join "user" u on u.id = m.customer_id
   where m.status = 'active' and u.email like '%@${BENCH_EMAIL_DOMAIN}'
   order by m.start_date, u.email limit 1`),
);
const benchMember = (longest.rows[0] as { email: string }).email;
await handle.close();
console.log(
  `data: ${databaseUrl ?? `${dataDir} (PAGE_COST_DATA=${dataDir} reuses it)`}; bench member ${benchMember}`,
);

const queryLog = path.join(tempDir("handyman-page-cost-"), "queries.log");
const profileDir = tempDir("handyman-page-cost-profile-");
const nodeArgs = ["--import", path.join(import.meta.dirname, "count-queries.mjs")];
// PAGE_COST_NODE_ARGS="--flag ...": more Node flags for the server, after the shipped ones (an A/B).
nodeArgs.push(...(process.env.PAGE_COST_NODE_ARGS ?? "").split(" ").filter(Boolean));
if (process.env.PAGE_COST_PROFILE === "yes")
  nodeArgs.push("--cpu-prof", `--cpu-prof-dir=${profileDir}`);
const server = await startServer(
  {
    AUTH_SECRET: TEST_AUTH_SECRET,
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    SEED_DEMO: "false",
    LOG_LEVEL: "warn",
    QUERY_LOG: queryLog,
    ...(process.env.QUERY_LOG_FULL ? { QUERY_LOG_FULL: process.env.QUERY_LOG_FULL } : {}),
  },
  { nodeArgs },
);
const origin = server.origin.replace("localhost", "127.0.0.1");

// Every page the pages bench measures (found by following the pages' own links), and the tabs
// of a bench member with the longest history beside Maria's.
const pages = await pagesFor(server.origin, await benchSeed());
const memberCookie = await signIn(server.origin, benchMember, BENCH_PASSWORD, "10.0.2.2");
for (const tab of ["", "?tab=appointments", "?tab=schedule", "?tab=completed", "?tab=membership"])
  pages.push({
    label: `bench member /dashboard${tab}`,
    path: `/dashboard${tab}`,
    cookie: memberCookie,
    mustContain: "",
  });
const shown = pages.filter((p) => !only || p.label.includes(only));

const pid = server.child.pid!;
// At rest first, as the pages bench reads it (10 s after start).
await new Promise((r) => setTimeout(r, 10_000));
console.log(`server resident after start ${residentMb(pid).toFixed(0)} MB`);
const rows: string[] = [];
try {
  for (const page of shown) {
    const url = `${origin}${page.path}`;
    const headers = { accept: "text/html", cookie: page.cookie };
    await fetch(url, { headers }).then((r) => r.text());
    fs.writeFileSync(queryLog, "");
    process.kill(pid, "SIGUSR2");
    await new Promise((r) => setTimeout(r, 50));
    const response = await fetch(url, { headers });
    const body = await response.text();
    if (process.env.PAGE_COST_SAVE)
      fs.writeFileSync(
        path.join(process.env.PAGE_COST_SAVE, `${page.label.replace(/[^a-z0-9]+/gi, "-")}.html`),
        body,
      );
    process.kill(pid, "SIGUSR2");
    await new Promise((r) => setTimeout(r, 50));
    // The outbox worker's rounds are its own, not the page's.
    const logged = fs.readFileSync(queryLog, "utf8").trim().split("\n").filter(Boolean);
    const background = (q: string) => /"outbox"| (begin|commit)$/.test(q);
    const queries = logged.filter((q) => !background(q));
    const queryRows = queries.reduce((s, q) => s + Number(/rows=(\d+)/.exec(q)?.[1] ?? 0), 0);
    const queryBytes = queries.reduce((s, q) => s + Number(/bytes=(\d+)/.exec(q)?.[1] ?? 0), 0);
    await measure("warm-up", url, headers, [pid], 1);
    const result = await measure(page.label, url, headers, [pid], Number(seconds));
    const line = `${page.label}: ${response.status}, ${(body.length / 1024).toFixed(0)} KB, ${queries.length} queries (${queryRows} rows, ${(queryBytes / 1024).toFixed(1)} KB), CPU ${result.cpuMs?.toFixed(2)} ms/request, ${result.rps.toFixed(0)} req/s, p95 ${result.p95.toFixed(1)} ms`;
    console.log(line);
    if (process.env.PAGE_COST_QUERIES === "yes") console.log(`  ${queries.join("\n  ")}`);
    rows.push(line);
  }
  console.log(`server resident after the load ${residentMb(pid).toFixed(0)} MB`);
  await new Promise((r) => setTimeout(r, 10_000));
  console.log(`server resident 10 s later ${residentMb(pid).toFixed(0)} MB`);
} finally {
  await server.stop();
}
if (process.env.PAGE_COST_PROFILE === "yes") console.log(`profiles: ${profileDir}`);
process.exit(0);
