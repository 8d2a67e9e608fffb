import fs from "node:fs";
import tls from "node:tls";
import { drizzle } from "drizzle-orm/node-postgres";
import { eq } from "drizzle-orm";
import pg from "pg";
import * as schema from "~/db/schema";
import { LEAD_ADDRESS_LIMIT } from "~/features/leads/submit.server";
import type { Database } from "~/db/client.server";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import { fakeIp, HttpClient } from "../support/http";
import { startLoad } from "../support/load";
import {
  nginxVersion,
  postLeadThrough,
  requestThrough,
  startNginxProxy,
  type NginxProxy,
} from "../support/nginx";
import {
  createDatabase,
  freePort,
  startServer,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../support/processes";
import { startLocalS3, type LocalS3 } from "../support/s3-server";
import { undeliveredNow } from "../support/outbox";
import { startSink } from "../support/sink";
import { uploadPhoto } from "../support/world";
import { expect, PASSWORD, test, uniqueEmail } from "./fixtures";

/*
 * The business outgrows one process: two server processes on their own ports share one
 * PostgreSQL database (in TEST_DATABASE_URL's cluster) and one S3-compatible object store
 * (s3rver), behind nginx configured by the product's site file (deploy/nginx/handyman.conf).
 * Some tests speak to one process directly, to show what the two share.
 */

test.describe.configure({ mode: "serial" });

/** The address the load balancer would answer on; both processes build links with it. */
const PUBLIC_URL = "http://localhost:4780";

let database: Awaited<ReturnType<typeof createDatabase>>;
let s3: LocalS3;
let sink: Awaited<ReturnType<typeof startSink>>;
let smtpPort: number;
let pool: pg.Pool;
let db: Database;
let a: ServerProcess;
let b: ServerProcess;
let proxy: NginxProxy;
let env: Record<string, string>;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await createDatabase();
  s3 = await startLocalS3("handyman-scale-out");
  smtpPort = await freePort();
  sink = await startSink({ smtpPort, httpPort: await freePort() });
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  db = drizzle(pool, { schema, casing: "snake_case" });
  env = {
    DATABASE_URL: database.url,
    AUTH_SECRET: TEST_AUTH_SECRET,
    PUBLIC_URL,
    S3_BUCKET: s3.bucket,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    OUTBOX_POLL_MS: "200",
    OUTBOX_BASE_BACKOFF_MS: "200",
    OUTBOX_MAX_BACKOFF_MS: "1000",
    // One proxy hop: nginx (tests that speak to a process directly send their own).
    TRUST_PROXY: "1",
  };
  // Both apply the migrations at start, at the same moment: they must take turns, not fail.
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
  proxy = await startNginxProxy([a.port, b.port]);
});

test.afterAll(async () => {
  await proxy?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await pool?.end();
  await sink?.close();
  await s3?.stop();
  await database?.drop();
});

/** A browser on the public site whose requests reach `server` through the load balancer. */
function client(server: ServerProcess) {
  const http = new HttpClient(server.origin, PUBLIC_URL);
  http.headers["x-forwarded-host"] = new URL(PUBLIC_URL).host;
  return http;
}

async function customer() {
  const email = uniqueEmail("scale");
  const account = await createUser(db, {
    email,
    password: PASSWORD,
    firstName: "Sam",
    lastName: "Scale",
  });
  await createHome(db, account.id);
  return account;
}

/** Server-rendered HTML without React's text separators. */
function visibleText(html: string) {
  return html.replace(/<!-- -->/g, "");
}

