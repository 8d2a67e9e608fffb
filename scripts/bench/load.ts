/**
 * Load: `npm run bench` (or `npm run bench -- load`).
 *
 * Starts the production build (one server process) on a throwaway PostgreSQL cluster with
 * seeded data, and drives a mixed workload with autocannon: BENCH_CONNECTIONS (100) connections
 * for BENCH_DURATION (60) seconds, split between marketing pages, sign-in, the customer
 * dashboard, request creation with a photo and the employee list, each route measured on its
 * own (latency under a mixed load). Throughput against nginx and the framework floor is
 * measured with wrk by scripts/bench/throughput.ts. Writes the figures to docs/benchmarks.md
 * between the load markers.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { hashPassword } from "better-auth/crypto";
import pg from "pg";
import {
  createDatabase,
  startPgCluster,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../../tests/support/processes";
import { table, type RouteResult } from "./support/load-report";
import { multipart, samplePhoto } from "./support/load-upload";

const ROOT = path.resolve(import.meta.dirname, "../..");
const REPORT = path.join(ROOT, "docs", "benchmarks.md");
const START = "<!-- load:start -->";
const END = "<!-- load:end -->";
const PASSWORD = "Bench-Pass-2026!";

const DURATION = Number(process.env.BENCH_DURATION ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
/** Customers whose sessions browse the dashboard and create requests. */
const DASHBOARD_CUSTOMERS = 200;
/**
 * Accounts that only sign in, each once per pass (the limit is 5 per 15 minutes): past
 * 5 × SIGN_IN_ACCOUNTS sign-ins in a run the limit answers 429, counted as errors.
 */
const SIGN_IN_ACCOUNTS = 4000;

type Route = {
  name: string;
  what: string;
  share: number;
  expected: (status: number) => boolean;
  options: (origin: string) => autocannon.Options;
};

/* ---------------- measuring ---------------- */

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One autocannon instance; latencies and statuses recorded per response. */
function measure(
  route: Pick<Route, "name" | "what" | "expected">,
  options: autocannon.Options,
): Promise<RouteResult> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    let unexpected = 0;
    const instance = autocannon(options, (error, result) => {
      if (error) return reject(error);
      latencies.sort((a, b) => a - b);
      resolve({
        name: route.name,
        what: route.what,
        connections: options.connections ?? 10,
        requests: latencies.length,
        rps: latencies.length / result.duration,
        p50: percentile(latencies, 50),
        p95: percentile(latencies, 95),
        p99: percentile(latencies, 99),
        errors: unexpected + result.errors,
        latencies,
        statuses: {
          ...statuses,
          ...(result.errors ? { "socket errors": result.errors } : {}),
          ...(result.timeouts ? { timeouts: result.timeouts } : {}),
        },
      });
    });
    instance.on("response", (_client, status, _bytes, ms) => {
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (!route.expected(status)) unexpected++;
    });
  });
}

/* ---------------- the product under test ---------------- */

function ensureBuild() {
  if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
    execFileSync("node", ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  }
}

/** Seeds in bulk with SQL (one password hash for everyone: hashing 4,000 would take minutes). */
async function seed(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const hash = await hashPassword(PASSWORD);
  await client.query("begin");
  // One employee, the dashboard customers (with a home and eight requests each), then the
  // sign-in accounts (a home each, so sign-in leads to the dashboard like a real member).
  await client.query(
    `insert into "user" (id, name, email, email_verified)
     select 'bench-' || g, 'Bench Person ' || g, 'bench-' || g || '@example.com', true
     from generate_series(0, $1::int) g`,
    [DASHBOARD_CUSTOMERS + SIGN_IN_ACCOUNTS],
  );
  await client.query(
    `insert into account (id, account_id, provider_id, user_id, password)
     select 'acct-' || id, id, 'credential', id, $1 from "user" where id like 'bench-%'`,
    [hash],
  );
  await client.query(
    `insert into profiles (user_id, first_name, last_name, phone, is_employee)
     select id, 'Bench', 'Person ' || substr(id, 7), '(404) 555-0100', id = 'bench-0'
     from "user" where id like 'bench-%'`,
  );
  await client.query(
    `insert into homes (customer_id, address, city, state, zip_code, property_notes)
     select id, (100 + substr(id, 7)::int) || ' Peachtree St NE', 'Atlanta', 'GA', '30303',
            'Gate code 1234'
     from "user" where id like 'bench-%' and id <> 'bench-0'`,
  );
  await client.query(
    `insert into service_requests (home_id, customer_id, title, description, priority, status, position)
     select h.id, h.customer_id, 'Request ' || n || ' of ' || h.customer_id,
            'The hall closet door sticks in humid weather and needs planing.',
            (case when n % 2 = 0 then 'next' else 'later' end)::request_priority,
            (array['new','reviewed','scheduled','complete'])[1 + n % 4]::request_status, n
     from homes h cross join generate_series(1, 8) n
     where substr(h.customer_id, 7)::int between 1 and $1`,
    [DASHBOARD_CUSTOMERS],
  );
  await client.query("commit");
  const {
    rows: [counts],
  } = await client.query(
    `select (select count(*) from "user")::int as users,
            (select count(*) from service_requests)::int as requests`,
  );
  await client.end();
  return counts as { users: number; requests: number };
}

