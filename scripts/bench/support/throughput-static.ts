/** Static bytes: our server against nginx serving the same bytes with the same headers. */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import {
  createDatabase,
  startPgCluster,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../../../tests/support/processes";
import { startNginx, type NginxLocation } from "./nginx";
import { DURATION, ROOT, STATIC_CONNECTIONS, TARGETS } from "./throughput-config";
import { pct, row, TABLE_HEADER } from "./throughput-report";
import { describeLoad, machineLoad, wrk, type WrkResult } from "./throughput-wrk";

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
export function staticReport(measured: { results: StaticMeasurement[] }) {
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
export async function runStatic() {
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
