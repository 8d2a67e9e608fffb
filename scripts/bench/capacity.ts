/**
 * Capacity: `npm run bench -- capacity` (issue 31). How many page views a second one server
 * answers with p95 at most 100 ms, on the pages members and staff open, mixed as they open them:
 * the member's dashboard tabs, the booking steps and the staff's tabs (the pages bench's pages,
 * wrk cycling through them with each person's cookie). Measured
 * - embedded (PGlite), one process, with 1, 2, 4 and 10 requests at once;
 * - PostgreSQL, one process, and two processes behind nginx (one worker, keep-alive upstream,
 *   as deploy/nginx/handyman.conf proxies), with 4 and 10 requests at once.
 * Each setting is measured after the framework floor's list page, for the machine's load.
 * Results go to docs/benchmarks.md between <!-- capacity:start --> and <!-- capacity:end -->;
 * docs/operations.md turns them into members and staff.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  createDatabase,
  freePort,
  startPgCluster,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../../tests/support/processes";
import { benchSeed, measure, pagesFor, seed, startFloor } from "./pages";
import { residentMb } from "./support/proc";
import { buildFloor, requireWrk } from "./throughput";
import { waitForPort } from "./support/nginx";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REPORT = path.join(ROOT, "docs", "benchmarks.md");
const START = "<!-- capacity:start -->";
const END = "<!-- capacity:end -->";
const WRK = process.env.WRK ?? "/usr/bin/wrk";
const NGINX = process.env.NGINX ?? "/usr/sbin/nginx";
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

type Result = {
  setting: string;
  connections: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  floor: number;
};

/** A wrk script that cycles through the pages, each with its person's cookie. */
function mixScript(pages: { path: string; cookie: string }[]) {
  const file = path.join(tempDir("handyman-mix-"), "mix.lua");
  const entries = pages
    .map(
      (p) =>
        `  wrk.format("GET", ${JSON.stringify(p.path)}, { ["Accept"] = "text/html", ["Cookie"] = ${JSON.stringify(p.cookie)} })`,
    )
    .join(",\n");
  fs.writeFileSync(
    file,
    `local requests = nil
local i = 0
-- Built at the first request: wrk sets the Host header in its init, after this file is read.
request = function()
  if requests == nil then
    requests = {
${entries}
    }
  end
  i = i % #requests + 1
  return requests[i]
end
done = function(summary, latency, requests)
  io.write(string.format("PERCENTILES %d %d %d %d\\n", latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
`,
  );
  return file;
}

async function runMix(origin: string, script: string, connections: number) {
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(
      WRK,
      ["-t1", `-c${connections}`, `-d${DURATION}s`, "--timeout", "10s", "-s", script, origin],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("exit", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`wrk failed (${code}): ${text}`)),
    );
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  const [p50, p95, p99] = (/PERCENTILES (\d+) (\d+) (\d+)/.exec(output) ?? [])
    .slice(1)
    .map((us) => Number(us) / 1000);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const errors = non2xx + (socket ? socket.slice(1).reduce((s, n) => s + Number(n), 0) : 0);
  return { rps, p50, p95, p99, errors };
}

