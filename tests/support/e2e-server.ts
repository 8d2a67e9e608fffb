/**
 * Starts the production build for end-to-end tests: a fresh PostgreSQL database, the test
 * SMTP receiver and webhook receiver, demo data, and a fast outbox. The server is the compiled
 * one (build/server/main.js, as `npm start` runs it), in a Node process of its own.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { isBuilt } from "../../scripts/fingerprint.mjs";
import { E2E_PORT, SINK_HTTP_PORT, SINK_SMTP_PORT, e2eDatabaseUrl } from "./ports";
import { E2E_TWILIO } from "./twilio-stand-in";
import { E2E_STRIPE } from "./stripe-stand-in";

const databaseUrl = e2eDatabaseUrl();
const name = new URL(databaseUrl).pathname.slice(1);
const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();

const dataDir = path.resolve(".tmp", `e2e-${E2E_PORT}`);
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: String(E2E_PORT),
  HOST: "127.0.0.1",
  PUBLIC_URL: `http://localhost:${E2E_PORT}`,
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
  SMTP_URL: `smtp://127.0.0.1:${SINK_SMTP_PORT}`,
  LEAD_WEBHOOK_URL: `http://127.0.0.1:${SINK_HTTP_PORT}/webhook`,
  // Each test browses from its own address (X-Forwarded-For) so per-address limits stay per test.
  TRUST_PROXY: "true",
  SEED_DEMO: "true",
  OUTBOX_POLL_MS: "200",
  OUTBOX_BASE_BACKOFF_MS: "300",
  OUTBOX_MAX_BACKOFF_MS: "1000",
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  // Texts through the Twilio SDK to the sink's stand-in of the Messages endpoint.
  TWILIO_ACCOUNT_SID: E2E_TWILIO.accountSid,
  TWILIO_AUTH_TOKEN: E2E_TWILIO.authToken,
  TWILIO_FROM: E2E_TWILIO.from,
  TWILIO_API_URL: `http://127.0.0.1:${SINK_HTTP_PORT}`,
  // Cards through the Stripe SDK to the sink's stand-in of Stripe's API.
  STRIPE_SECRET_KEY: E2E_STRIPE.secretKey,
  STRIPE_WEBHOOK_SECRET: E2E_STRIPE.webhookSecret,
  STRIPE_API_URL: `http://127.0.0.1:${SINK_HTTP_PORT}`,
});

const entry = path.resolve("build/server/main.js");
if (!fs.existsSync(entry)) {
  console.error(`${entry} is missing: run "npm run build" first.`);
  process.exit(1);
}
if (!isBuilt(process.cwd())) {
  console.error(
    'The build is older than the sources: the tests run the old one ("npm run build").',
  );
}
const server = spawn(process.execPath, [entry], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