async function signInThrough(http: HttpClient, account: { email: string; password: string }) {
  const response = await http.postJson("/api/auth/sign-in/email", {
    email: account.email,
    password: account.password,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

test("two processes started at the same moment on an empty database both come up", async () => {
  for (const server of [a, b]) {
    const health = await fetch(`${server.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", database: "up" });
  }
  const { rows } = await pool.query("select count(*)::int as n from drizzle.__drizzle_migrations");
  const migrationFiles = fs.readdirSync("drizzle").filter((f) => f.endsWith(".sql"));
  expect(rows[0].n).toBe(migrationFiles.length);
});

test("a session made on one process works on the other", async () => {
  const account = await customer();
  const onA = client(a);
  await signInThrough(onA, account);
  const onB = client(b);
  onB.cookies.clear();
  for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
  const page = await onB.get("/dashboard");
  expect(page.status).toBe(200);
  expect(visibleText(await page.text())).toContain(`Welcome, ${account.firstName}`);

  // Signing out on B ends the session on A as well.
  const out = await onB.postJson("/api/auth/sign-out", {});
  expect(out.status).toBe(200);
  const after = await onA.get("/dashboard");
  expect(after.status).toBe(302);
  expect(after.headers.get("location")).toBe("/auth");
});

test("with both workers running, every confirmation e-mail is delivered exactly once", async () => {
  const emails = Array.from({ length: 20 }, (_, i) => uniqueEmail(`signup${i}`));
  await Promise.all(
    emails.map(async (email, i) => {
      const http = client(i % 2 ? b : a);
      const response = await http.postJson("/api/auth/sign-up/email", {
        firstName: "New",
        lastName: "Member",
        email,
        password: PASSWORD,
      });
      expect(response.status, await response.clone().text()).toBe(200);
    }),
  );
  await expect
    .poll(() => sink.mails.filter((m) => emails.includes(m.to[0])).length, { timeout: 30_000 })
    .toBe(emails.length);
  // Give a second delivery, if there were one, time to arrive.
  await new Promise((r) => setTimeout(r, 1_500));
  const received = sink.mails.filter((m) => emails.includes(m.to[0]));
  expect(received).toHaveLength(emails.length);
  expect(new Set(received.map((m) => m.to[0])).size).toBe(emails.length);
  expect(new Set(received.map((m) => m.messageId)).size).toBe(emails.length);
  const pending = await undeliveredNow(db);
  expect(pending).toEqual([]);
});

test("the rate limits are shared: attempts on either process count together, bursts included", async () => {
  // Sign-in: 5 per 15 minutes per e-mail and client address (ADR 021). Wrong passwords from
  // one address, alternating between the processes: the sixth is refused, whichever process
  // gets it.
  const account = await customer();
  const statuses: number[] = [];
  const guesser = fakeIp();
  const from = (server: ServerProcess, ip: string) => {
    const http = client(server);
    http.ip = ip;
    return http;
  };
  for (let i = 0; i < 7; i++) {
    const response = await from(i % 2 ? b : a, guesser).postJson("/api/auth/sign-in/email", {
      email: account.email,
      password: "Not-The-Password-1!",
    });
    statuses.push(response.status);
    if (response.status === 429)
      expect(await response.json()).toMatchObject({ title: "Too many attempts" });
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);

  // A burst: 20 attempts at once for one e-mail from one address, half on each process;
  // exactly 5 get through.
  const target = await customer();
  const burstIp = fakeIp();
  const burst = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      from(i % 2 ? b : a, burstIp)
        .postJson("/api/auth/sign-in/email", { email: target.email, password: "Wrong-Pass-2026!" })
        .then((r) => r.status),
    ),
  );
  expect(burst.filter((s) => s !== 429)).toHaveLength(5);

  // Lead forms: 3 per 10 minutes per e-mail, across both processes.
  const email = uniqueEmail("lead-limit");
  const leads: number[] = [];
  for (let i = 0; i < 5; i++) {
    const response = await client(i % 2 ? b : a).postForm("/?index", {
      name: "Lena Limit",
      zipCode: "30303",
      email,
    });
    leads.push(response.status);
  }
  // Taken leads answer 303 to their result (a form without JavaScript, ADR 025).
  expect(leads).toEqual([303, 303, 303, 429, 429]);
});

test("a photo uploaded through one process is served by the other, from the shared object store", async () => {
  const account = await customer();
  const onA = client(a);
  await signInThrough(onA, account);
  const [home] = await db
    .select()
    .from(schema.homes)
    .where(eq(schema.homes.customerId, account.id));
  const request = await createServiceRequest(db, home, { title: "Cracked tile" });
  const photoId = await uploadPhoto(onA, request.id);

  const onB = client(b);
  for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
  for (const variant of ["full", "thumbnail"]) {
    const response = await onB.get(`/request-photos/${photoId}/${variant}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^image\//);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(100);
  }
  // The files are in the bucket, not on either process's disk.
  const [photo] = await db
    .select()
    .from(schema.requestPhotos)
    .where(eq(schema.requestPhotos.id, photoId));
  const stored = fs.readdirSync(s3.directory, { recursive: true }).map(String);
  expect(stored.some((file) => file.includes(photo.filePath.split("/").pop()!))).toBe(true);
  // Someone else gets nothing, on either process.
  const stranger = client(b);
  await signInThrough(stranger, await customer());
  expect((await stranger.get(`/request-photos/${photoId}/full`)).status).toBe(404);
});

test("behind nginx: TLS with HTTP/2, the server's own compression, the upload ceiling, and each client counted by the address nginx saw", async () => {
  // HTTP/2 is offered.
  const alpn = await new Promise<string | false | null>((resolve, reject) => {
    const socket = tls.connect(
      {
        host: "127.0.0.1",
        port: proxy.httpsPort,
        servername: "localhost",
        ALPNProtocols: ["h2", "http/1.1"],
        rejectUnauthorized: false,
      },
      () => {
        resolve(socket.alpnProtocol);
        socket.end();
      },
    );
    socket.once("error", reject);
  });
  expect(alpn).toBe("h2");
  // Plain http is sent to https.
  const plain = await fetch(`http://127.0.0.1:${proxy.httpPort}/auth`, { redirect: "manual" });
  expect(plain.status).toBe(301);
  expect(plain.headers.get("location")).toMatch(/^https:\/\//);

  // A page, and an asset precompressed at build time passed through as the server sends it.
  const page = await requestThrough(proxy, "/auth");
  expect(page.status).toBe(200);
  const script = /\/assets\/[\w.-]+\.css/.exec(await page.text())?.[0];
  expect(script).toBeTruthy();
  const asset = await requestThrough(proxy, script!, { headers: { "accept-encoding": "gzip" } });
  expect(asset.status).toBe(200);
  expect(asset.headers.get("content-encoding")).toBe("gzip");
  expect(asset.headers.get("cache-control")).toContain("immutable");
  const direct = await fetch(`${a.origin}${script}`, { headers: { "accept-encoding": "gzip" } });
  expect(Buffer.from(await asset.arrayBuffer()).length).toBe(
    Number(direct.headers.get("content-length")),
  );
  // The https the browser used reaches the server: HSTS.
  expect((await requestThrough(proxy, "/auth")).headers.get("strict-transport-security")).toMatch(
    /max-age=/,
  );
  // A body over client_max_body_size is refused by nginx before it reaches a process.
  const tooLarge = await requestThrough(proxy, "/dashboard/requests", {
    method: "POST",
    headers: {
      "content-type": "multipart/form-data; boundary=x",
      "content-length": String(211 * 2 ** 20),
    },
    body: "",
  }).catch((error: Error) => error);
  expect(tooLarge instanceof Response ? tooLarge.status : tooLarge.message).toBe(413);

  // LEAD_ADDRESS_LIMIT leads per 10 minutes per client address: the client on 127.0.0.2 is
  // refused after that many, whatever X-Forwarded-For it sends (nginx replaces it)...
  const statuses: number[] = [];
  for (let i = 0; i <= LEAD_ADDRESS_LIMIT; i++) {
    const response = await postLeadThrough(
      proxy,
      { name: "Paula Proxy", zipCode: "30303", email: uniqueEmail("proxy") },
      { localAddress: "127.0.0.2", forwardedFor: `203.0.113.${i + 1}` },
    );
    statuses.push(response.status);
  }
  expect(statuses).toEqual([...Array<number>(LEAD_ADDRESS_LIMIT).fill(303), 429]);
  // ...while a client on another address, through the same nginx, is not.
  const other = await postLeadThrough(
    proxy,
    { name: "Otto Other", zipCode: "30303", email: uniqueEmail("proxy") },
    { localAddress: "127.0.0.3" },
  );
  expect(other.status).toBe(303);
  expect(proxy.errors()).not.toMatch(/\[(crit|alert|emerg)\]/);
});

test("a rolling restart behind nginx under steady load: every request answered, every lead stored once", async () => {
  test.setTimeout(180_000);
  const account = await customer();
  const member = client(a);
  await signInThrough(member, account);
  const cookie = member.cookieHeader();
  const taken: string[] = [];
  let leadNumber = 0;
  const load = startLoad(
    [
      { name: "home", send: () => requestThrough(proxy, "/") },
      { name: "auth", send: () => requestThrough(proxy, "/auth") },
      {
        name: "dashboard",
        send: () => requestThrough(proxy, "/dashboard", { headers: { cookie } }),
        ok: (status) => status === 200,
      },
      {
        name: "lead",
        send: async () => {
          leadNumber += 1;
          const email = uniqueEmail(`rolling${leadNumber}`);
          // Spread over addresses: each stays far below the per-address lead limit.
          const localAddress = `127.0.1.${(leadNumber % 200) + 1}`;
          const response = await postLeadThrough(
            proxy,
            { name: "Rolling Restart", zipCode: "30303", email },
            { localAddress },
          );
          if (response.status === 303) taken.push(email);
          return response;
        },
        ok: (status) => status === 303,
      },
    ],
    { concurrency: 8 },
  );
  const startedAt = Date.now();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await sleep(1_500);
  // One process after the other: SIGTERM (it drains, then exits), start it again on its port,
  // wait until it answers and nginx's fail_timeout (2 s) has passed, then the next.
  const restarted: string[] = [];
  for (const which of ["a", "b"] as const) {
    const old = which === "a" ? a : b;
    expect(await old.stop()).toBe(0);
    const fresh = await startServer(env, { port: old.port });
    if (which === "a") a = fresh;
    else b = fresh;
    restarted.push(`${which} at ${Date.now() - startedAt} ms`);
    await sleep(2_500);
  }
  const outcomes = await load.stop();
  const seconds = (Date.now() - startedAt) / 1000;

  const failures = outcomes.filter((outcome) => !outcome.ok);
  expect(
    failures.map((f) => `${f.target} ${f.status ?? f.error} at ${f.startedAt - startedAt} ms`),
    proxy.errors(),
  ).toEqual([]);
  const leads = outcomes.filter((outcome) => outcome.target === "lead");
  expect(leads.length).toBeGreaterThan(20);
  // Every lead answered as taken is stored exactly once.
  const rows = await pool.query<{ email: string; n: number }>(
    "select email, count(*)::int as n from lead_entries where email = any($1) group by email",
    [taken],
  );
  expect(rows.rows.length).toBe(taken.length);
  expect(rows.rows.filter((row) => row.n !== 1)).toEqual([]);
  const passedOn = proxy.errors().match(/\[error\].*(failed|timed out).*upstream/g)?.length ?? 0;
  console.log(
    `rolling restart behind ${nginxVersion()}: ${outcomes.length} requests in ${seconds.toFixed(1)} s ` +
      `(${leads.length} leads), 0 failed, every lead stored once; ${passedOn} attempts refused or ` +
      `reset by a stopping process and passed to the other; restarted ${restarted.join(", ")}`,
  );
});
