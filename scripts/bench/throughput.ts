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
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  createDatabase,
  startPgCluster,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
} from "../../tests/support/processes";
import {
  DURATION,
  IDLE_SECONDS,
  MEMBER_REQUESTS,
  PAGE_CONNECTIONS,
  REPORT,
  ROOT,
  STATIC_CONNECTIONS,
  TARGETS,
} from "./support/throughput-config";
import { buildFloor, startFloor } from "./support/throughput-floor";
import {
  atRest,
  ensureBuild,
  expectPage,
  measureProduct,
  seed,
} from "./support/throughput-product";
import {
  pageRows as productRows,
  reasons,
  row,
  TABLE_HEADER,
  writeReport,
} from "./support/throughput-report";
import { measureStatic, runStatic, staticReport } from "./support/throughput-static";
import {
  describeLoad,
  machineLoad,
  requireWrk,
  wrk,
  WrkMissingError,
  wrkVersion as readWrkVersion,
} from "./support/throughput-wrk";

export { TARGETS } from "./support/throughput-config";
export { buildFloor, startFloor } from "./support/throughput-floor";
export { EMPLOYEE, MEMBER, seed, signIn } from "./support/throughput-product";
export { measureStatic, type StaticMeasurement } from "./support/throughput-static";
export {
  parseWrk,
  requireWrk,
  wrk,
  WrkMissingError,
  type WrkResult,
} from "./support/throughput-wrk";

/* ---------------- the run ---------------- */

export async function run() {
  requireWrk();
  ensureBuild();
  if (process.env.BENCH_THROUGHPUT === "static") return runStatic();
  const loadBefore = await machineLoad();
  console.log(`throughput bench: machine before: ${describeLoad(loadBefore)}`);
  const wrkVersion = readWrkVersion();

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
    await pgServer.stop();
    const pgliteServer = await startServer({ ...common, DATA_DIR: pgliteDir });
    cleanups.push(() => pgliteServer.stop());
    const pid = pgliteServer.child.pid!;
    const afterStart = await atRest(pid, IDLE_SECONDS);
    const pgliteRun = await measureProduct(pgliteServer, "PGlite", floorPage);
    floor.stop();
    const afterLoad = await atRest(pid, IDLE_SECONDS);
    const loadAfter = await machineLoad();
    console.log(`throughput bench: machine after: ${describeLoad(loadAfter)}`);

    const pageRows = productRows(pgRun, pgliteRun, anchorOf("/healthz") ?? floorForm);

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
