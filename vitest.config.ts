import { defineConfig } from "vitest/config";
import tsconfigPaths from "vite-tsconfig-paths";
import { pageScripts } from "./scripts/build/page-scripts";

export default defineConfig({
  // Route modules import their pages' enhancement scripts for the URL (ADR 030).
  plugins: [pageScripts(), tsconfigPaths()],
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tests/integration/**/*.test.ts",
    ],
    environment: "node",
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test" },
  },
});
