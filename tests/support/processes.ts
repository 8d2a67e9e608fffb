/**
 * Real processes for scale-out, fault and security tests (and the load benchmark): server
 * processes running the production build, throwaway PostgreSQL clusters and databases.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { SERVER_NODE_ENV, SERVER_NODE_FLAGS } from "../../scripts/server-node.mjs";

const run = promisify(execFile);
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The production server and the admin CLI as `npm start` and `npm run cli` run them (compiled). */
export const SERVER_ENTRY = path.join(ROOT, "build/server/main.js");
export const CLI_ENTRY = path.join(ROOT, "build/cli.js");
/** What `npm start` runs: the build check (builds only without a build), then SERVER_ENTRY. */
export const START_SCRIPT = path.join(ROOT, "scripts/start.mjs");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export function tempDir(prefix = "handyman-") {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export type ServerProcess = {
  port: number;
  origin: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string | null>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | string | null>;
  /** SIGKILL: no chance to clean up. */
  kill(): Promise<number | string | null>;
};

/**
 * Starts the production server (build/server/main.js) on the built app in `build/`, as one Node
 * process (no wrapper, so signals reach the server itself) on the Node settings it ships with
 * (scripts/server-node.mjs), and waits until it listens.
 */
export async function startServer(
  env: Record<string, string>,
  options: {
    port?: number;
    readyTimeoutMs?: number;
    nodeArgs?: string[];
    /** The script to run: the compiled server (default) or START_SCRIPT. */
    entry?: string;
  } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  // Its own data directory unless told (uploads and e-mail files never land in ./data).
  const ownDataDir = env.DATA_DIR ? undefined : tempDir("handyman-server-");
  let output = "";
  const entry = options.entry ?? SERVER_ENTRY;
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...(options.nodeArgs ?? []), entry],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        ...SERVER_NODE_ENV,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: `http://localhost:${port}`,
        SEED_DEMO: "false",
        ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
        // Test clients each send their own X-Forwarded-For, so per-address limits count them apart.
        TRUST_PROXY: "true",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => {
      if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true });
      resolve(code ?? signal);
    }),
  );
  const server: ServerProcess = {
    port,
    origin: `http://localhost:${port}`,
    child,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      return exited;
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  while (!/Server ready/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server on port ${port} did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return server;
}

/** A fresh database in the cluster of `adminUrl` (TEST_DATABASE_URL by default). */
export async function createDatabase(adminUrl = process.env.TEST_DATABASE_URL) {
  if (!adminUrl) throw new Error("TEST_DATABASE_URL must point at a PostgreSQL server");
  const name = `hardening_${crypto.randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * A PostgreSQL cluster of its own (scripts/pg-cluster.sh), for tests that stop and restart the
 * database server itself without disturbing anything else using TEST_DATABASE_URL.
 */
export async function startPgCluster() {
  const dir = tempDir("handyman-pg-");
  const script = path.join(ROOT, "scripts/pg-cluster.sh");
  const { stdout } = await run("bash", [script, "start", dir], { timeout: 120_000 });
  const url = stdout.trim().split("\n").pop()!;
  return {
    url,
    /** The cluster's directory (its data in data/, the server's pid in data/postmaster.pid). */
    dir,
    /** Stops the server (fast shutdown: connections are cut), keeping its data. */
    async pause() {
      await run("bash", [script, "pause", dir], { timeout: 60_000 });
    },
    /** Starts it again on the same port. */
    async resume() {
      await run("bash", [script, "resume", dir], { timeout: 60_000 });
    },
    async stop() {
      await run("bash", [script, "stop", dir], { timeout: 60_000 });
    },
  };
}

/** Environment shared by the tests' server processes. */
export const TEST_AUTH_SECRET = "hardening-secret-hardening-secret-0123456789";
