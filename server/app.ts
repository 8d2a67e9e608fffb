import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ServerBuild } from "react-router";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { PAGE_SCRIPT_HEADER } from "~/lib/page-forms";
import { publicImagesDir } from "~/lib/public-images.server";
import { withoutControlCharacters } from "~/lib/validation";
import { checkHealth } from "./health";
import { refuse } from "./refusal";
import type { PublicPages } from "./public-pages";
import { createRequestHandler } from "./request-handler";
import { webManifest } from "./web-manifest";
import { contentSecurityPolicy, frameSources, HSTS, SECURITY_HEADERS } from "./security";

declare module "react-router" {
  interface AppLoadContext {
    /**
     * Per-request CSP nonce for inline scripts; absent when the public pages are rendered at
     * start (server/public-pages.ts), which are allowed their inline scripts by hash.
     */
    nonce?: string;
    /** The client's address; forwarded headers are believed only under TRUST_PROXY. */
    clientAddress: string;
    requestId: string;
    /**
     * The app's own script asking, not a page load or a form posted without JavaScript: a React
     * Router data request (`*.data`), or a public page's enhancement script posting a form
     * (the X-Page-Script header, answered as JSON by entry.server.tsx; ADR 030).
     */
    scriptRequest?: boolean;
  }
}

export type AppOptions = {
  /** The built server bundle, or a loader for it (development). */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** build/client: the browser's scripts, styles and icons. Absent in development. */
  clientDir?: string;
  /**
   * The public pages, rendered when the server started (server/public-pages.ts). Absent in
   * development, where every page is rendered per request.
   */
  publicPages?: PublicPages;
  /** Development middleware (Vite) mounted before the app. */
  devMiddleware?: express.RequestHandler;
  dev?: boolean;
  /** True once shutdown has begun: /healthz fails and connections are not kept alive. */
  isDraining?: () => boolean;
};

/** Requests that change state must come from our own pages (CSRF defence in depth). */
function sameOrigin(req: Request) {
  if (["GET", "HEAD", "OPTIONS"].includes(req.method)) return true;
  // A provider's webhook comes from its servers, never from a page: it proves itself by its
  // signature, which its route checks (webhooks.twilio.*).
  if (req.path.startsWith("/webhooks/")) return true;
  const source = req.get("origin") ?? req.get("referer");
  if (!source || source === "null") return false;
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    return false;
  }
  const allowed = new Set([
    new URL(env().publicUrl).origin,
    `${req.protocol}://${req.get("host")}`,
  ]);
  return allowed.has(origin);
}

/** Control characters in the path or a query name or value, once decoded. */
export function urlHasControlCharacters(originalUrl: string) {
  if (!/%[01][0-9a-f]|%7f/i.test(originalUrl)) return false;
  const url = new URL(originalUrl, "http://localhost");
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape decodes to nothing: the path is checked as it is
  }
  return [path, ...[...url.searchParams].flat()].some((part) => !withoutControlCharacters(part));
}

/** The request path for the log: the password-reset link carries its token in the path. */
export function loggablePath(path: string) {
  return path.replace(/^(\/api\/auth\/reset-password\/)[^/]+/, "$1[redacted]");
}

