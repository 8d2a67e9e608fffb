import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createFastPath,
  parseAcceptEncoding,
  prepareFastPath,
  type PreparedAnswers,
} from "../../server/fast-path";
import { contentSecurityPolicy, inlineScriptHashes } from "../../server/security";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The static fast path (server/fast-path.ts, ADR 032) over a build made up here: what it answers
 * and with which headers, and what it leaves to Express (here a stand-in that answers 299). The
 * real server's answers are compared with Express's in tests/e2e/fast-path.spec.ts.
 */

const SCRIPT = "document.documentElement.dataset.ready='1'";
const HTML = `<!doctype html><html><head><script>${SCRIPT}</script></head><body>${"<p>Handyman</p>".repeat(200)}</body></html>`;
const SIGN_IN = `<!doctype html><html><body><form method="post"><input name="email"></form><script>${SCRIPT}</script></body></html>`;
const SCRIPT_JS = `export const x = ${JSON.stringify("a".repeat(5000))};\n`;

/** Keep-alive, as a browser: the server says when it closes the connection. */
const agent = new http.Agent({ keepAlive: true });

type Answered = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };

function request(
  base: string,
  pathname: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${pathname}`, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the static fast path", () => {
  let dir: string;
  let database: TestDatabase;
  let prepared: PreparedAnswers;
  let draining = false;
  let trusted = true;
  let server: http.Server;
  let base: string;
  /** "/" asked with brotli before the brotli bodies were made. */
  let beforeBrotli: Answered;
  const get = (pathname: string, headers?: Record<string, string>, method?: string) =>
    request(base, pathname, headers, method);

  beforeAll(async () => {
    database = await useTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-fast-path-"));
    const client = path.join(dir, "client");
    fs.mkdirSync(path.join(client, "assets"), { recursive: true });
    fs.mkdirSync(path.join(dir, "images"));
    fs.writeFileSync(path.join(client, "assets", "page-abc123.js"), SCRIPT_JS);
    fs.writeFileSync(
      path.join(client, "assets", "page-abc123.js.gz"),
      zlib.gzipSync(SCRIPT_JS, { level: 9 }),
    );
    fs.writeFileSync(path.join(client, "assets", "font-abc123.ttf"), "not a type we know");
    fs.writeFileSync(path.join(client, "favicon.ico"), Buffer.alloc(2000, 1));
    fs.writeFileSync(path.join(dir, "images", "porch-1a2b-480.webp"), Buffer.alloc(300, 7));
    prepared = await prepareFastPath({
      publicPages: new Map([
        ["", { html: Buffer.from(HTML), scriptHashes: inlineScriptHashes(HTML) }],
        ["/book-call", { html: Buffer.from(HTML), scriptHashes: inlineScriptHashes(HTML) }],
      ]),
      visitorPages: new Map([
        ["/auth", { html: Buffer.from(SIGN_IN), scriptHashes: inlineScriptHashes(SIGN_IN) }],
      ]),
      searchFiles: new Map([
        [
          "/robots.txt",
          {
            body: Buffer.from("User-agent: *\nAllow: /\n"),
            contentType: "text/plain; charset=utf-8",
            cacheControl: "public, max-age=3600",
          },
        ],
      ]),
      clientDir: client,
      imagesDir: path.join(dir, "images"),
    });
    const fastPath = createFastPath(prepared, {
      isDraining: () => draining,
      trust: () => trusted,
    });
    server = http.createServer((req, res) => {
      if (fastPath(req, res)) return;
      res.writeHead(299, { "content-type": "text/plain" });
      res.end("Express");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    beforeBrotli = await get("/", { "accept-encoding": "gzip, deflate, br, zstd" });
    await prepared.addBrotli();
  });

  afterAll(async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    await database.drop().catch(() => {}); // dropped already by the /healthz test
  });

  it("answers a public page with its hash CSP, the security headers and its cache rule", async () => {
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.body.toString()).toBe(HTML);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-length"]).toBe(String(Buffer.byteLength(HTML)));
    expect(page.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(page.headers["content-security-policy"]).toBe(
      contentSecurityPolicy({ scriptHashes: inlineScriptHashes(HTML), frameSources: [] }),
    );
    expect(page.headers["content-security-policy"]).toContain("'sha256-");
    expect(page.headers["content-security-policy"]).not.toContain("nonce");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(page.headers["permissions-policy"]).toContain("camera=()");
    expect(page.headers.vary).toBe("Accept-Encoding");
    expect(page.headers.etag).toMatch(/^"[0-9a-f]+-[A-Za-z0-9+/]{27}"$/);
    expect(page.headers["content-encoding"]).toBeUndefined();
    expect(page.headers["strict-transport-security"]).toBeUndefined();
  });

  it("sends the gzip or brotli body the client takes, each with its own length and tag", async () => {
    // The brotli bodies are made once the server listens: until then, gzip.
    expect(beforeBrotli.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(beforeBrotli.body).toString()).toBe(HTML);
    const identity = await get("/");
    const br = await get("/", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.headers["content-length"]).toBe(String(br.body.length));
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(HTML);
    const gzip = await get("/", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(HTML);
    expect(new Set([identity.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);
    // q-values count: brotli refused, gzip preferred to identity.
    const picky = await get("/", { "accept-encoding": "br;q=0, gzip;q=0.8, identity;q=0.5" });
    expect(picky.headers["content-encoding"]).toBe("gzip");
    // Deflate is only Express's: a client that takes nothing else goes there.
    expect((await get("/", { "accept-encoding": "deflate" })).status).toBe(299);
  });

  it("answers 304 to a matching If-None-Match, and HEAD without a body", async () => {
    const br = await get("/", { "accept-encoding": "br" });
    const revalidated = await get("/", {
      "accept-encoding": "br",
      "if-none-match": br.headers.etag!,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    expect(revalidated.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(revalidated.headers["content-length"]).toBeUndefined();
    // Another representation's tag does not match this one.
    const other = await get("/", { "if-none-match": br.headers.etag! });
    expect(other.status).toBe(200);
    expect((await get("/", { "if-none-match": "*" })).status).toBe(304);
    expect(
      (
        await get("/", {
          "if-none-match": br.headers.etag!,
          "cache-control": "no-cache",
          "accept-encoding": "br",
        })
      ).status,
    ).toBe(200);

    const head = await get("/", { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(br.headers["content-length"]);
    expect(head.headers["content-encoding"]).toBe("br");
  });

  it("serves a page's path with trailing slashes or a query, as Express's public-page middleware did", async () => {
    for (const pathname of ["/book-call/", "/book-call//", "/book-call?utm_source=mail", "//"]) {
      const answer = await get(pathname);
      expect(answer.status, pathname).toBe(200);
      expect(answer.body.toString(), pathname).toBe(HTML);
    }
  });

  it("serves the build's files with the build's gzip copy and express.static's headers", async () => {
    const file = path.join(dir, "client", "assets", "page-abc123.js");
    const stat = fs.statSync(file);
    const plain = await get("/assets/page-abc123.js");
    expect(plain.status).toBe(200);
    expect(plain.body.toString()).toBe(SCRIPT_JS);
    expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(plain.headers.etag).toBe(
      `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`,
    );
    expect(plain.headers["last-modified"]).toBe(stat.mtime.toUTCString());
    expect(plain.headers["accept-ranges"]).toBe("bytes");
    expect(plain.headers["content-security-policy"]).toBe(
      contentSecurityPolicy({ frameSources: [] }),
    );

    const gzip = await get("/assets/page-abc123.js", { "accept-encoding": "gzip, br" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.body.equals(fs.readFileSync(`${file}.gz`))).toBe(true);
    expect(gzip.headers.vary).toBe("Accept-Encoding");
    const since = await get("/assets/page-abc123.js", {
      "accept-encoding": "gzip",
      "if-modified-since": new Date(Date.now() + 60_000).toUTCString(),
    });
    expect(since.status).toBe(304);

    const icon = await get("/favicon.ico", { "accept-encoding": "br" });
    expect(icon.headers["cache-control"]).toBe("public, max-age=3600");
    expect(icon.headers["content-type"]).toBe("image/vnd.microsoft.icon");
    expect(icon.headers["content-encoding"]).toBe("br");
    const picture = await get("/images/porch-1a2b-480.webp", { "accept-encoding": "gzip" });
    expect(picture.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(picture.headers["content-type"]).toBe("image/webp");
    expect(picture.headers["content-encoding"]).toBeUndefined();
    expect(picture.headers.vary).toBeUndefined();
    // The rendered robots.txt, under compression's 1 KB threshold: sent as it is.
    const robots = await get("/robots.txt", { "accept-encoding": "gzip" });
    expect(robots.body.toString()).toBe("User-agent: *\nAllow: /\n");
    expect(robots.headers["cache-control"]).toBe("public, max-age=3600");
    expect(robots.headers["content-encoding"]).toBeUndefined();
  });

  it("answers the sign-in page to a visitor only: no query, none of Better Auth's cookies", async () => {
    const visitors: Record<string, string>[] = [{}, { cookie: "theme=dark; known-device=abc" }];
    for (const headers of visitors) {
      const page = await get("/auth", headers);
      expect(page.status, JSON.stringify(headers)).toBe(200);
      expect(page.body.toString()).toBe(SIGN_IN);
      // As Express sends a rendered page: no cache may keep it.
      expect(page.headers["cache-control"]).toBe("private, no-store");
      expect(page.headers["content-security-policy"]).toBe(
        contentSecurityPolicy({ scriptHashes: inlineScriptHashes(SIGN_IN), frameSources: [] }),
      );
      expect(page.headers["x-request-id"]).toBeTruthy();
    }
    expect((await get("/auth", {}, "HEAD")).body.length).toBe(0);
    // Anything that can change the page is rendered by React Router, per request.
    const renderedPerRequest: [string, Record<string, string>][] = [
      ["/auth?mode=sign-up", {}],
      ["/auth?step=two-factor", { cookie: "better-auth.two_factor=abc" }],
      ["/auth/", {}],
      ["/auth", { cookie: "better-auth.session_token=abc.def" }],
      ["/auth", { cookie: "theme=dark; __Secure-better-auth.session_token=abc.def" }],
      ["/auth", { cookie: "better-auth.two_factor=abc" }],
      ["/auth", { cookie: "better-auth.session_data=abc" }],
    ];
    for (const [pathname, headers] of renderedPerRequest) {
      const answer = await get(pathname, headers);
      expect(answer.status, `${pathname} ${JSON.stringify(headers)}`).toBe(299);
    }
  });

  it("leaves everything unusual to Express", async () => {
    const leftOver: [string, Record<string, string>?, string?][] = [
      ["/", {}, "POST"],
      ["/", {}, "OPTIONS"],
      ["/", { range: "bytes=0-9" }],
      ["/assets/page-abc123.js", { range: "bytes=0-9" }],
      ["/assets/page-abc123.js", { "if-match": '"x"' }],
      ["/?q=%00"],
      ["/book-call?name=%0a"],
      ["/assets/page-abc123.js/"],
      ["/robots.txt/"],
      ["/healthz/"],
      ["/healthz?full=1"],
      ["/assets/font-abc123.ttf"],
      ["/BOOK-CALL"],
      ["/book%2Dcall"],
      ["/nowhere"],
    ];
    for (const [pathname, headers, method] of leftOver) {
      const answer = await get(pathname, headers, method);
      expect(answer.status, `${method ?? "GET"} ${pathname} ${JSON.stringify(headers)}`).toBe(299);
    }
  });

  it("adds the request id, HSTS from a trusted proxy, and Connection: close while draining", async () => {
    const given = await get("/", { "x-request-id": "abc-123" });
    expect(given.headers["x-request-id"]).toBe("abc-123");
    const long = await get("/", { "x-request-id": "x".repeat(100) });
    expect(long.headers["x-request-id"]).toBe("x".repeat(64));
    const fresh = await get("/robots.txt");
    expect(fresh.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);

    const secure = await get("/assets/page-abc123.js", { "x-forwarded-proto": "https" });
    expect(secure.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
    trusted = false;
    try {
      const forged = await get("/", { "x-forwarded-proto": "https" });
      expect(forged.headers["strict-transport-security"]).toBeUndefined();
    } finally {
      trusted = true;
    }

    expect((await get("/")).headers.connection).toBe("keep-alive");
    draining = true;
    try {
      const closing = await get("/");
      expect(closing.status).toBe(200);
      expect(closing.headers.connection).toBe("close");
      const health = await get("/healthz");
      expect(health.status).toBe(503);
      expect(JSON.parse(health.body.toString())).toEqual({
        status: "draining",
        database: "unknown",
      });
      expect(health.headers.connection).toBe("close");
    } finally {
      draining = false;
    }
  });

  it("answers /healthz with a real database ping: 200 while it answers, 503 when it does not", async () => {
    const up = await get("/healthz", { "x-forwarded-proto": "https" });
    expect(up.status).toBe(200);
    expect(JSON.parse(up.body.toString())).toEqual({ status: "ok", database: "up" });
    expect(up.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(up.headers["cache-control"]).toBe("no-store");
    expect(up.headers["x-content-type-options"]).toBe("nosniff");
    expect(up.headers["strict-transport-security"]).toMatch(/max-age=/);
    const head = await get("/healthz", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(String(up.body.length));

    await database.drop();
    const down = await get("/healthz");
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body.toString())).toMatchObject({ status: "error", database: "down" });
  });
});

describe("parseAcceptEncoding", () => {
  it("reads codings and q-values as compression()'s negotiator does", () => {
    expect(parseAcceptEncoding("gzip, deflate, br, zstd")).toEqual({
      br: 1,
      gzip: 1,
      deflate: 1,
      identity: 1,
    });
    expect(parseAcceptEncoding("gzip;q=0.5")).toEqual({
      br: 0,
      gzip: 0.5,
      deflate: 0,
      identity: 0.5,
    });
    expect(parseAcceptEncoding("*;q=0.2, br;q=0")).toEqual({
      br: 0,
      gzip: 0.2,
      deflate: 0.2,
      identity: 0.2,
    });
    expect(parseAcceptEncoding("GZIP ; Q=0.7, identity;q=0")).toEqual({
      br: 0,
      gzip: 0.7,
      deflate: 0,
      identity: 0,
    });
    expect(parseAcceptEncoding("")).toEqual({ br: 0, gzip: 0, deflate: 0, identity: 1 });
  });
});
