import type { Request, Response } from "express";
import { business } from "~/lib/business.server";
import type { RenderedFile } from "./public-pages";

/**
 * /site.webmanifest: what a phone uses when the site is saved to its home screen. The name is
 * the business's own (a run-time setting), so it is made when the server starts rather than kept
 * as a static file, and the fast path serves it (ADR 032); it is not a React Router route, so
 * the public pages' route manifest stays as small as their JavaScript budget needs (ADR 008).
 */
export function webManifestFile(): RenderedFile {
  return manifestFile("/");
}

/**
 * /staff.webmanifest: the staff pages link this one instead (app/root.tsx), so a handyman who
 * adds the site to a phone's home screen from a staff page opens 'Today' (ADR 049). Public pages
 * keep the site's manifest and stay free of scripts: no service worker.
 */
export function staffWebManifestFile(): RenderedFile {
  return manifestFile("/employee/today");
}

function manifestFile(startUrl: string): RenderedFile {
  const { name } = business();
  return {
    body: Buffer.from(
      JSON.stringify({
        name,
        short_name: name.length <= 12 ? name : name.split(" ").slice(0, 2).join(" "),
        id: startUrl,
        start_url: startUrl,
        scope: "/",
        display: "browser",
        background_color: "#ffffff",
        theme_color: "#0f5f56",
        icons: [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any maskable" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any maskable" },
        ],
      }),
    ),
    contentType: "application/manifest+json; charset=utf-8",
    cacheControl: "public, max-age=3600",
  };
}

/** The same answer through Express, for what the fast path leaves to it (a Range, say). */
export function webManifest(req: Request, res: Response) {
  const file = req.path === "/staff.webmanifest" ? staffWebManifestFile() : webManifestFile();
  res.setHeader("Content-Type", file.contentType);
  res.setHeader("Cache-Control", file.cacheControl);
  res.send(file.body);
}
