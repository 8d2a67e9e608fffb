import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "~/db/schema";
import { createUser, createHome } from "../../server/seed/factories";
import { DEMO_LOGINS } from "../../server/seed/demo";
import { expect, test, PASSWORD, uniqueEmail } from "./fixtures";

/*
 * The product as an operator runs it: `npm start` processes on their own ports and data
 * directories, started, refused, stopped and deprived of their database.
 */

// Each test starts whole server processes (a fresh embedded database, migrations, demo data):
// on a busy 2-core machine that can take most of a minute.
test.describe.configure({ mode: "serial", timeout: 240_000 });

async function freePort() {
  return new Promise<number>((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

function start(env: Record<string, string>): Started {
  let output = "";
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: { ...process.env, LOG_LEVEL: "warn", NODE_ENV: "production", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForOutput(server: Started, pattern: RegExp, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pattern.test(server.output())) return;
    if (server.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Expected ${pattern} in the server output:\n${server.output()}`);
}

function tempDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), "handyman-process-"));
}

test("npm start serves the site on an empty data directory and a second start is refused", async () => {
  const dataDir = tempDir();
  const port = await freePort();
  const first = start({ DATA_DIR: dataDir, PORT: String(port) });
  try {
    await waitForOutput(first, /Server ready/);
    expect(first.output()).toContain("staff@peachtree-handyman.example");
    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);

    const secondPort = await freePort();
    const second = start({ DATA_DIR: dataDir, PORT: String(secondPort) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`The data directory ${dataDir} is in use by another process`);

    // The first one is unharmed.
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);
  } finally {
    first.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The first-start process (build/server/first-start.js) of the server started with `dataDir`. */
function firstStartProcess(dataDir: string): number | undefined {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (!command.includes("first-start.js")) continue;
      const environment = fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (environment.includes(`DATA_DIR=${dataDir}`)) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return undefined;
}

/** Whether `answer` settles within `ms`. */
async function settlesWithin(answer: Promise<unknown>, ms: number) {
  const timer = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));
  return Promise.race([
    answer.then(
      () => true,
      () => true,
    ),
    timer,
  ]);
}

test("a first start answers its public pages while the demo is written; the rest waits for it", async () => {
  const dataDir = tempDir();
  const port = await freePort();
  const server = start({ DATA_DIR: dataDir, PORT: String(port) });
  const maria = DEMO_LOGINS.find((login) => login.email.startsWith("maria@"))!;
  let writer: number | undefined;
  try {
    // The process that writes the demo is held still (SIGSTOP) as soon as it appears.
    const deadline = Date.now() + 60_000;
    while (!(writer = firstStartProcess(dataDir)) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(writer, "the first start's process").toBeDefined();
    process.kill(writer!, "SIGSTOP");

    let home: Response | undefined;
    while (!home && Date.now() < deadline) {
      home = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
      if (!home) await new Promise((r) => setTimeout(r, 20));
    }
    expect(home?.status).toBe(200);
    expect(await home!.text()).toContain("</html>");
    // The demo is not written: a sign-in and /healthz wait rather than answer without it.
    const signIn = fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: `http://localhost:${port}` },
      body: JSON.stringify({ email: maria.email, password: maria.password }),
    });
    const health = fetch(`http://127.0.0.1:${port}/healthz`);
    expect(await settlesWithin(signIn, 1_500)).toBe(false);
    expect(await settlesWithin(health, 10)).toBe(false);
    expect(server.output()).not.toContain("Server ready");

    process.kill(writer!, "SIGCONT");
    expect((await health).status).toBe(200);
    const signedIn = await signIn;
    expect(signedIn.status, await signedIn.clone().text()).toBe(200);
    await waitForOutput(server, /Server ready/);
    expect(server.output()).toContain(maria.email);
  } finally {
    try {
      if (writer) process.kill(writer, "SIGCONT");
    } catch {
      // it has written the demo and exited
    }
    server.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("SIGTERM sent to the `npm start` process stops the server: port closed, data directory unlocked", async () => {
  const dataDir = tempDir();
  const port = await freePort();
  let output = "";
  // As a supervisor or `kill` would: the signal goes to npm's own process id, not the server's.
  const npm = spawn("npm", ["start"], {
    env: {
      ...process.env,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PORT: String(port),
      SEED_DEMO: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  npm.stdout!.on("data", (d) => (output += d));
  npm.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => npm.on("exit", (code) => resolve(code)));
  const server: Started = { child: npm, output: () => output, exited };
  try {
    await waitForOutput(server, /Server ready/);
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    npm.kill("SIGTERM");
    await exited;
    // npm waited for the server: once it is gone, so is the server.
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(true));
    });
    expect(refused).toBe(true);
    expect(fs.existsSync(path.join(dataDir, "server.lock"))).toBe(false);
    expect(output).not.toContain("is in use by another process");
  } finally {
    npm.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a bad setting stops start-up with a message naming it", async () => {
  const dataDir = tempDir();
  const server = start({ DATA_DIR: dataDir, PORT: "eighty", SMTP_URL: "http://mail.example.com" });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("PORT must be a whole number");
  expect(server.output()).toContain("SMTP_URL must be a URL starting with smtp:// or smtps://");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test("SIGTERM lets in-flight requests finish before exiting", async () => {
  const dataDir = tempDir();
  const port = await freePort();
  const server = start({ DATA_DIR: dataDir, PORT: String(port), SEED_DEMO: "false" });
  try {
    await waitForOutput(server, /Server ready/);
    const requests = Array.from({ length: 30 }, (_, i) =>
      fetch(`http://127.0.0.1:${port}/${i % 2 ? "nowhere" : "auth"}`).then((r) => r.status),
    );
    await new Promise((r) => setTimeout(r, 5));
    server.child.kill("SIGTERM");
    // While draining (SHUTDOWN_DRAIN_MS, 1.5 s), a load balancer's health check sees it leaving:
    // asked just after the signal, beside the requests still in flight, however long they take.
    await new Promise((r) => setTimeout(r, 100));
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(503);
    const statuses = await Promise.all(requests);
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    expect(await server.exited).toBe(0);
  } finally {
    server.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test("when PostgreSQL stops answering: /healthz says 503, pages show the error screen, then recover", async () => {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const name = `process_${Date.now()}`;
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  const dataDir = tempDir();
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const server = start({
    DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: url.toString(),
    AUTH_SECRET: "process-test-secret-process-test-secret",
  });
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  try {
    await waitForOutput(server, /Server ready/);
    const db = drizzle(pool, { schema, casing: "snake_case" });
    const email = uniqueEmail("outage");
    const account = await createUser(db, {
      email,
      password: PASSWORD,
      firstName: "Olive",
      lastName: "Outage",
    });
    await createHome(db, account.id);
    await pool.end();

    const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    expect((await fetch(`${origin}/dashboard`, { headers: { cookie } })).status).toBe(200);

    // Take the database away from the server.
    await admin.query(`alter database ${name} allow_connections false`);
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [
      name,
    ]);

    const health = await fetch(`${origin}/healthz`);
    expect(health.status).toBe(503);
    const page = await fetch(`${origin}/dashboard`, { headers: { cookie } });
    expect(page.status).toBe(500);
    const html = await page.text();
    expect(html).toContain("Unexpected Application Error!");
    expect(html).not.toMatch(/at .*\.(js|ts):\d+/); // no stack trace in production

    // Back again: the same process answers without a restart.
    await admin.query(`alter database ${name} allow_connections true`);
    await expect
      .poll(async () => (await fetch(`${origin}/healthz`)).status, { timeout: 15_000 })
      .toBe(200);
    expect((await fetch(`${origin}/dashboard`, { headers: { cookie } })).status).toBe(200);
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
