import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { expect, test } from "./fixtures";
import { createDatabase, freePort, SERVER_ENTRY, startServer, tempDir } from "../support/processes";

/*
 * Stopping a server process: it answers what it accepted, tells keep-alive clients to go, and
 * always exits by its deadline, whatever is left open.
 */

// Each test starts a server process (migrations on a fresh database): slow on a busy machine.
test.describe.configure({ mode: "serial", timeout: 300_000 });

const ROOT = path.resolve(import.meta.dirname, "../..");

async function waitForHealth(origin: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${origin}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${origin} did not start`);
}

/** One GET on `agent`; the status and Connection header, or the error's code. */
function get(port: number, agent: http.Agent, pathname: string) {
  return new Promise<{ status?: number; connection?: string; error?: string }>((resolve) => {
    const request = http.get({ host: "127.0.0.1", port, path: pathname, agent }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode, connection: response.headers.connection }),
      );
      response.on("error", (error: NodeJS.ErrnoException) =>
        resolve({ error: error.code ?? error.message }),
      );
    });
    request.setTimeout(15_000, () => request.destroy(new Error("timeout")));
    request.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ error: error.code ?? error.message }),
    );
  });
}

test("a client that keeps sending across SIGTERM: every request that got a connection is answered", async () => {
  const server = await startServer({ SHUTDOWN_DRAIN_MS: "1000" }, { readyTimeoutMs: 240_000 });
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const fresh = new http.Agent({ keepAlive: false });
  const outcomes: { status?: number; connection?: string; error?: string; afterSignal: boolean }[] =
    [];
  let signalled = false;
  let gone = false;
  const loop = async (agent: http.Agent, pathname: string) => {
    while (!gone) {
      const afterSignal = signalled;
      const outcome = await get(server.port, agent, pathname);
      outcomes.push({ ...outcome, afterSignal });
      // Refused: the server no longer listens, which is how a client learns it is gone.
      if (outcome.error === "ECONNREFUSED") break;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    const loops = [
      ...Array.from({ length: 2 }, () => loop(keepAlive, "/auth")),
      ...Array.from({ length: 2 }, () => loop(fresh, "/auth")),
    ];
    await new Promise((r) => setTimeout(r, 1_000));
    signalled = true;
    server.child.kill("SIGTERM");
    const code = await server.exited;
    gone = true;
    await Promise.all(loops);
    expect(code).toBe(0);

    const answered = outcomes.filter((o) => o.status !== undefined);
    const failed = outcomes.filter((o) => o.error !== undefined && o.error !== "ECONNREFUSED");
    expect(failed, JSON.stringify(failed)).toEqual([]);
    expect(answered.every((o) => o.status === 200)).toBe(true);
    // Answers after the signal tell keep-alive clients to close their connection.
    const afterSignal = answered.filter((o) => o.afterSignal);
    expect(afterSignal.length).toBeGreaterThan(0);
    expect(afterSignal.every((o) => o.connection === "close")).toBe(true);
  } finally {
    gone = true;
    keepAlive.destroy();
    fresh.destroy();
    await server.kill();
  }
});

test("a server whose stdout nobody reads keeps answering and still exits on SIGTERM", async () => {
  // A pipe that is held open but never read: once its 64 KB are full, a synchronous log write
  // would block the process for ever (it would answer nothing and ignore SIGTERM).
  const dir = tempDir("handyman-stdout-");
  const fifo = path.join(dir, "stdout");
  execFileSync("mkfifo", [fifo]);
  const pipe = fs.openSync(fifo, fs.constants.O_RDWR);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  let stderr = "";
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      HOST: "127.0.0.1",
      PORT: String(port),
      PUBLIC_URL: origin,
      SEED_DEMO: "false",
      DATA_DIR: path.join(dir, "data"),
      SHUTDOWN_DRAIN_MS: "200",
      SHUTDOWN_TIMEOUT_MS: "5000",
    },
    stdio: ["ignore", pipe, "pipe"],
  });
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | string | null>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal)),
  );
  try {
    await waitForHealth(origin, 240_000);
    // About 170 bytes of log per request: 1,000 requests are well over what the pipe holds.
    const requestId = "r".repeat(64);
    let answered = 0;
    for (let batch = 0; batch < 50; batch++) {
      const statuses = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${origin}/favicon.svg`, {
            headers: { "x-request-id": requestId },
            signal: AbortSignal.timeout(10_000),
          }).then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          }),
        ),
      );
      answered += statuses.filter((s) => s === 200).length;
    }
    expect(answered).toBe(1_000);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);

    const signalled = Date.now();
    child.kill("SIGTERM");
    const code = await Promise.race([
      exited,
      new Promise((r) => setTimeout(() => r("still running"), 10_000)),
    ]);
    expect(code, stderr).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(5_000);
  } finally {
    child.kill("SIGKILL");
    await exited;
    fs.closeSync(pipe);
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("SIGTERM exits by SHUTDOWN_TIMEOUT_MS despite a half-closed connection and a webhook that never answers", async () => {
  // A receiver that takes the call and never answers (the worker waits up to 10 s for it).
  const calls: http.ServerResponse[] = [];
  const receiver = http.createServer((_req, res) => calls.push(res));
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverPort = (receiver.address() as net.AddressInfo).port;
  const database = await createDatabase();
  const server = await startServer(
    {
      DATABASE_URL: database.url,
      AUTH_SECRET: "shutdown-test-secret-shutdown-test-secret",
      LEAD_WEBHOOK_URL: `http://127.0.0.1:${receiverPort}/hook`,
      SHUTDOWN_DRAIN_MS: "200",
      SHUTDOWN_TIMEOUT_MS: "3000",
    },
    { readyTimeoutMs: 240_000 },
  );
  const client = new pg.Client({ connectionString: database.url });
  const socket = new net.Socket();
  try {
    await client.connect();
    await client.query(
      `insert into outbox (kind, payload) values ('lead_webhook', '{"body":{"name":"Slow"},"leadId":"slow"}')`,
    );
    await client.query(`select pg_notify('outbox_enqueued', '')`);
    await expect.poll(() => calls.length, { timeout: 30_000 }).toBe(1);

    // A request cut off in the middle of its body, and the client's side closed (CLOSE-WAIT).
    await new Promise<void>((resolve) => socket.connect(server.port, "127.0.0.1", resolve));
    socket.on("error", () => {});
    socket.write(
      "POST /auth HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n" +
        "Content-Length: 1000\r\n\r\nemail=half",
    );
    socket.end();
    await new Promise((r) => setTimeout(r, 200));

    const signalled = Date.now();
    server.child.kill("SIGTERM");
    const code = await Promise.race([
      server.exited,
      new Promise((r) => setTimeout(() => r("still running"), 15_000)),
    ]);
    const tookMs = Date.now() - signalled;
    // Stuck work makes it the forced exit (code 1), on time.
    expect(code, server.output()).toBe(1);
    expect(tookMs).toBeGreaterThanOrEqual(2_900);
    // On time: the 3 s deadline plus the exit itself, with room for a loaded machine.
    expect(tookMs).toBeLessThan(10_000);
    expect(server.output()).toContain("shutdown took too long");
  } finally {
    socket.destroy();
    await server.kill();
    await client.end().catch(() => {});
    for (const res of calls) res.socket?.destroy();
    receiver.closeAllConnections();
    receiver.close();
    await database.drop();
  }
});
