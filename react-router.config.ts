import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { CITY_PATHS } from "./app/content/city-paths";
import { precompressAssets } from "./scripts/build/precompress";

export default {
  ssr: true,
  // Marketing pages are rendered to static HTML at build time and served by the Node server;
  // their forms still post to the server's actions.
  async prerender() {
    return ["/", "/book-call", ...CITY_PATHS.map((path) => `/${path}`)];
  },
  // Scripts and styles ship precompressed (docs/decisions/008). The public pages load no
  // React Router scripts at all, only their enhancement scripts (docs/decisions/030).
  async buildEnd({ reactRouterConfig }) {
    const clientDir = path.resolve(reactRouterConfig.buildDirectory, "client");
    const { files, before, after } = await precompressAssets(path.join(clientDir, "assets"));
    console.log(`Precompressed ${files} assets: ${before} -> ${after} bytes (gzip, zopfli)`);
  },
} satisfies Config;
