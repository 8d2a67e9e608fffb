import crypto from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { ANY_AUTH_COOKIE } from "~/lib/auth-cookies";
import { logger } from "~/lib/logger.server";
import { loggablePath } from "./app";
import { checkHealth } from "./health";
import type { PublicPages, RenderedFile } from "./public-pages";
import { contentSecurityPolicy, frameSources, HSTS, SECURITY_HEADERS } from "./security";

/*
 * The static fast path (ADR 032): the answers that are the same for everyone, served by plain
 * node:http before Express and React Router see the request. At start every one of them is
 * prepared whole: the public pages (rendered at start, server/public-pages.ts), robots.txt and
 * sitemap.xml (rendered at start by the server build), the web manifest, the client build's
 * files and the pictures, each in memory with every header computed once and, where it pays,
 * its gzip and brotli bodies. Per request the fast path only looks the path up, picks the
 * encoding, answers 304 to a matching If-None-Match, and adds what depends on the request:
 * X-Request-Id, HSTS over https, Connection: close while draining, and the log line. /healthz
 * is answered here too, with a real database ping. Anything else, and anything unusual about
 * one of these requests (another method, a Range, a control character in the query), goes on
 * to Express, which answers it exactly as before.
 */

/** A request handler that answers, or returns false for Express to answer. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/** One representation of an answer: its bytes and its headers, ready for writeHead. */
type Variant = {
  body: Buffer;
  etag: string;
  /** The 200's headers, flat ([name, value, name, value, ...]). */
  headers: readonly string[];
  /** The 304's: the same without the Content-* fields of the body. */
  notModified: readonly string[];
  /** A file's mtime in whole seconds, for If-Modified-Since. */
  lastModified?: number;
};

type Answer = {
  /**
   * A public page also answers its path with trailing slashes, as Express did. A visitor page
   * answers only its exact path, with no query, to a request without Better Auth's cookies.
   */
  kind: "page" | "visitor" | "file" | "rendered";
  identity: Variant;
  gzip?: Variant;
  br?: Variant;
};

export type PreparedAnswers = {
  answers: ReadonlyMap<string, Answer>;
  /** /healthz's fixed headers (its status and body come from the ping). */
  healthHeaders: readonly string[];
  /**
   * Makes the brotli bodies (quality 11: most of a second of CPU for the pages), called once the
   * server listens so that start-up does not wait for them; until an answer has its brotli body,
   * it offers gzip.
   */
  addBrotli(): Promise<void>;
};

export type FastPathSite = {
  publicPages: PublicPages;
  /** The sign-in page as a visitor gets it, rendered at start (ADR 034). */
  visitorPages?: PublicPages;
  /**
   * Files made at start from the settings: robots.txt and sitemap.xml (server/public-pages.ts),
   * the web manifest (server/web-manifest.ts).
   */
  searchFiles: ReadonlyMap<string, RenderedFile>;
  /** build/client: the assets (under /assets) and the other client files (favicon, icons). */
  clientDir: string;
  /** build/images, served under /images. */
  imagesDir: string;
};

/** Cache-Control exactly as Express's static middleware sent them. */
const IMMUTABLE = "public, max-age=31536000, immutable";
const ONE_HOUR = "public, max-age=3600";
const PAGE_CACHE = "public, max-age=0, must-revalidate";
/** What Express sends with a rendered page (server/app.ts): no cache may keep it. */
const RENDERED_PAGE_CACHE = "private, no-store";

/**
 * Content types by extension, as express.static sends them; a file of any other type is left
 * to express.static. `compressible`: worth a gzip and a brotli body (as compression() judged).
 */
const FILE_TYPES: Record<string, { type: string; compressible: boolean }> = {
  ".js": { type: "text/javascript; charset=utf-8", compressible: true },
  ".css": { type: "text/css; charset=utf-8", compressible: true },
  ".json": { type: "application/json; charset=utf-8", compressible: true },
  ".svg": { type: "image/svg+xml", compressible: true },
  ".ico": { type: "image/vnd.microsoft.icon", compressible: true },
  ".txt": { type: "text/plain; charset=utf-8", compressible: true },
  ".png": { type: "image/png", compressible: false },
  ".webp": { type: "image/webp", compressible: false },
  ".avif": { type: "image/avif", compressible: false },
  ".woff2": { type: "font/woff2", compressible: false },
  ".gz": { type: "application/gzip", compressible: false },
};

