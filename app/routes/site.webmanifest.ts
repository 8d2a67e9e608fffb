import type { Route } from "./+types/site.webmanifest";
import { business } from "~/lib/business.server";

/**
 * GET /site.webmanifest: what a phone uses when the site is saved to its home screen. The name is
 * the business's own (a run-time setting), so the manifest is answered, not a static file.
 */
export function loader(_: Route.LoaderArgs) {
  const { name } = business();
  const manifest = {
    name,
    short_name: name.length <= 12 ? name : name.split(" ").slice(0, 2).join(" "),
    start_url: "/",
    scope: "/",
    display: "browser",
    background_color: "#ffffff",
    theme_color: "#0f5f56",
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any maskable" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
