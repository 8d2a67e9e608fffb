import fs from "node:fs";
import path from "node:path";
import type { Config } from "@react-router/dev/config";
import { CITY_PATHS } from "./app/content/city-paths";
import { deferHydration } from "./scripts/build/defer-hydration";
import { precompressAssets } from "./scripts/build/precompress";

function htmlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "assets" ? [] : htmlFiles(full);
    return entry.name.endsWith(".html") ? [full] : [];
  });
}

export default {
  ssr: true,
  // Marketing pages are rendered to static HTML at build time and served by the Node server;
  // their forms still post to the server's actions.
  async prerender() {
    return ["/", "/book-call", ...CITY_PATHS.map((path) => `/${path}`)];
  },
  // The public pages' loading budget (docs/decisions/008): prerendered pages paint before
  // their JavaScript loads, and scripts and styles ship precompressed.
  async buildEnd({ reactRouterConfig }) {
    const clientDir = path.resolve(reactRouterConfig.buildDirectory, "client");
    for (const file of htmlFiles(clientDir)) {
      fs.writeFileSync(file, deferHydration(fs.readFileSync(file, "utf8"), file));
    }
    const { files, before, after } = await precompressAssets(path.join(clientDir, "assets"));
    console.log(`Precompressed ${files} assets: ${before} -> ${after} bytes (gzip, zopfli)`);
  },
} satisfies Config;