/** compression()'s threshold: smaller bodies are sent as they are. */
const COMPRESS_FROM_BYTES = 1024;
/** Bigger files stay with express.static, which streams them. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** Everything the fast path serves, with its headers; compression runs on the thread pool. */
export async function prepareFastPath(site: FastPathSite): Promise<PreparedAnswers> {
  const frames = frameSources();
  const plainCsp = contentSecurityPolicy({ frameSources: frames });
  const pending: Promise<[string, Answer | undefined]>[] = [];
  const later: BrotliJob[] = [];

  // Where two could answer one path, the later wins: in the reverse of the order Express tried
  // them (/images, the public pages, /assets, the other client files, then React Router).
  for (const [route, file] of site.searchFiles) {
    const fields = { type: file.contentType, cacheControl: file.cacheControl, csp: plainCsp };
    const answer = rendered(file.body, "rendered", fields, later);
    pending.push(answer.then((prepared) => [route, prepared]));
  }
  const files = (dir: string, prefix: string, cacheControl: string) => {
    for (const file of listFiles(dir)) {
      if (prefix === "/" && file.startsWith("assets/")) continue;
      const answer = fileAnswer(path.join(dir, file), cacheControl, plainCsp, later);
      pending.push(answer.then((prepared) => [`${prefix}${file}`, prepared]));
    }
  };
  files(site.clientDir, "/", ONE_HOUR);
  files(path.join(site.clientDir, "assets"), "/assets/", IMMUTABLE);
  for (const [route, page] of site.publicPages) {
    const csp = contentSecurityPolicy({ scriptHashes: page.scriptHashes, frameSources: frames });
    const fields = { type: "text/html; charset=utf-8", cacheControl: PAGE_CACHE, csp };
    const answer = rendered(page.html, "page", fields, later);
    pending.push(answer.then((prepared) => [route === "" ? "/" : route, prepared]));
  }
  for (const [route, page] of site.visitorPages ?? []) {
    const csp = contentSecurityPolicy({ scriptHashes: page.scriptHashes, frameSources: frames });
    const fields = { type: "text/html; charset=utf-8", cacheControl: RENDERED_PAGE_CACHE, csp };
    const answer = rendered(page.html, "visitor", fields, later);
    pending.push(answer.then((prepared) => [route, prepared]));
  }
  files(site.imagesDir, "/images/", IMMUTABLE);

  const answers = new Map<string, Answer>();
  for (const [route, answer] of await Promise.all(pending)) {
    if (answer) answers.set(route, answer);
  }
  const healthHeaders = [
    "Content-Type",
    "application/json; charset=utf-8",
    "Cache-Control",
    "no-store",
    ...securityHeaders(plainCsp),
  ];
  let brotli: Promise<void> | undefined;
  const addBrotli = () => (brotli ??= Promise.all(later.map((job) => job())).then(() => undefined));
  return { answers, healthHeaders, addBrotli };
}

/** Paths of the regular files under `dir`, relative, with "/" (dotfiles left out, as send does). */
function listFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".")) return [];
    const relative = `${prefix}${entry.name}`;
    if (entry.isDirectory()) return listFiles(path.join(dir, entry.name), `${relative}/`);
    return entry.isFile() ? [relative] : [];
  });
}

function securityHeaders(csp: string) {
  return ["Content-Security-Policy", csp, ...SECURITY_HEADERS.flat()];
}

/** An entity tag of the bytes themselves: the same in every process serving the same build. */
function contentTag(body: Buffer) {
  const hash = crypto.createHash("sha1").update(body).digest("base64").slice(0, 27);
  return `"${body.length.toString(16)}-${hash}"`;
}

/** express.static's entity tag (the `etag` package's, from the file's size and mtime). */
function fileTag(stat: fs.Stats) {
  return `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`;
}

type Fields = {
  type: string;
  cacheControl: string;
  csp: string;
  /** Other encodings exist: Vary: Accept-Encoding on every one. */
  vary: boolean;
  encoding?: "gzip" | "br";
  /** A file's: Last-Modified, and Accept-Ranges (a Range goes on to express.static). */
  modified?: Date;
};

