/** The fast path's answers, prepared whole at start (ADR 032; server/fast-path.ts serves them). */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { PublicPages, RenderedFile } from "./public-pages";
import { contentSecurityPolicy, frameSources, SECURITY_HEADERS } from "./security";

/** One representation of an answer: its bytes and its headers, ready for writeHead. */
export type Variant = {
  body: Buffer;
  etag: string;
  /** The 200's headers, flat ([name, value, name, value, ...]). */
  headers: readonly string[];
  /** The 304's: the same without the Content-* fields of the body. */
  notModified: readonly string[];
  /** A file's mtime in whole seconds, for If-Modified-Since. */
  lastModified?: number;
};

export type Answer = {
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
