import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { expect, test } from "./fixtures";
import {
  createDatabase,
  ROOT,
  startServer,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../support/processes";

/*
 * The static fast path (server/fast-path.ts, ADR 032) in the production server: the public
 * pages, robots.txt, sitemap.xml, the build's files and /healthz answered before Express, with
 * what Express answered for the same request. Express's answer is had from the same process by
 * asking what the fast path leaves to it: a Range header (ignored by the public pages and the
 * resource routes, a 206 of the whole file from express.static), or /healthz/.
 */

test.describe.configure({ mode: "serial", timeout: 240_000 });

/** Headers every answer carries, fast or not (server/security.ts). */
const SECURITY = [
  "x-content-type-options",
  "referrer-policy",
  "x-frame-options",
  "cross-origin-opener-policy",
  "permissions-policy",
];

type Answered = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

const agent = new http.Agent({ keepAlive: true });

/** One request with exactly these headers (no decoding, no added Accept-Encoding). */
function request(
  server: ServerProcess,
  pathname: string,
  headers: Record<string, string> = {},
  options: { method?: string; body?: string } = {},
): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        path: pathname,
        method: options.method ?? "GET",
        headers: { host: `localhost:${server.port}`, ...headers },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const withoutNonce = (csp: string | string[] | undefined) =>
  csp?.toString().replace(/ 'nonce-[^']+'/, "");

let server: ServerProcess;
let database: Awaited<ReturnType<typeof createDatabase>>;

test.beforeAll(async () => {
  database = await createDatabase();
  server = await startServer(
    {
      DATABASE_URL: database.url,
      AUTH_SECRET: TEST_AUTH_SECRET,
      LOG_LEVEL: "info",
      SHUTDOWN_DRAIN_MS: "3000",
    },
    { readyTimeoutMs: 180_000 },
  );
});

test.afterAll(async () => {
  agent.destroy();
  await server?.stop();
  await database?.drop();
});

const get = (pathname: string, headers?: Record<string, string>, method?: string) =>
  request(server, pathname, headers, { method });

test("the public pages, robots.txt and sitemap.xml: Express's bytes and headers, with a length, a tag and precompressed bodies", async () => {
  for (const pathname of ["/", "/book-call", "/dunwoody-handyman", "/robots.txt", "/sitemap.xml"]) {
    const fast = await get(pathname);
    const express = await get(pathname, { range: "bytes=0-" });
    expect(fast.status, pathname).toBe(200);
    expect(express.status, pathname).toBe(200);
    // Express answered that one: it sends no tag and streams the body.
    expect(express.headers.etag, pathname).toBeUndefined();
    expect(fast.body.equals(express.body), pathname).toBe(true);
    for (const name of ["content-type", "cache-control", ...SECURITY]) {
      expect(fast.headers[name], `${pathname} ${name}`).toBe(express.headers[name]);
    }
    // The pages' CSP allows their inline scripts by hash; elsewhere there is no nonce to give.
    const page = !pathname.endsWith(".txt") && !pathname.endsWith(".xml");
    if (page) {
      expect(fast.headers["content-security-policy"]).toContain("'sha256-");
      expect(fast.headers["content-security-policy"]).toBe(
        express.headers["content-security-policy"],
      );
    } else {
      expect(fast.headers["content-security-policy"]).toBe(
        withoutNonce(express.headers["content-security-policy"]),
      );
    }
    expect(fast.headers["content-length"], pathname).toBe(String(fast.body.length));
    expect(fast.headers.etag, pathname).toBeTruthy();

    const head = await get(pathname, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(fast.headers["content-length"]);
  }

  for (const pathname of ["/", "/sitemap.xml"]) {
    const identity = await get(pathname);
    // The brotli bodies are made once the server listens (gzip until then).
    const takesBr = { "accept-encoding": "gzip, deflate, br, zstd" };
    await expect
      .poll(async () => (await get(pathname, takesBr)).headers["content-encoding"])
      .toBe("br");
    const br = await get(pathname, takesBr);
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.headers["content-length"]).toBe(String(br.body.length));
    expect(zlib.brotliDecompressSync(br.body).equals(identity.body)).toBe(true);
    const gzip = await get(pathname, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers.vary).toBe("Accept-Encoding");
    expect(zlib.gunzipSync(gzip.body).equals(identity.body)).toBe(true);

    const revalidated = await get(pathname, {
      "accept-encoding": "gzip, deflate, br, zstd",
      "if-none-match": br.headers.etag!,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
  }
  // The booking page at /book-call/ as before (Express's public-page middleware took it too).
  const slash = await get("/book-call/");
  expect(slash.status).toBe(200);
  expect(slash.body.equals((await get("/book-call")).body)).toBe(true);
});

test("the web manifest, made at start with the business's name: Express's bytes and headers", async () => {
  const fast = await get("/site.webmanifest");
  const express = await get("/site.webmanifest", { range: "bytes=0-" });
  expect(fast.status).toBe(200);
  expect(express.status).toBe(200);
  expect(fast.body.equals(express.body)).toBe(true);
  const manifest = JSON.parse(fast.body.toString("utf8")) as { name: string; start_url: string };
  // The business's name as the home page gives it.
  const home = (await get("/")).body.toString("utf8");
  const siteName = /<meta property="og:site_name" content="([^"]+)"/.exec(home)?.[1];
  expect(siteName).toBeTruthy();
  expect(manifest.name).toBe(siteName);
  expect(manifest.start_url).toBe("/");
  for (const name of ["content-type", "cache-control", ...SECURITY]) {
    expect(fast.headers[name], name).toBe(express.headers[name]);
  }
  expect(fast.headers["content-type"]).toBe("application/manifest+json; charset=utf-8");
  expect(fast.headers["content-security-policy"]).toBe(
    withoutNonce(express.headers["content-security-policy"]),
  );
  expect(fast.headers["content-length"]).toBe(String(fast.body.length));
  // Which one answered: Express's compression() says Vary for a type it could compress; the
  // fast path never compresses a body this small, so it does not vary.
  expect(express.headers.vary).toContain("Accept-Encoding");
  expect(fast.headers.vary).toBeUndefined();
});

test("the sign-in page for a visitor: React Router's page without its nonces, with hashes; anyone else's rendered per request", async () => {
  const fast = await get("/auth");
  const rendered = await get("/auth", { range: "bytes=0-" });
  expect(fast.status).toBe(200);
  expect(rendered.status).toBe(200);
  expect(fast.headers.etag).toBeTruthy();
  expect(rendered.headers.etag).toBeUndefined();
  // The same document React Router renders for a request, but for the nonce attributes.
  const withoutNonces = rendered.body.toString().replace(/ nonce="[^"]*"/g, "");
  expect(rendered.body.toString()).toContain(' nonce="');
  expect(fast.body.toString()).toBe(withoutNonces);
  expect(fast.body.toString()).toContain("Sign in to");
  for (const name of ["content-type", "cache-control", ...SECURITY]) {
    expect(fast.headers[name], name).toBe(rendered.headers[name]);
  }
  expect(fast.headers["cache-control"]).toBe("private, no-store");
  const csp = String(fast.headers["content-security-policy"]);
  expect(csp).toContain("'sha256-");
  expect(csp).not.toContain("nonce");
  expect(csp.replace(/ 'sha256-[^']+'/g, "")).toBe(
    withoutNonce(rendered.headers["content-security-policy"]),
  );

  // A query or a Better Auth cookie goes to React Router: its nonce is in the answer's CSP.
  const renderedPerRequest: [string, Record<string, string>][] = [
    ["/auth?mode=sign-up", {}],
    ["/auth", { cookie: "better-auth.session_token=not-a-session" }],
  ];
  for (const [pathname, headers] of renderedPerRequest) {
    const answer = await get(pathname, headers);
    expect(answer.status, pathname).toBe(200);
    expect(answer.headers["content-security-policy"], pathname).toContain("'nonce-");
  }
});

test("the build's files: express.static's headers, the build's gzip copy, a Range left to express.static", async () => {
  const assets = path.join(ROOT, "build/client/assets");
  // The biggest script (some route modules are a byte or two).
  const script = fs
    .readdirSync(assets)
    .filter((f) => f.endsWith(".js") && fs.existsSync(path.join(assets, `${f}.gz`)))
    .sort(
      (a, b) => fs.statSync(path.join(assets, b)).size - fs.statSync(path.join(assets, a)).size,
    )[0];
  expect(script).toBeTruthy();
  const picture = fs.readdirSync(path.join(ROOT, "build/images")).find((f) => f.endsWith(".webp"));
  expect(picture).toBeTruthy();
  for (const [pathname, file, cacheControl] of [
    [`/assets/${script}`, path.join(assets, script!), "public, max-age=31536000, immutable"],
    [
      `/images/${picture}`,
      path.join(ROOT, "build/images", picture!),
      "public, max-age=31536000, immutable",
    ],
    ["/favicon.ico", path.join(ROOT, "build/client/favicon.ico"), "public, max-age=3600"],
  ]) {
    const fast = await get(pathname);
    const express = await get(pathname, { range: "bytes=0-" });
    expect(express.status, pathname).toBe(206);
    expect(fast.status, pathname).toBe(200);
    expect(fast.body.equals(fs.readFileSync(file)), pathname).toBe(true);
    expect(fast.headers["cache-control"], pathname).toBe(cacheControl);
    for (const name of [
      "content-type",
      "cache-control",
      "etag",
      "last-modified",
      "accept-ranges",
      ...SECURITY,
    ]) {
      expect(fast.headers[name], `${pathname} ${name}`).toBe(express.headers[name]);
    }
    expect(fast.headers["content-security-policy"]).toBe(
      withoutNonce(express.headers["content-security-policy"]),
    );
  }

  const gzip = await get(`/assets/${script}`, { "accept-encoding": "gzip, deflate, br, zstd" });
  expect(gzip.headers["content-encoding"]).toBe("gzip");
  expect(gzip.headers.vary).toBe("Accept-Encoding");
  expect(gzip.body.equals(fs.readFileSync(path.join(assets, `${script}.gz`)))).toBe(true);
  const revalidated = await get(`/assets/${script}`, {
    "accept-encoding": "gzip",
    "if-none-match": gzip.headers.etag!,
  });
  expect(revalidated.status).toBe(304);
  expect(revalidated.body.length).toBe(0);

  const range = await get(`/assets/${script}`, { range: "bytes=0-9", "accept-encoding": "gzip" });
  expect(range.status).toBe(206);
  expect(range.headers["content-range"]).toMatch(/^bytes 0-9\//);
  expect(range.body.length).toBe(10);
});

test("/healthz without Express: Express's JSON, status and headers, after a real database ping", async () => {
  const fast = await get("/healthz");
  const express = await get("/healthz/");
  expect(fast.status).toBe(200);
  expect(JSON.parse(fast.body.toString())).toEqual({ status: "ok", database: "up" });
  expect(fast.body.equals(express.body)).toBe(true);
  expect(express.status).toBe(200);
  for (const name of ["content-type", "cache-control", "content-length", ...SECURITY]) {
    expect(fast.headers[name], name).toBe(express.headers[name]);
  }
  // Not Express's answer: no nonce (nothing to allow) and no tag (nothing to revalidate).
  expect(fast.headers["content-security-policy"]).toBe(
    withoutNonce(express.headers["content-security-policy"]),
  );
  expect(express.headers["content-security-policy"]).toMatch(/'nonce-/);
  expect(fast.headers.etag).toBeUndefined();
  const head = await get("/healthz", {}, "HEAD");
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);

  // The database refuses the server's connections: the ping fails, and /healthz says so.
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`alter database ${database.name} allow_connections false`);
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1", [
      database.name,
    ]);
    await expect
      .poll(async () => {
        const down = await get("/healthz");
        return [down.status, JSON.parse(down.body.toString()).database];
      })
      .toEqual([503, "down"]);
  } finally {
    await admin.query(`alter database ${database.name} allow_connections true`);
    await admin.end();
  }
  await expect.poll(async () => (await get("/healthz")).status, { timeout: 15_000 }).toBe(200);
});

