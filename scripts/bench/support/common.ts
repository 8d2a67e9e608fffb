/**
 * What the benches share: timing and percentiles, a throwaway database (PostgreSQL when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL points at a server, an admin URL: the bench creates and
 * drops its own database; otherwise in-memory PGlite), the production build served in this
 * process on a free port, a browser-like sign-in, and each bench's own section of
 * docs/benchmarks.md.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import pg from "pg";
import { openDatabase } from "~/db/client.server";
import { resetEnvForTests } from "~/lib/env.server";

export type Stats = { p50: number; p95: number; max: number; n: number };

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1], n: sorted.length };
}

/** "A=1 B=x=y" as environment variables: space-separated, each split at its first "=". */
export function envAssignments(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split(/\s+/)
      .filter(Boolean)
      .map((assignment) => {
        const at = assignment.indexOf("=");
        return [assignment.slice(0, at), assignment.slice(at + 1)];
      }),
  );
}

export async function timed<T>(work: () => Promise<T>) {
  const start = process.hrtime.bigint();
  const result = await work();
  return { result, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const yes = (ok: boolean) => (ok ? "yes" : "**no**");

/** A database of the bench's own, migrated; `drop()` removes it. */
export async function openBenchDatabase(prefix: string) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase({ memory: true });
    await handle.migrate();
    return { handle, label: "PGlite (in memory)", drop: () => handle.close() };
  }
  const name = `bench_${prefix}_${crypto.randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const version = (await admin.query("show server_version")).rows[0].server_version as string;
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString() });
  await handle.migrate();
  return {
    handle,
    label: `PostgreSQL ${version.split(" ")[0]}`,
    async drop() {
      await handle.close();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Replaces the section between <!-- name:start --> and <!-- name:end --> (or appends it). */
export function writeSection(name: string, markdown: string) {
  const file = path.resolve("docs/benchmarks.md");
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let text = fs.existsSync(file)
    ? fs.readFileSync(file, "utf8")
    : "# Benchmarks\n\nWritten by `npm run bench` (scripts/bench/). Each section belongs to one module.\n";
  if (text.includes(start) && text.includes(end)) {
    text = text.slice(0, text.indexOf(start)) + block + text.slice(text.indexOf(end) + end.length);
  } else {
    text = `${text.trimEnd()}\n\n${block}\n`;
  }
  fs.writeFileSync(file, text);
  return file;
}

export async function freePort() {
  const { createServer } = await import("node:net");
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The production build (`npm run build` first) on a free port in this process; null without it. */
export async function startServer(dataDir: string) {
  const buildFile = path.resolve("build/server/index.js");
  if (!fs.existsSync(buildFile)) return null;
  const port = await freePort();
  Object.assign(process.env, {
    NODE_ENV: "production",
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-42",
    LOG_LEVEL: "silent",
    TRUST_PROXY: "false",
  });
  resetEnvForTests();
  const { createApp } = await import("../../../server/app");
  const { renderPublicPages } = await import("../../../server/public-pages");
  const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
  const app = createApp({
    build,
    clientDir: path.resolve("build/client"),
    publicPages: await renderPublicPages(build),
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, "127.0.0.1", (error?: Error) =>
      error ? reject(error) : resolve(s),
    );
  });
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Signs in as a browser would; returns the Cookie header. */
export async function signIn(base: string, email: string, password: string) {
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
