import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { buildImages } from "./scripts/build/images.mjs";
import { pageScripts } from "./scripts/build/page-scripts";

/**
 * The public pages' pictures (ADR 028), written into build/images after the build directory is
 * cleaned and before the pages are prerendered (they read the manifest).
 */
const publicImages = {
  name: "public-images",
  apply: "build" as const,
  async buildStart() {
    await buildImages({ quiet: true });
  },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), pageScripts(), reactRouter(), tsconfigPaths(), publicImages],
  build: {
    // Inline small assets; keep hashed file names for immutable caching.
    assetsInlineLimit: 4096,
    // Terser makes the browser bundle ~3 KB (gzipped) smaller than esbuild's minifier, which
    // the public pages' JavaScript budget needs (docs/decisions/008). The server bundle stays
    // readable.
    minify: isSsrBuild ? false : "terser",
    terserOptions: { compress: { passes: 2 }, module: true },
  },
  // The server build carries the icons the pages use instead of importing the whole package
  // (thousands of icon modules) at every start (ADR 029). It has no dependencies of its own.
  ssr: {
    noExternal: ["lucide-react"],
  },
  server: {
    // The custom server in server/ owns the HTTP port in development.
    hmr: { port: 24678 },
  },
}));