function variant(body: Buffer, etag: string, fields: Fields): Variant {
  const validators = [
    "Cache-Control",
    fields.cacheControl,
    "ETag",
    etag,
    ...(fields.modified
      ? ["Last-Modified", fields.modified.toUTCString(), "Accept-Ranges", "bytes"]
      : []),
    ...(fields.vary ? ["Vary", "Accept-Encoding"] : []),
    ...securityHeaders(fields.csp),
  ];
  return {
    body,
    etag,
    headers: [
      "Content-Type",
      fields.type,
      "Content-Length",
      String(body.length),
      ...(fields.encoding ? ["Content-Encoding", fields.encoding] : []),
      ...validators,
    ],
    notModified: validators,
    // HTTP dates have whole seconds.
    lastModified: fields.modified && Math.floor(fields.modified.getTime() / 1000) * 1000,
  };
}

/** Adds an answer's brotli body, once the server listens (PreparedAnswers.addBrotli). */
type BrotliJob = () => Promise<void>;

/**
 * An answer's gzip body now and its brotli body later (each kept only if smaller), for a
 * compressible body of 1 KB or more; `tag` names each encoding's entity tag.
 */
async function addEncodings(
  answer: Answer,
  fields: Fields,
  tag: (body: Buffer, encoding: "gzip" | "br") => string,
  later: BrotliJob[],
) {
  const body = answer.identity.body;
  const gzipped = await gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION });
  if (gzipped.length < body.length) {
    answer.gzip = variant(gzipped, tag(gzipped, "gzip"), { ...fields, encoding: "gzip" });
  }
  later.push(async () => {
    const brotlied = await brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    if (brotlied.length < body.length) {
      answer.br = variant(brotlied, tag(brotlied, "br"), { ...fields, encoding: "br" });
    }
  });
}

/** A body rendered at start (a public page, robots.txt, sitemap.xml), and its encodings. */
async function rendered(
  body: Buffer,
  kind: "page" | "visitor" | "rendered",
  headers: { type: string; cacheControl: string; csp: string },
  later: BrotliJob[],
): Promise<Answer> {
  const fields = { ...headers, vary: body.length >= COMPRESS_FROM_BYTES };
  const answer: Answer = { kind, identity: variant(body, contentTag(body), fields) };
  if (fields.vary) await addEncodings(answer, fields, contentTag, later);
  return answer;
}

/**
 * A file of the build, with the headers express.static gave it. Scripts and styles have the
 * build's own gzip copy (zopfli, `.gz` beside them, ADR 008), sent as it is; other compressible
 * files of 1 KB or more get a gzip and a brotli body made here. A file of a type not listed
 * (or a very big one) is left to express.static.
 */
async function fileAnswer(
  file: string,
  cacheControl: string,
  csp: string,
  later: BrotliJob[],
): Promise<Answer | undefined> {
  const known = FILE_TYPES[path.extname(file).toLowerCase()];
  const stat = fs.statSync(file);
  if (!known || stat.size > MAX_FILE_BYTES) return undefined;
  const body = fs.readFileSync(file);
  const copy = `${file}.gz`;
  const fields = { type: known.type, cacheControl, csp, modified: stat.mtime, vary: false };
  const tag = fileTag(stat);
  if (known.compressible && fs.existsSync(copy)) {
    const copyStat = fs.statSync(copy);
    return {
      kind: "file",
      identity: variant(body, tag, { ...fields, vary: true }),
      gzip: variant(fs.readFileSync(copy), fileTag(copyStat), {
        ...fields,
        vary: true,
        encoding: "gzip",
        modified: copyStat.mtime,
      }),
    };
  }
  const encoded = { ...fields, vary: known.compressible && body.length >= COMPRESS_FROM_BYTES };
  const answer: Answer = { kind: "file", identity: variant(body, tag, encoded) };
  // Bodies made here, not files: their tags are the file's, marked with the encoding.
  const madeTag = (_: Buffer, encoding: string) => `${tag.slice(0, -1)}-${encoding}"`;
  if (encoded.vary) await addEncodings(answer, encoded, madeTag, later);
  return answer;
}