async function signIn(origin: string, email: string, ip: string) {
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

async function sessions(origin: string) {
  const emails = Array.from(
    { length: DASHBOARD_CUSTOMERS },
    (_, i) => `bench-${i + 1}@example.com`,
  );
  const cookies: string[] = [];
  for (let i = 0; i < emails.length; i += 8) {
    cookies.push(
      ...(await Promise.all(
        emails.slice(i, i + 8).map((email, j) => signIn(origin, email, ip(100_000 + i + j))),
      )),
    );
  }
  const employee = await signIn(origin, "bench-0@example.com", ip(99_999));
  return { customers: cookies, employee };
}

/** A distinct client address per number (X-Forwarded-For; the server runs with TRUST_PROXY). */
function ip(n: number) {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

function mixedRoutes(
  origin: string,
  cookies: { customers: string[]; employee: string },
  photo: Buffer,
): Route[] {
  let nextCustomer = 0;
  const customerCookie = () => cookies.customers[nextCustomer++ % cookies.customers.length];
  let nextSignIn = 0;
  const boundary = "----bench-boundary-7MA4YWxkTrZu0gW";
  const createBody = multipart(
    boundary,
    {
      title: "Porch light flickers",
      description: "The porch light flickers when the door closes. Photo attached.",
      priority: "later",
    },
    photo,
  );
  const marketing = [
    "/",
    "/book-call",
    "/dunwoody-handyman",
    "/buckhead-handyman",
    "/decatur-handyman",
  ];
  return [
    {
      name: "Marketing pages",
      what: "GET /, /book-call and three city pages (prerendered HTML)",
      share: 0.35,
      expected: (s) => s === 200,
      options: () => ({
        url: origin,
        requests: marketing.map((p) => ({ method: "GET", path: p })),
      }),
    },
    {
      name: "Sign-in",
      what: "POST /api/auth/sign-in/email (password check, session row, rate-limit rows)",
      share: 0.1,
      expected: (s) => s === 200,
      options: () => ({
        url: origin,
        requests: [
          {
            method: "POST",
            path: "/api/auth/sign-in/email",
            setupRequest: (request) => {
              const n = nextSignIn++;
              const account = DASHBOARD_CUSTOMERS + 1 + (n % SIGN_IN_ACCOUNTS);
              return {
                ...request,
                headers: {
                  "content-type": "application/json",
                  origin,
                  "x-forwarded-for": ip(n),
                },
                body: JSON.stringify({ email: `bench-${account}@example.com`, password: PASSWORD }),
              };
            },
          },
        ],
      }),
    },
    {
      name: "Customer dashboard",
      what: "GET /dashboard signed in (200 customers, 8+ requests each)",
      share: 0.25,
      expected: (s) => s === 200,
      options: () => ({
        url: origin,
        requests: [
          {
            method: "GET",
            path: "/dashboard",
            setupRequest: (request) => ({
              ...request,
              headers: { cookie: customerCookie(), accept: "text/html" },
            }),
          },
        ],
      }),
    },
    {
      name: "Request creation with a photo",
      what: `POST /dashboard/requests, multipart, one ${Math.round(photo.length / 1024)} KB JPEG (checked, re-encoded, thumbnailed, stored)`,
      share: 0.1,
      expected: (s) => s === 201,
      options: () => ({
        url: origin,
        requests: [
          {
            method: "POST",
            path: "/dashboard/requests",
            setupRequest: (request) => ({
              ...request,
              headers: {
                cookie: customerCookie(),
                origin,
                accept: "application/json",
                "content-type": `multipart/form-data; boundary=${boundary}`,
              },
              body: createBody,
            }),
          },
        ],
      }),
    },
    {
      name: "Employee list",
      what: "GET /employee signed in as an employee (all requests, newest first, paged)",
      share: 0.2,
      expected: (s) => s === 200,
      options: () => ({
        url: origin,
        requests: [
          {
            method: "GET",
            path: "/employee",
            headers: { cookie: cookies.employee, accept: "text/html" },
          },
        ],
      }),
    },
  ];
}

/* ---------------- report ---------------- */

function writeReport(section: string) {
  let text = fs.existsSync(REPORT)
    ? fs.readFileSync(REPORT, "utf8")
    : "# Benchmarks\n\nFigures written by `npm run bench`; each module rewrites only its own section.\n";
  const block = `${START}\n${section.trim()}\n${END}`;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start !== -1 && end > start) {
    text = text.slice(0, start) + block + text.slice(end + END.length);
  } else {
    text = `${text.trimEnd()}\n\n${block}\n`;
  }
  fs.writeFileSync(REPORT, text);
}

function machine(pgVersion: string, loadAtStart: number[]) {
  const cpus = os.cpus();
  return [
    `- Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.type()} ${os.release()}; load average ${loadAtStart
      .map((l) => l.toFixed(1))
      .join(" / ")} (1/5/15 min) when the run began.`,
    `- Software: Node.js ${process.version}, ${pgVersion}. autocannon runs on the same machine and takes CPU from the server.`,
  ].join("\n");
}

/* ---------------- the run ---------------- */

export async function run() {
  ensureBuild();
  const loadAtStart = os.loadavg();
  console.log("load bench: starting PostgreSQL");
  const cluster = await startPgCluster();
  const database = await createDatabase(cluster.url);
  const dataDir = tempDir("handyman-bench-data-");
  let server: ServerProcess | undefined;
  try {
    server = await startServer({
      DATABASE_URL: database.url,
      AUTH_SECRET: TEST_AUTH_SECRET,
      DATA_DIR: dataDir,
      TRUST_PROXY: "true",
      LOG_LEVEL: "warn",
    });
    const origin = server.origin.replace("localhost", "127.0.0.1");
    const counts = await seed(database.url);
    console.log(`load bench: seeded ${counts.users} accounts, ${counts.requests} requests`);
    const cookies = await sessions(server.origin);
    const photo = await samplePhoto();
    const pgVersion = (
      await (async () => {
        const c = new pg.Client({ connectionString: database.url });
        await c.connect();
        const { rows } = await c.query("show server_version");
        await c.end();
        return `PostgreSQL ${rows[0].server_version}`;
      })()
    ).split(" (")[0];
    const environment = machine(pgVersion, loadAtStart);

    // 1. The mixed workload: every route at once, each on its share of the connections.
    const routes = mixedRoutes(server.origin, cookies, photo);
    let assigned = 0;
    const plan = routes.map((route, index) => {
      const connections =
        index === routes.length - 1
          ? CONNECTIONS - assigned
          : Math.max(1, Math.round(route.share * CONNECTIONS));
      assigned += connections;
      return { route, connections };
    });
    console.log(`load bench: mixed workload, ${CONNECTIONS} connections for ${DURATION} s`);
    const mixed = await Promise.all(
      plan.map(({ route, connections }) =>
        measure(route, {
          ...route.options(origin),
          url: origin,
          connections,
          duration: DURATION,
          timeout: 30,
        }),
      ),
    );
    const all = mixed.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const total: RouteResult = {
      name: "**All routes**",
      what: "",
      connections: CONNECTIONS,
      requests: all.length,
      rps: mixed.reduce((sum, r) => sum + r.rps, 0),
      p50: percentile(all, 50),
      p95: percentile(all, 95),
      p99: percentile(all, 99),
      errors: mixed.reduce((sum, r) => sum + r.errors, 0),
      statuses: {},
      latencies: all,
    };

    const section = `
## Load

Produced by \`npm run bench\` (module \`scripts/bench/load.ts\`) on ${new Date().toISOString().slice(0, 10)}.
The production build, one server process, on PostgreSQL (a throwaway cluster started by the
bench: \`fsync=off\`, so writes cost less than on a durable server), ${counts.users} accounts
and ${counts.requests} service requests seeded. Local disk for photos.

${environment}

### Mixed workload: ${CONNECTIONS} connections for ${DURATION} s, all routes at once

Each route runs on its own share of the connections, at the same time as the others; latency is
measured per response (p50/p95/p99 from every response, not from samples). An error is any
answer other than the one the route should give (200; 201 for request creation), a socket error
or a timeout (30 s).

${table([...mixed, total])}

${mixed.map((r) => `- ${r.name}: ${r.what}. Statuses: ${JSON.stringify(r.statuses)}.`).join("\n")}

Throughput of single pages against nginx and the framework floor is measured with wrk in the
throughput section (scripts/bench/throughput.ts): autocannon, which drives this mixed workload,
tops out near 2,800 req/s on this machine, below what the servers can serve, so it is not used
for ratios to nginx.
`;
    writeReport(section);
    console.log(`load bench: written to ${path.relative(ROOT, REPORT)}`);
    console.log(table([...mixed, total]));
  } finally {
    await server?.stop();
    await database.drop().catch(() => {});
    await cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// `tsx scripts/bench/load.ts` runs it directly too.
if (import.meta.url === `file://${process.argv[1]}`) {
  run().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