async function startProxy(upstreams: number[]) {
  const dir = tempDir("handyman-proxy-");
  const port = await freePort();
  fs.mkdirSync(path.join(dir, "tmp"));
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    `daemon off;
master_process off;
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp;
  proxy_temp_path ${dir}/tmp;
  upstream app {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n")}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }
}
`,
  );
  const child = spawn(NGINX, ["-c", path.join(dir, "nginx.conf"), "-p", dir], {
    stdio: "ignore",
  });
  await waitForPort(port);
  return {
    origin: `http://127.0.0.1:${port}`,
    stop() {
      child.kill("SIGQUIT");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function run() {
  requireWrk();
  const bench = await benchSeed();
  const floorBuild = buildFloor();
  const floor = await startFloor(floorBuild.dir);
  const results: Result[] = [];
  const resident: string[] = [];
  const cleanups: (() => unknown)[] = [() => floor.stop(), () => floorBuild.remove()];
  const floorNow = async () =>
    (await measure("floor", `${floor.origin}/list`, {}, [floor.pid], Math.min(5, DURATION))).rps;
  const measureSetting = async (
    setting: string,
    origin: string,
    cookieOrigin: string,
    levels: number[],
  ) => {
    const pages = await pagesFor(cookieOrigin, bench);
    const script = mixScript(pages);
    // Warm-up.
    await runMix(origin, script, 10);
    for (const connections of levels) {
      const floorRps = await floorNow();
      const r = await runMix(origin, script, connections);
      console.log(
        `capacity: ${setting}, ${connections} at once: ${r.rps.toFixed(0)} req/s, p95 ${r.p95.toFixed(1)} ms (floor ${floorRps.toFixed(0)})`,
      );
      results.push({ setting, connections, ...r, floor: floorRps });
    }
  };
  const common = { AUTH_SECRET: TEST_AUTH_SECRET, LOG_LEVEL: "warn", SEED_DEMO: "false" };
  try {
    // Embedded.
    const dataDir = tempDir("handyman-capacity-pglite-");
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    await seed({ dataDir }, bench);
    const embedded = await startServer({ ...common, DATA_DIR: dataDir });
    try {
      await new Promise((r) => setTimeout(r, 10_000));
      const before = residentMb(embedded.child.pid!);
      await measureSetting(
        "embedded (PGlite), one process",
        embedded.origin.replace("localhost", "127.0.0.1"),
        embedded.origin,
        [1, 2, 4, 10],
      );
      resident.push(
        `embedded: ${before.toFixed(0)} MB after start, ${residentMb(embedded.child.pid!).toFixed(0)} MB right after the load`,
      );
    } finally {
      await embedded.stop();
    }
    // PostgreSQL: one process, then two behind nginx.
    const cluster = await startPgCluster();
    cleanups.push(() => cluster.stop());
    const database = await createDatabase(cluster.url);
    cleanups.push(() => database.drop());
    await seed({ databaseUrl: database.url }, bench);
    const servers: ServerProcess[] = [];
    const shared = tempDir("handyman-capacity-data-");
    cleanups.push(() => fs.rmSync(shared, { recursive: true, force: true }));
    for (let i = 0; i < 2; i++)
      servers.push(await startServer({ ...common, DATABASE_URL: database.url, DATA_DIR: shared }));
    try {
      await measureSetting(
        "PostgreSQL, one process",
        servers[0].origin.replace("localhost", "127.0.0.1"),
        servers[0].origin,
        [4, 10],
      );
      if (fs.existsSync(NGINX)) {
        const proxy = await startProxy(servers.map((s) => s.port));
        try {
          // Cookies are signed with the one secret: a session works on either process.
          await measureSetting(
            "PostgreSQL, two processes behind nginx",
            proxy.origin,
            servers[0].origin,
            [4, 10],
          );
        } finally {
          proxy.stop();
        }
      }
    } finally {
      for (const server of servers) await server.stop();
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
  }
  const nginxVersion = fs.existsSync(NGINX)
    ? spawnSync(NGINX, ["-v"], { encoding: "utf8" }).stderr.trim()
    : "no nginx";
  const section = `
## Capacity: one server, the pages people use, mixed (issue 31)

\`npm run bench -- capacity\` (scripts/bench/capacity.ts), run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, ${DURATION} s per measurement, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" / ")} at the end (${os.cpus().length} CPUs, shared with other work; ${nginxVersion}).

Data: ${bench ? "the bench data set on top of the demo" : "the demo data"}. wrk cycles through the pages of the pages bench (every tab of the demo member's dashboard, each booking step, a visit, staff's tabs, a customer's membership page, the week view${bench ? ", the handyman's Today and the reports when present" : ""}), each with its person's cookie, HTML as a page load. "At once" is wrk's connections: each sends its next request when the last is answered. The floor column is the framework floor's list page measured just before, for the machine's load.

| server | at once | page views/s | p50 ms | p95 ms | p99 ms | errors | floor list req/s just before |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${results.map((r) => `| ${r.setting} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} | ${r.floor.toFixed(0)} |`).join("\n")}

${resident.join("; ")}.
`;
  console.log(section);
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

if (import.meta.url === `file://${process.argv[1]}`) {
  run().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
