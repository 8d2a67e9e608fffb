import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import * as schema from "~/db/schema";
import type { Database } from "~/db/client.server";
import { createHome, createUser } from "../../server/seed/factories";
import { HttpClient } from "../support/http";
import { describeFailures, sleep, startLoad } from "../support/load";
import {
  createDatabase,
  freePort,
  startPgCluster,
  startServer,
  TEST_AUTH_SECRET,
  type ServerProcess,
} from "../support/processes";
import { undeliveredNow } from "../support/outbox";
import { startSink } from "../support/sink";
import { expect, PASSWORD, test, uniqueEmail } from "./fixtures";

/*
 * Parts fail: the mail server and the automation webhook go away, a server process is killed
 * or stopped for a deploy while traffic flows, PostgreSQL restarts. Real processes, a real
 * PostgreSQL, real SMTP and HTTP receivers.
 */

test.describe.configure({ mode: "serial" });

const FAST_OUTBOX = {
  OUTBOX_POLL_MS: "200",
  OUTBOX_BASE_BACKOFF_MS: "200",
  OUTBOX_MAX_BACKOFF_MS: "1000",
};

function drizzleOn(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return { pool, db: drizzle(pool, { schema, casing: "snake_case" }) as Database };
}

async function customerIn(db: Database) {
  const account = await createUser(db, {
    email: uniqueEmail("fault"),
    password: PASSWORD,
    firstName: "Fay",
    lastName: "Fault",
  });
  await createHome(db, account.id);
  return account;
}

