import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), tsconfigPaths()],
  build: {
    // Inline small assets; keep hashed file names for immutable caching.
    assetsInlineLimit: 4096,
  },
  server: {
    // The custom server in server/ owns the HTTP port in development.
    hmr: { port: 24678 },
  },
});
