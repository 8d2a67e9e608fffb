import { createRequestHandler, type AppLoadContext, type ServerBuild } from "react-router";
import { CITY_PATHS } from "~/content/city-paths";
import { inlineScriptHashes } from "./security";

/*
 * The public pages (home, intro-call booking, the city pages), rendered once when the server
 * starts (ADR 029). Their HTML depends on the settings (PUBLIC_URL in canonical links and
 * JSON-LD, the business's name, phone and e-mail, the scheduler's address), which are known
 * only at run time: the build holds no page, so one build serves every environment. Rendered
 * by the server build's own request handler with no request behind it, the pages carry no
 * nonce; they are served with a CSP allowing their inline scripts by hash (ADR 001), hashes
 * taken from the HTML as it is served.
 */

/** The paths of the public pages, as React Router matches them. */
export const PUBLIC_PAGE_PATHS: readonly string[] = [
  "/",
  "/book-call",
  ...CITY_PATHS.map((path) => `/${path}`),
];

export type PublicPage = {
  html: Buffer;
  /** sha256 hashes of the page's executable inline scripts, for its CSP. */
  scriptHashes: string[];
};

/** The rendered pages by path ("" for the home page, "/book-call", "/decatur-handyman", ...). */
export type PublicPages = ReadonlyMap<string, PublicPage>;

/** Renders every public page with the settings of this process; throws if one fails. */
export async function renderPublicPages(build: ServerBuild): Promise<PublicPages> {
  // The URL React Router's prerendering used: the same request gives the same HTML.
  const rendered = await renderPages(build, PUBLIC_PAGE_PATHS, (path) => path.replace(/\/?$/, "/"));
  return new Map([...rendered].map(([path, page]) => [path === "/" ? "" : path, page]));
}

/**
 * The pages that are the same for every visitor who is not signed in, though not for everyone:
 * the sign-in page (ADR 034). Its loader sends a signed-in person on to their area and reads a
 * pending second factor from Better Auth's cookies, so the fast path serves it only to a
 * request with none of those cookies and no query; everything else is rendered per request.
 */
export const VISITOR_PAGE_PATHS: readonly string[] = ["/auth"];

/** Renders the visitor pages as a visitor's request with no cookie gets them; throws on failure. */
export function renderVisitorPages(build: ServerBuild): Promise<PublicPages> {
  return renderPages(build, VISITOR_PAGE_PATHS, (path) => path);
}

/** Each path's page, rendered by the server build's handler with no request behind it. */
async function renderPages(
  build: ServerBuild,
  paths: readonly string[],
  urlPath: (path: string) => string,
): Promise<Map<string, PublicPage>> {
  const handle = createRequestHandler(build, "production");
  const context: AppLoadContext = { clientAddress: "127.0.0.1", requestId: "start-up" };
  const pages = new Map<string, PublicPage>();
  for (const path of paths) {
    const response = await handle(new Request(`http://localhost${urlPath(path)}`), context);
    const html = await response.text();
    if (response.status !== 200) {
      throw new Error(`The page ${path} did not render: ${response.status}\n${html}`);
    }
    pages.set(path, { html: Buffer.from(html, "utf8"), scriptHashes: inlineScriptHashes(html) });
  }
  return pages;
}

/** The search engines' files, resource routes that depend only on the settings. */
export const SEARCH_FILE_PATHS: readonly string[] = ["/robots.txt", "/sitemap.xml"];

export type RenderedFile = {
  body: Buffer;
  contentType: string;
  cacheControl: string;
};

/**
 * Renders robots.txt and sitemap.xml once, through the server build's request handler as a
 * request would (their loaders read only the settings), for the fast path (server/fast-path.ts)
 * to serve as they are; throws if one fails.
 */
export async function renderSearchFiles(
  build: ServerBuild,
): Promise<ReadonlyMap<string, RenderedFile>> {
  const handle = createRequestHandler(build, "production");
  const context: AppLoadContext = { clientAddress: "127.0.0.1", requestId: "start-up" };
  const files = new Map<string, RenderedFile>();
  for (const path of SEARCH_FILE_PATHS) {
    const response = await handle(new Request(`http://localhost${path}`), context);
    const body = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get("content-type");
    const cacheControl = response.headers.get("cache-control");
    if (response.status !== 200 || !contentType || !cacheControl) {
      throw new Error(`${path} did not render: ${response.status}\n${body.toString("utf8")}`);
    }
    files.set(path, { body, contentType, cacheControl });
  }
  return files;
}
