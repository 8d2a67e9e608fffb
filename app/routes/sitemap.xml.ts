import type { Route } from "./+types/sitemap.xml";
import { CITY_PATHS } from "~/content/city-paths";
import { env } from "~/lib/env.server";

/** GET /sitemap.xml: every public page, at the canonical addresses the pages declare. */
export function loader(_: Route.LoaderArgs) {
  const base = env().publicUrl;
  const pages = [
    { path: "/", priority: "1.0" },
    { path: "/book-call", priority: "0.9" },
    ...CITY_PATHS.map((path) => ({ path: `/${path}`, priority: "0.8" })),
  ];
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...pages.map(
      (page) =>
        `  <url><loc>${base}${page.path}</loc><changefreq>monthly</changefreq><priority>${page.priority}</priority></url>`,
    ),
    "</urlset>",
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
