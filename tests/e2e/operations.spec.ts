import { execFile } from "node:child_process";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "~/db/schema";
import { LEAD_ADDRESS_LIMIT } from "~/features/leads/submit.server";
import { DEMO_LOGINS } from "../../server/seed/demo";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import { HttpClient } from "../support/http";
import {
  createDatabase,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../support/processes";
import { expect, PASSWORD, test, uniqueEmail } from "./fixtures";

/*
 * The backup and restore procedures of docs/operations.md, section 6, done for real: a restore
 * counts only when a server runs on the copy and people can sign in to their data.
 */

const run = promisify(execFile);

test.describe.configure({ mode: "serial" });

async function signIn(base: string, account: { email: string; password: string }) {
  const http = new HttpClient(base);
  const response = await http.postJson("/api/auth/sign-in/email", account);
  expect(response.status, await response.clone().text()).toBe(200);
  return http;
}

function visibleText(html: string) {
  return html.replace(/<!-- -->/g, "");
}

test("PostgreSQL: pg_dump of a live database, pg_restore into an empty one, a server on the copy", async () => {
  test.setTimeout(120_000);
  const original = await createDatabase();
  const restored = await createDatabase();
  const work = tempDir("handyman-backup-");
  const servers: ServerProcess[] = [];
  const pool = new pg.Pool({ connectionString: original.url, max: 2 });
  try {
    const env = { AUTH_SECRET: TEST_AUTH_SECRET };
    servers.push(await startServer({ ...env, DATABASE_URL: original.url }));
    const db = drizzle(pool, { schema, casing: "snake_case" });
    const account = await createUser(db, {
      email: uniqueEmail("backup"),
      password: PASSWORD,
      firstName: "Bea",
      lastName: "Backup",
    });
    const home = await createHome(db, account.id, { address: "9 Restore Row" });
    await createServiceRequest(db, home, { title: "Fix the squeaky gate" });
    const member = await signIn(servers[0].origin, account);

    // The documented commands, against the running server's database.
    const dump = path.join(work, "handyman.dump");
    await run("pg_dump", ["--format=custom", "--no-owner", `--file=${dump}`, original.url]);
    await run("pg_restore", ["--no-owner", "--exit-on-error", "-d", restored.url, dump]);
    await servers[0].stop();

    const copy = await startServer({ ...env, DATABASE_URL: restored.url });
    servers.push(copy);
    // The session made before the backup is still good, and so is the password.
    member.base = copy.origin;
    const page = await member.get("/dashboard");
    expect(page.status).toBe(200);
    expect(visibleText(await page.text())).toContain("Welcome, Bea");
    await signIn(copy.origin, account);
    const check = new pg.Client({ connectionString: restored.url });
    await check.connect();
    const { rows } = await check.query(
      "select r.title, h.address from service_requests r join homes h on h.id = r.home_id where r.customer_id = $1",
      [account.id],
    );
    await check.end();
    expect(rows).toEqual([{ title: "Fix the squeaky gate", address: "9 Restore Row" }]);
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await pool.end();
    await original.drop();
    await restored.drop();
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test("embedded: stop, archive DATA_DIR, unpack elsewhere, start on the copy", async () => {
  test.setTimeout(120_000);
  const parent = tempDir("handyman-embedded-");
  const dataDir = path.join(parent, "data");
  const restoreParent = tempDir("handyman-restore-");
  const servers: ServerProcess[] = [];
  try {
    const first = await startServer({ DATA_DIR: dataDir, SEED_DEMO: "true" });
    servers.push(first);
    const maria = DEMO_LOGINS[1];
    await signIn(first.origin, maria);
    expect(await first.stop()).toBe(0);

    const archive = path.join(parent, "handyman-backup.tgz");
    await run("tar", ["czf", archive, "-C", parent, "data"]);
    await run("tar", ["xzf", archive, "-C", restoreParent]);

    const copy = await startServer({ DATA_DIR: path.join(restoreParent, "data") });
    servers.push(copy);
    const member = await signIn(copy.origin, maria);
    const page = await member.get("/dashboard");
    expect(page.status).toBe(200);
    expect(visibleText(await page.text())).toContain("Welcome, Maria");
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(parent, { recursive: true, force: true });
    fs.rmSync(restoreParent, { recursive: true, force: true });
  }
});

/** A request as a TLS-terminating proxy forwards it: the public Host, X-Forwarded-*. */
function throughProxy(
  port: number,
  path: string,
  options: { visitor: string; body?: string; contentType?: string },
) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: options.body === undefined ? "GET" : "POST",
        headers: {
          host: "handyman.test",
          origin: "https://handyman.test",
          "x-forwarded-proto": "https",
          "x-forwarded-for": options.visitor,
          ...(options.contentType ? { "content-type": options.contentType } : {}),
        },
      },
      (response) => {
        response.resume();
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

test("behind a TLS-terminating proxy with TRUST_PROXY=1: forms work, https is known, each visitor is counted apart", async () => {
  test.setTimeout(120_000);
  const database = await createDatabase();
  let server: ServerProcess | undefined;
  try {
    server = await startServer({
      DATABASE_URL: database.url,
      AUTH_SECRET: TEST_AUTH_SECRET,
      PUBLIC_URL: "https://handyman.test",
      TRUST_PROXY: "1",
    });
    const lead = (visitor: string, email: string) =>
      throughProxy(server!.port, "/?index", {
        visitor,
        contentType: "application/x-www-form-urlencoded",
        body: new URLSearchParams({ name: "Tess Proxy", zipCode: "30303", email }).toString(),
      });
    // LEAD_ADDRESS_LIMIT leads per 10 minutes per client address: the first visitor's next one
    // is refused...
    const first = [];
    for (let i = 0; i <= LEAD_ADDRESS_LIMIT; i++) {
      first.push((await lead("203.0.113.7", uniqueEmail("tls"))).status);
    }
    // (A taken lead answers 303 to its result: a form without JavaScript, ADR 025.)
    expect(first).toEqual([...Array<number>(LEAD_ADDRESS_LIMIT).fill(303), 429]);
    // ...and a second visitor behind the same proxy is not.
    expect((await lead("198.51.100.23", uniqueEmail("tls"))).status).toBe(303);
    // The request came in over https: HSTS.
    const page = await throughProxy(server.port, "/auth", { visitor: "203.0.113.7" });
    expect(page.headers["strict-transport-security"]).toMatch(/max-age=/);
  } finally {
    await server?.stop();
    await database.drop();
  }
});