async function signedIn(base: string, account: { email: string; password: string }) {
  const http = new HttpClient(base);
  const response = await http.postJson("/api/auth/sign-in/email", {
    email: account.email,
    password: account.password,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return http;
}

/** The home page's form (name, zip, e-mail) or a city page's (name, phone, e-mail, message). */
async function submitLead(server: ServerProcess, email: string, fromCityPage: boolean) {
  const http = new HttpClient(server.origin);
  return fromCityPage
    ? http.postForm("/dunwoody-handyman", {
        name: "Dana Lead",
        phone: "(404) 555-0123",
        email,
        message: "Gutters and a squeaky door",
      })
    : http.postForm("/?index", { name: "Dana Lead", zipCode: "30303", email });
}

async function signUp(server: ServerProcess, email: string) {
  const http = new HttpClient(server.origin);
  return http.postJson("/api/auth/sign-up/email", {
    firstName: "Fault",
    lastName: "Member",
    email,
    password: PASSWORD,
  });
}

test("mail server and webhook down while 100 leads and sign-ups arrive, a worker SIGKILLed mid-batch: every lead and e-mail delivered, none twice", async () => {
  test.setTimeout(240_000);
  const database = await createDatabase();
  const smtpPort = await freePort();
  const httpPort = await freePort();
  const sink = await startSink({ smtpPort, httpPort });
  const { pool, db } = drizzleOn(database.url);
  const servers: ServerProcess[] = [];
  try {
    sink.setWebhookUp(false);
    await sink.setSmtpUp(false);
    const env = {
      DATABASE_URL: database.url,
      AUTH_SECRET: TEST_AUTH_SECRET,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      LEAD_WEBHOOK_URL: `http://127.0.0.1:${httpPort}/webhook`,
      ...FAST_OUTBOX,
    };
    const a = await startServer(env);
    const b = await startServer(env);
    servers.push(a, b);

    // 50 leads (home and city forms) and 50 sign-ups, through both processes, while nothing
    // can be delivered. Each from its own address, as real visitors.
    const t0 = Date.now();
    const leadEmails = Array.from({ length: 50 }, (_, i) => uniqueEmail(`lead${i}`));
    const signUpEmails = Array.from({ length: 50 }, (_, i) => uniqueEmail(`down${i}`));
    // A lead taken from a form without JavaScript answers 303 to its result (ADR 025).
    const arrivals: [() => Promise<Response>, number][] = [
      ...leadEmails.map((email, i): [() => Promise<Response>, number] => [
        () => submitLead(i % 2 ? b : a, email, i % 3 === 0),
        303,
      ]),
      ...signUpEmails.map((email, i): [() => Promise<Response>, number] => [
        () => signUp(i % 2 ? a : b, email),
        200,
      ]),
    ];
    for (let i = 0; i < arrivals.length; i += 10) {
      const batch = arrivals.slice(i, i + 10);
      const statuses = await Promise.all(batch.map(async ([arrive]) => (await arrive()).status));
      expect(statuses).toEqual(batch.map(([, status]) => status));
    }
    // Each lead is a webhook call and an alert e-mail to the office, a home-page lead also the
    // visitor's acknowledgement; each sign-up an e-mail.
    const homeLeads = leadEmails.filter((_, i) => i % 3 !== 0).length;
    const total = leadEmails.length * 2 + homeLeads + signUpEmails.length;
    const arrivedMs = Date.now() - t0;
    // Every lead is stored at once; every delivery was tried and kept.
    expect((await db.select().from(schema.leadEntries)).length).toBe(leadEmails.length);
    await expect
      .poll(
        async () => {
          const rows = await db.select().from(schema.outbox);
          return rows.filter((r) => r.attempts >= 1 && r.deliveredAt === null).length;
        },
        { timeout: 60_000 },
      )
      .toBe(total);
    expect(sink.mails).toHaveLength(0);
    expect(sink.calls).toHaveLength(0);

    // Back, but slow, so the workers are mid-batch when one of them is killed.
    sink.setDelay(40);
    sink.setWebhookUp(true);
    await sink.setSmtpUp(true);
    await expect
      .poll(() => sink.mails.length + sink.calls.length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(15);
    expect(await a.kill()).toBe("SIGKILL");
    const killedMs = Date.now() - t0;

    const uniqueDeliveries = () =>
      new Set([
        ...sink.mails.map((m) => m.messageId),
        ...sink.calls.map((c) => String(c.headers["idempotency-key"])),
      ]).size;
    await expect.poll(uniqueDeliveries, { timeout: 90_000 }).toBe(total);
    const deliveredMs = Date.now() - t0;
    // A new process in the place of the killed one finds nothing left to send.
    servers.push(await startServer(env));
    await sleep(1_500);

    for (const email of signUpEmails) expect(sink.mails.some((m) => m.to[0] === email)).toBe(true);
    const leadCalls = sink.calls.map((c) => c.body as { email?: string });
    for (const email of leadEmails) expect(leadCalls.some((c) => c.email === email)).toBe(true);
    const alerts = new Set(
      sink.mails.filter((m) => /^New lead: /.test(m.subject)).map((m) => m.messageId),
    );
    expect(alerts.size).toBe(leadEmails.length);
    expect(uniqueDeliveries()).toBe(total);
    // The only possible repeat: the one item the killed worker had handed over but not yet
    // recorded; it carries the same Message-ID or Idempotency-Key, so it is recognisable.
    const repeats = sink.mails.length + sink.calls.length - total;
    expect(repeats).toBeLessThanOrEqual(1);
    const pending = await undeliveredNow(db);
    expect(pending).toEqual([]);
    console.log(
      `outbox fault: ${leadEmails.length} leads (webhook and office alert) and ${signUpEmails.length} sign-up e-mails delivered, ${repeats} repeat(s) after SIGKILL ` +
        `(arrived by ${arrivedMs} ms, worker killed at ${killedMs} ms, all delivered at ${deliveredMs} ms)`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await pool.end();
    await sink.close();
    await database.drop();
  }
});

test("PostgreSQL restarted under load: the server keeps running, /healthz says 503 meanwhile, then answers again within seconds", async () => {
  test.setTimeout(180_000);
  const cluster = await startPgCluster();
  const smtpPort = await freePort();
  const sink = await startSink({ smtpPort, httpPort: await freePort() });
  const { pool, db } = drizzleOn(cluster.url);
  let server: ServerProcess | undefined;
  try {
    server = await startServer({
      DATABASE_URL: cluster.url,
      AUTH_SECRET: TEST_AUTH_SECRET,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      ...FAST_OUTBOX,
    });
    const member = await signedIn(server.origin, await customerIn(db));
    await pool.end();
    const visitor = new HttpClient(server.origin);
    const load = startLoad(
      [
        { name: "dashboard", send: () => member.get("/dashboard"), ok: (s) => s === 200 },
        { name: "home", send: () => visitor.get("/") },
      ],
      { concurrency: 8 },
    );
    const health: { at: number; status: number }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const at = Date.now();
        const status = await fetch(`${server!.origin}/healthz`)
          .then((r) => r.status)
          .catch(() => 0);
        health.push({ at, status });
        await sleep(100);
      }
    })();

    await sleep(2_000);
    const downAt = Date.now();
    await cluster.pause();
    await sleep(3_000);
    const upAt = Date.now();
    await cluster.resume();
    await expect
      .poll(async () => (await member.get("/dashboard")).status, { timeout: 15_000 })
      .toBe(200);
    await sleep(2_000);
    polling = false;
    await poller;
    const outcomes = await load.stop();

    // The process never went away.
    expect(server.child.exitCode).toBeNull();
    expect(server.child.signalCode).toBeNull();
    // While the database was away, /healthz said so (it never answered 200, never hung).
    const during = health.filter((h) => h.at > downAt + 500 && h.at < upAt);
    expect(during.length).toBeGreaterThan(5);
    expect(during.every((h) => h.status === 503)).toBe(true);
    // Answering again within seconds of the database's return.
    const recovered = health.find((h) => h.at > upAt && h.status === 200);
    expect(recovered).toBeDefined();
    const recoveryMs = recovered!.at - upAt;
    expect(recoveryMs).toBeLessThan(5_000);
    // Before and after the outage every request succeeded; during it, none hung.
    const before = outcomes.filter((o) => o.startedAt + o.ms < downAt);
    const after = outcomes.filter((o) => o.startedAt > recovered!.at + 500);
    expect(
      before.filter((o) => !o.ok),
      describeFailures(before),
    ).toEqual([]);
    expect(
      after.filter((o) => !o.ok),
      describeFailures(after),
    ).toEqual([]);
    expect(after.length).toBeGreaterThan(20);
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(10_000);
    // Pages that need no database kept working throughout.
    expect(outcomes.filter((o) => o.target === "home" && !o.ok)).toEqual([]);

    // The outbox worker survived too: a sign-up now is confirmed by e-mail.
    const email = uniqueEmail("after-restart");
    expect((await signUp(server, email)).status).toBe(200);
    await expect.poll(() => sink.mails.filter((m) => m.to[0] === email).length).toBe(1);
    console.log(
      `PostgreSQL restart: healthz 200 again ${recoveryMs} ms after the database returned; ${outcomes.length} requests`,
    );
  } finally {
    if (server && server.child.exitCode !== null)
      console.log(`server exited with ${server.child.exitCode}:\n${server.output()}`);
    await server?.stop();
    await sink.close();
    await cluster.stop();
  }
});
