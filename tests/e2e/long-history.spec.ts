import fs from "node:fs";
import { openDatabase, type DatabaseOptions } from "~/db/client.server";
import { businessToday } from "~/lib/business-calendar";
import {
  createHome,
  createMembership,
  createServiceRequest,
  createUser,
} from "../../server/seed/factories";
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
 * Data that killed the process once cannot kill it again (issue 25). A member books and cancels
 * one visit through the product's own routes until her membership's ledgers hold over 2,000
 * entries (on PGlite, her next dashboard once crashed the server: answers over 128 KB reached
 * node-postgres corrupted, ADR 035). Then the server restarts, and her dashboard (every tab),
 * her statement (every page, and the CSV) and the staff's page for her membership all answer.
 * On the embedded database and on PostgreSQL. While the history grows, the server's resident
 * memory and /healthz's latency are sampled (docs/benchmarks.md).
 */

test.describe.configure({ mode: "serial" });

/** Book-and-cancel rounds: each writes two ledger entries (the block reserved, then back). */
const CYCLES = 1_010;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** React's server rendering separates adjacent text with comments. */
const text = (html: string) => html.replaceAll("<!-- -->", "");

function residentMb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

async function signedIn(server: ServerProcess, email: string) {
  const http = new HttpClient(server.origin);
  const response = await http.postJson("/api/auth/sign-in/email", { email, password: PASSWORD });
  expect(response.status, await response.clone().text()).toBe(200);
  return http;
}

