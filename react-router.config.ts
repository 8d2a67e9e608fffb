import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { precompressAssets } from "./scripts/build/precompress";

export default {
  ssr: true,
  // The whole route manifest as one immutable file the browser caches, instead of a partial
  // manifest worked out and written into every document (ADR 110).
  routeDiscovery: { mode: "initial" },
  // No page is prerendered: the public pages depend on run-time settings (PUBLIC_URL, the
  // business's name and contacts), so the server renders them when it starts (ADR 029).
  // Scripts and styles ship precompressed (docs/decisions/008). The public pages load no
  // React Router scripts at all, only their enhancement scripts (docs/decisions/030).
  async buildEnd({ reactRouterConfig }) {
    const clientDir = path.resolve(reactRouterConfig.buildDirectory, "client");
    const { files, before, after } = await precompressAssets(path.join(clientDir, "assets"));
    console.log(`Precompressed ${files} assets: ${before} -> ${after} bytes (gzip, zopfli)`);
  },
} satisfies Config;
