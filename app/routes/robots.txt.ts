import type { Route } from "./+types/robots.txt";
import { env } from "~/lib/env.server";

/** GET /robots.txt: the public pages are for search engines; the signed-in areas are not. */
export function loader(_: Route.LoaderArgs) {
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /auth",
    "Disallow: /dashboard",
    "Disallow: /employee",
    "Disallow: /account",
    "Disallow: /api/",
    "",
    `Sitemap: ${env().publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