/* ---------------- per request ---------------- */

/** An escaped control character in the URL: Express refuses it (server/app.ts); left to it. */
const CONTROL_ESCAPE = /%[01][0-9a-f]|%7f/i;
const NO_CACHE = /(?:^|,)\s*?no-cache\s*?(?:,|$)/;

type Acceptance = { br: number; gzip: number; deflate: number; identity: number };

/**
 * The quality each coding gets from an Accept-Encoding header, as compression()'s negotiator
 * reads it: a coding not named gets the q of `*` if given, and identity, unnamed, the lowest q
 * named (or 1).
 */
export function parseAcceptEncoding(header: string | undefined): Acceptance {
  const named: Partial<Acceptance> = {};
  let star: number | undefined;
  let lowest = 1;
  for (const item of (header ?? "").split(",")) {
    const [name, ...params] = item.split(";");
    const coding = name.trim().toLowerCase();
    if (!coding) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (match) q = Number.isFinite(Number(match[1])) ? Math.min(1, Number(match[1])) : 0;
    }
    lowest = Math.min(lowest, q || 1);
    if (coding === "*") star = Math.max(star ?? 0, q);
    else if (coding === "br" || coding === "gzip" || coding === "deflate" || coding === "identity")
      named[coding] = Math.max(named[coding] ?? 0, q);
  }
  return {
    br: named.br ?? star ?? 0,
    gzip: named.gzip ?? star ?? 0,
    deflate: named.deflate ?? star ?? 0,
    identity: named.identity ?? star ?? lowest,
  };
}

/** Parsed Accept-Encoding headers: browsers send a handful of distinct ones. */
const acceptances = new Map<string, Acceptance>();

function acceptance(header: string | undefined) {
  if (header === undefined) return IDENTITY_ONLY;
  let parsed = acceptances.get(header);
  if (!parsed) {
    parsed = parseAcceptEncoding(header);
    if (acceptances.size < 256) acceptances.set(header, parsed);
  }
  return parsed;
}
const IDENTITY_ONLY: Acceptance = { br: 0, gzip: 0, deflate: 0, identity: 1 };

/**
 * The representation to send: the best q among those the answer has, brotli before gzip before
 * identity at equal q (compression()'s order). Undefined when the client would rather have
 * deflate, which only Express makes.
 */
function chooseVariant(answer: Answer, header: string | undefined): Variant | undefined {
  if (!answer.gzip && !answer.br) return answer.identity;
  const q = acceptance(header);
  let chosen = answer.identity;
  let best = 0;
  if (answer.br && q.br > best) [chosen, best] = [answer.br, q.br];
  if (answer.gzip && q.gzip > best) [chosen, best] = [answer.gzip, q.gzip];
  if (q.identity > best) [chosen, best] = [answer.identity, q.identity];
  if (chosen === answer.identity && q.deflate > 0) return undefined;
  return chosen;
}

/** If-None-Match (or, without it, If-Modified-Since) says the client has this variant. */
function notModified(req: IncomingMessage, chosen: Variant) {
  const headers = req.headers;
  const noneMatch = headers["if-none-match"];
  const modifiedSince = headers["if-modified-since"];
  if (noneMatch === undefined && modifiedSince === undefined) return false;
  const cacheControl = headers["cache-control"];
  if (cacheControl && NO_CACHE.test(cacheControl)) return false;
  if (noneMatch !== undefined) {
    if (noneMatch.trim() === "*") return true;
    const bare = chosen.etag.replace(/^W\//, "");
    return noneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === bare);
  }
  if (chosen.lastModified === undefined) return false;
  const since = Date.parse(modifiedSince!);
  return Number.isFinite(since) && chosen.lastModified <= since;
}

export type FastPathOptions = {
  /** True once shutdown has begun: Connection: close, and /healthz fails (ADR 004). */
  isDraining: () => boolean;
  /** Express's compiled `trust proxy` (app.get("trust proxy fn")): who may say https. */
  trust: (address: string, hop: number) => boolean;
};