/** A page that must answer 200; a minute without an answer fails the test (it once hung). */
async function page(http: HttpClient, path: string) {
  const response = await http.request(path, { signal: AbortSignal.timeout(60_000) });
  const body = await response.text();
  expect(response.status, `${path}: ${body.slice(0, 300)}`).toBe(200);
  return text(body);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

for (const kind of ["pglite", "postgres"] as const) {
  test(`a member's history past 2,000 ledger entries, grown through the routes, survives a restart: her pages and staff's answer (${kind})`, async () => {
    test.setTimeout(900_000);
    const dataDir = tempDir("handyman-history-");
    const database = kind === "postgres" ? await createDatabase() : undefined;
    const options: DatabaseOptions = database ? { databaseUrl: database.url } : { dataDir };
    const env: Record<string, string> = {
      ...(database ? { DATABASE_URL: database.url } : {}),
      DATA_DIR: dataDir,
      AUTH_SECRET: TEST_AUTH_SECRET,
      SEED_DEMO: "false",
    };
    const servers: ServerProcess[] = [];
    try {
      // The people, written before the server holds the data directory.
      const handle = await openDatabase(options);
      await handle.migrate();
      const staff = await createUser(handle.db, {
        email: uniqueEmail("history-staff"),
        password: PASSWORD,
        firstName: "Sam",
        lastName: "Staff",
        isEmployee: true,
      });
      const member = await createUser(handle.db, {
        email: uniqueEmail("history-member"),
        password: PASSWORD,
        firstName: "Hattie",
        lastName: "History",
      });
      const home = await createHome(handle.db, member.id);
      // A visit needs a task: the same request goes on each visit and back to her list.
      const task = await createServiceRequest(handle.db, home, {
        title: "Tighten the porch railing",
        priority: "next",
      });
      await createMembership(handle.db, member.id, {
        plan: "complete",
        billing: "annual",
        startDate: businessToday(),
      });
      await handle.close();

      const first = await startServer(env);
      servers.push(first);
      const http = await signedIn(first, member.email);
      // One offered time, far enough ahead to be canceled by the member (24 hours' notice):
      // the last offered day's first time.
      const days = [
        ...(await page(http, "/dashboard/book?block=105")).matchAll(
          /name="date" value="(\d{4}-\d{2}-\d{2})"/g,
        ),
      ].map((m) => m[1]);
      expect(days.length).toBeGreaterThan(1);
      const date = days.at(-1)!;
      const start = /name="start" value="(\d+\|[0-9a-f-]{36})"/.exec(
        await page(http, `/dashboard/book?block=105&date=${date}`),
      )![1];

      // /healthz asked every 250 ms throughout the growth, as a load balancer would.
      const health: { ms: number; status: number }[] = [];
      let growing = true;
      const prober = (async () => {
        while (growing) {
          const began = performance.now();
          const status = await fetch(`${first.origin}/healthz`).then(
            async (response) => (await response.arrayBuffer(), response.status),
            () => 0,
          );
          health.push({ ms: performance.now() - began, status });
          await sleep(250);
        }
      })();
      const samples: { cycle: number; rssMb: number; healthMs: number }[] = [];
      const sample = async (cycle: number) => {
        const began = performance.now();
        await (await fetch(`${first.origin}/healthz`)).arrayBuffer();
        samples.push({
          cycle,
          rssMb: residentMb(first.child.pid!),
          healthMs: performance.now() - began,
        });
      };
      const grownFrom = Date.now();
      await sample(0);
      try {
        for (let cycle = 1; cycle <= CYCLES; cycle++) {
          const booked = await http.postForm("/dashboard/book", {
            block: "105",
            date,
            start,
            task: task.id,
            tasks: "chosen",
          });
          const location = booked.headers.get("location") ?? "";
          expect(booked.status, `booking ${cycle}: ${await booked.text()}`).toBe(302);
          const id = /^\/dashboard\/visits\/([0-9a-f-]{36})\?booked=1$/.exec(location)?.[1];
          expect(id, location).toBeTruthy();
          const canceled = await http.postForm(`/dashboard/visits/${id}`, { intent: "cancel" });
          const answered = await canceled.text();
          expect(canceled.status, `cancel ${cycle}: ${answered}`).toBe(200);
          expect(answered).toContain("Your visit is canceled. Its hours are back in your bank.");
          if (cycle % 100 === 0 || cycle === CYCLES) await sample(cycle);
        }
      } finally {
        growing = false;
        await prober;
      }
      const grownMs = Date.now() - grownFrom;
      const healthMs = health.map((h) => h.ms);
      console.log(
        [
          `${kind}: ${CYCLES} book-and-cancel rounds (${CYCLES * 2} posts) in ${(grownMs / 1000).toFixed(1)} s`,
          `  /healthz every 250 ms meanwhile: ${health.length} answers, ${health.filter((h) => h.status !== 200).length} not 200, ` +
            `p50 ${percentile(healthMs, 0.5).toFixed(1)} ms, p95 ${percentile(healthMs, 0.95).toFixed(1)} ms, max ${Math.max(...healthMs).toFixed(1)} ms`,
          ...samples.map(
            (s) =>
              `  after ${String(s.cycle).padStart(4)} rounds: resident ${s.rssMb.toFixed(0)} MB, /healthz ${s.healthMs.toFixed(1)} ms`,
          ),
        ].join("\n"),
      );
      expect(health.filter((h) => h.status !== 200)).toEqual([]);
      expect(first.child.exitCode).toBeNull();

      // A restart: the data that once crashed the process is read from the start.
      expect(await first.stop()).toBe(0);
      const second = await startServer(env);
      servers.push(second);
      const again = await signedIn(second, member.email);
      for (const tab of ["requests", "appointments", "schedule", "completed", "membership"]) {
        await page(again, `/dashboard?tab=${tab}`);
      }
      const membershipTab = await page(again, "/dashboard?tab=membership");
      const [, pagesText, totalText] = /Page 1 of (\d+) \((\d+) entries\)/.exec(membershipTab)!;
      const pages = Number(pagesText);
      const total = Number(totalText);
      expect(total).toBeGreaterThan(2_000);
      console.log(
        `${kind}: after the restart, her statement has ${total} entries on ${pages} pages`,
      );
      for (let n = 2; n <= pages; n++) {
        expect(await page(again, `/dashboard?tab=membership&spage=${n}`)).toContain(
          `Page ${n} of ${pages} (${total} entries)`,
        );
      }
      const csvPath = /href="(\/dashboard\/memberships\/[0-9a-f-]{36}\/statement)"/.exec(
        membershipTab,
      )![1];
      const csv = await again.get(csvPath);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toContain("text/csv");
      const lines = (await csv.text()).trim().split("\n");
      expect(lines.length).toBeGreaterThan(total);

      const office = await signedIn(second, staff.email);
      const staffPage = await page(office, `/employee/customers/${member.id}/membership`);
      expect(staffPage).toContain(`Page 1 of ${pages} (${total} entries)`);
      expect(
        await page(office, `/employee/customers/${member.id}/membership?spage=${pages}`),
      ).toContain(`Page ${pages} of ${pages}`);
      expect((await fetch(`${second.origin}/healthz`)).status).toBe(200);
      expect(second.child.exitCode).toBeNull();
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