test("what the fast path leaves reaches Express: a form posted to the home page, a control character, a page not found", async () => {
  const origin = `http://localhost:${server.port}`;
  const lead = await request(
    server,
    "/?index",
    { origin, "content-type": "application/x-www-form-urlencoded" },
    {
      method: "POST",
      body: new URLSearchParams({
        name: "<>",
        zipCode: "123456",
        email: "x@example.com",
      }).toString(),
    },
  );
  // The lead action answered: it re-checks the fields and refuses these.
  expect(lead.status).toBe(400);
  expect(lead.body.toString()).toContain("Name contains invalid characters");

  expect((await get("/?q=%00")).status).toBe(400);
  const missing = await get("/nowhere");
  expect(missing.status).toBe(404);
  expect(missing.headers["content-security-policy"]).toMatch(/'nonce-/);
});

test("the request id, HSTS behind a proxy that says https, and one log line per request (none for /healthz)", async () => {
  const id = `fast-path-${Date.now()}`;
  const page = await get("/", { "x-request-id": id, "x-forwarded-proto": "https" });
  expect(page.headers["x-request-id"]).toBe(id);
  expect(page.headers.etag).toBeTruthy(); // the fast path's answer
  expect(page.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
  expect((await get("/")).headers["strict-transport-security"]).toBeUndefined();
  expect((await get("/robots.txt")).headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  const healthId = `fast-path-health-${Date.now()}`;
  await get("/healthz", { "x-request-id": healthId });

  const logged = () =>
    server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  await expect
    .poll(() => logged().find((line) => line.requestId === id))
    .toMatchObject({
      msg: "request",
      method: "GET",
      path: "/",
      status: 200,
    });
  expect(typeof logged().find((line) => line.requestId === id)!.ms).toBe("number");
  expect(logged().some((line) => line.requestId === healthId)).toBe(false);
});

test("draining: the fast path's answers say Connection: close and /healthz says draining", async () => {
  server.child.kill("SIGTERM");
  await expect.poll(() => server.output()).toContain("shutting down");
  const page = await get("/");
  expect(page.status).toBe(200);
  expect(page.headers.etag).toBeTruthy(); // the fast path's answer
  expect(page.headers.connection).toBe("close");
  const asset = await get("/favicon.ico");
  expect(asset.headers.connection).toBe("close");
  const health = await get("/healthz");
  expect(health.status).toBe(503);
  expect(JSON.parse(health.body.toString())).toEqual({ status: "draining", database: "unknown" });
  expect(health.headers.connection).toBe("close");
  expect(await server.exited).toBe(0);
});