export function createApp(options: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env().trustProxy);

  // Request id and one log line per request.
  app.use((req, res, next) => {
    const requestId = (req.get("x-request-id") ?? "").slice(0, 64) || crypto.randomUUID();
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      if (req.path === "/healthz") return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          requestId,
          method: req.method,
          path: loggablePath(req.path),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        "request",
      );
    });
    next();
  });

  // Security headers on every response.
  app.use((req, res, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.nonce = nonce;
    res.setHeader(
      "Content-Security-Policy",
      contentSecurityPolicy({ nonce, frameSources: frameSources(), dev: options.dev }),
    );
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    if (req.secure) res.setHeader("Strict-Transport-Security", HSTS);
    next();
  });

  app.use(compression());

  app.use((_req, res, next) => {
    if (options.isDraining?.()) res.setHeader("Connection", "close");
    next();
  });

  app.get(["/site.webmanifest", "/staff.webmanifest"], webManifest);

  // In production the fast path answers GET /healthz itself (server/fast-path.ts); this one
  // answers in development and the requests the fast path leaves (/healthz/, a query).
  app.get("/healthz", async (_req, res) => {
    const health = await checkHealth(options.isDraining?.() ?? false);
    res.setHeader("Cache-Control", "no-store");
    res.status(health.status).json(health.body);
  });

  // A control character (NUL above all) in the path or a query value is never a real link:
  // refused here, before a route could hand it to the database.
  app.use((req, res, next) => {
    if (!urlHasControlCharacters(req.originalUrl)) return next();
    refuse(req, res, {
      status: 400,
      reason: "control character in the URL",
      message: "The address contains characters that are not allowed.",
    });
  });

  app.use((req, res, next) => {
    if (sameOrigin(req)) return next();
    res.status(403).type("text/plain").send("Cross-origin request refused");
  });

  if (options.devMiddleware) app.use(options.devMiddleware);

  // The public pages' pictures (ADR 028): content-hashed names, so cached like the assets.
  app.use(
    "/images",
    express.static(publicImagesDir(), { immutable: true, maxAge: "1y", index: false }),
  );

  if (options.publicPages) app.use(publicPages(options.publicPages));

  if (options.clientDir) {
    const clientDir = options.clientDir;
    // Hashed build assets never change: cache them for a year. In production the fast path
    // (server/fast-path.ts) sends them, scripts and styles from the copies the build compressed
    // with zopfli (docs/decisions/008); what it leaves (a Range, a query with a control
    // character, deflate) is served from here, compressed by compression() when it pays.
    app.use(
      "/assets",
      express.static(path.join(clientDir, "assets"), {
        immutable: true,
        maxAge: "1y",
        index: false,
      }),
    );
    app.use(clientFiles(clientDir));
  }

  // Rendered pages and data depend on who asks: no shared cache (a proxy, a CDN) may keep one
  // person's dashboard for the next. Routes that know better set their own Cache-Control.
  app.use((_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
      if (!res.getHeader("cache-control")) res.setHeader("Cache-Control", "private, no-store");
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  });

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: options.build,
      mode: options.dev ? "development" : "production",
      getLoadContext: (req, res) => ({
        nonce: res.locals.nonce as string,
        clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown",
        requestId: res.locals.requestId as string,
        scriptRequest: req.path.endsWith(".data") || req.get(PAGE_SCRIPT_HEADER) === "1",
      }),
    }),
  );

  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    logger.error(
      { err: error instanceof Error ? error.message : String(error) },
      "unhandled error",
    );
    if (!res.headersSent) res.status(500).type("text/plain").send("Unexpected Application Error!");
  });

  return app;
}

/**
 * Serves the public pages rendered at start with a CSP that allows exactly their inline scripts
 * by hash (ADR 001). POSTs (form actions) go on to the app. In production the fast path
 * (server/fast-path.ts) answers nearly every GET of them; this answers what it leaves (a Range,
 * a query with a control character, deflate).
 */
function publicPages(pages: PublicPages): express.RequestHandler {
  const served = new Map(
    [...pages].map(([route, page]) => [
      route,
      {
        html: page.html,
        csp: contentSecurityPolicy({
          scriptHashes: page.scriptHashes,
          frameSources: frameSources(),
        }),
      },
    ]),
  );
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const entry = served.get(req.path.replace(/\/+$/, ""));
    if (!entry) return next();
    res.setHeader("Content-Security-Policy", entry.csp);
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Cache-Control", "public, max-age=0, must-revalidate");
    res.end(req.method === "HEAD" ? undefined : entry.html);
  };
}

/**
 * The client build's other files (favicon, icons, the pages' scripts and styles), through
 * express.static, but only for paths that name one of them: the build is a fixed set, listed at
 * start, so a signed-in page's request does not cost a file-system lookup first.
 */
function clientFiles(clientDir: string): express.RequestHandler {
  const serve = express.static(clientDir, { maxAge: "1h", index: false, redirect: false });
  const files = new Set(
    listFiles(clientDir).map(
      (file) => `/${path.relative(clientDir, file).split(path.sep).join("/")}`,
    ),
  );
  return (req, res, next) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    if (files.has(pathname)) return serve(req, res, next);
    next();
  };
}

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(path.join(dir, entry.name))
        : entry.isFile()
          ? [path.join(dir, entry.name)]
          : [],
    );
}
