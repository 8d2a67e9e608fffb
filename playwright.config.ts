import { defineConfig, devices } from "@playwright/test";
import { BASE_URL, SINK_HTTP_PORT, SINK_SMTP_PORT } from "./tests/support/ports";

const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
  },
  projects: [
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], channel: undefined },
      grepInvert: /@phone-only/,
    },
    { name: "phone", use: { ...devices["Pixel 7"], channel: undefined }, grep: /@phone/ },
  ],
  webServer: [
    {
      command: "npx tsx tests/support/sink.ts",
      url: `http://127.0.0.1:${SINK_HTTP_PORT}/health`,
      env: { SINK_SMTP_PORT: String(SINK_SMTP_PORT), SINK_HTTP_PORT: String(SINK_HTTP_PORT) },
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: "npx tsx tests/support/e2e-server.ts",
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
});
