import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { ANY_AUTH_COOKIE } from "~/lib/auth-cookies";
import { logger } from "~/lib/logger.server";
import { loggablePath } from "./app";
import { checkHealth } from "./health";
import type { Answer, PreparedAnswers, Variant } from "./fast-path-prepare";
import { HSTS } from "./security";

export { prepareFastPath, type FastPathSite, type PreparedAnswers } from "./fast-path-prepare";

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