/** The handler, run before Express: true when it answered (or is answering) the request. */
export function createFastPath(prepared: PreparedAnswers, options: FastPathOptions): FastPath {
  const { answers, healthHeaders } = prepared;
  const { isDraining, trust } = options;

  /** req.secure as Express works it out (server/app.ts sets the same `trust proxy`). */
  const secure = (req: IncomingMessage) => {
    const socket = req.socket as TLSSocket;
    const protocol = socket.encrypted ? "https" : "http";
    const address = socket.remoteAddress;
    if (address === undefined || !trust(address, 0)) return protocol === "https";
    const forwarded = req.headers["x-forwarded-proto"];
    const value = (typeof forwarded === "string" && forwarded) || protocol;
    const comma = value.indexOf(",");
    return (comma === -1 ? value : value.slice(0, comma)).trim() === "https";
  };

  /** What depends on the request, after the prepared headers. */
  const perRequest = (req: IncomingMessage, fixed: readonly string[], requestId: string) => {
    const headers = fixed.concat("X-Request-Id", requestId);
    if (secure(req)) headers.push("Strict-Transport-Security", HSTS);
    if (isDraining()) headers.push("Connection", "close");
    return headers;
  };

  const lookup = (url: string): Answer | undefined => {
    let pathname = url;
    const query = url.indexOf("?");
    if (query !== -1) {
      if (CONTROL_ESCAPE.test(url)) return undefined;
      pathname = url.slice(0, query);
    }
    const answer = answers.get(pathname);
    if (answer || !pathname.endsWith("/")) return answer;
    // "/book-call/" was the booking page for Express's public-page middleware too.
    const page = answers.get(pathname.replace(/\/+$/, "") || "/");
    return page?.kind === "page" ? page : undefined;
  };

  const answer: FastPath = (req, res) => {
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return false;
    const url = req.url ?? "";
    const headers = req.headers;
    // A range or a precondition is express.static's (or, for a page, Express's) to answer.
    if (
      headers.range !== undefined ||
      headers["if-match"] !== undefined ||
      headers["if-unmodified-since"] !== undefined ||
      headers["if-range"] !== undefined
    ) {
      return false;
    }
    const health = url === "/healthz";
    const found = health ? undefined : lookup(url);
    if (!health && !found) return false;
    // The sign-in page for a visitor only: a query or a Better Auth cookie can change it.
    if (found?.kind === "visitor") {
      const cookie = headers.cookie;
      if (url.includes("?") || (cookie !== undefined && ANY_AUTH_COOKIE.test(cookie))) return false;
    }
    const chosen = found && chooseVariant(found, headers["accept-encoding"]);
    if (found && !chosen) return false;

    const started = process.hrtime.bigint();
    const given = headers["x-request-id"];
    const requestId = (typeof given === "string" && given.slice(0, 64)) || crypto.randomUUID();

    if (health) {
      checkHealth(isDraining())
        .then((result) => {
          const body = Buffer.from(JSON.stringify(result.body));
          const fields = healthHeaders.concat("Content-Length", String(body.length));
          res.writeHead(result.status, perRequest(req, fields, requestId));
          res.end(method === "HEAD" ? undefined : body);
        })
        .catch((error: unknown) => {
          logger.error({ requestId, err: (error as Error).message }, "healthz failed");
          res.destroy();
        });
      return true;
    }

    const variant = chosen!;
    const status = notModified(req, variant) ? 304 : 200;
    // The same line Express writes (server/app.ts), once the answer is out.
    if (logger.isLevelEnabled("info")) {
      res.once("finish", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info(
          {
            requestId,
            method,
            path: loggablePath(url.split("?", 1)[0]),
            status,
            ms: Math.round(ms * 10) / 10,
          },
          "request",
        );
      });
    }
    if (status === 304) {
      res.writeHead(304, perRequest(req, variant.notModified, requestId));
      res.end();
    } else {
      res.writeHead(200, perRequest(req, variant.headers, requestId));
      res.end(method === "HEAD" ? undefined : variant.body);
    }
    return true;
  };

  return function fastPath(req, res) {
    try {
      return answer(req, res);
    } catch (error) {
      // Never expected; Express's own error handling takes the request if nothing was sent.
      logger.error({ err: (error as Error).message, path: req.url }, "fast path failed");
      if (!res.headersSent) return false;
      res.destroy();
      return true;
    }
  };
}
