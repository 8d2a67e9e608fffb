/**
 * The Membership tab with three years of ledger: a Total Home Care member billed monthly for 36
 * months, with payments and visits reserved until the hours or the allowances ran out (some extra
 * visits), about 1,000 ledger entries. Measures the tab's data (plan, meter, statement, parts)
 * alone, and the whole /dashboard?tab=membership document through the production build, signed
 * in like a browser. Target: p95 at most 50 ms server time.
 *
 * Results go to docs/benchmarks.md between <!-- membership:start --> and <!-- membership:end -->.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { setDatabase } from "~/db/client.server";
import { recordPayment } from "~/features/memberships/money.server";
import { customerMembershipView } from "~/features/memberships/views.server";
import { createLocalStorage, setStorage } from "~/lib/storage.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createUser,
} from "../../server/seed/factories";
import {
  ms,
  openBenchDatabase,
  signIn,
  startServer,
  stats,
  timed,
  writeSection,
  yes,
  type Stats,
} from "./support/common";
import { addDays, businessNow } from "~/lib/business-calendar";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const WARMUP = 15;
const TARGET_P95_MS = 50;
const PASSWORD = "Bench-pass-2026!";
const EMAIL = "long-member@bench.example";

async function seed(db: Parameters<typeof createUser>[0]) {
  const member = await createUser(db, {
    email: EMAIL,
    password: PASSWORD,
    firstName: "Long",
    lastName: "Member",
  });
  const home = await createHome(db, member.id);
  const today = businessNow().date;
  const m = await createMembership(db, member.id, {
    plan: "total",
    startDate: addDays(today, -3 * 365),
  });
  for (let i = 0; i < 36 * 16; i++) {
    await recordPayment(
      { membershipId: m.id, amountCents: 4_583, method: "card", reference: `R${i}` },
      null,
      db,
    );
  }
  for (let i = 0; i < 36 * 10; i++) {
    await createMemberVisit(db, home, {
      scheduledDate: addDays(today, -3 * 365 + 3 * i),
      startTime: "09:00",
      endTime: "10:45",
      tasks: ["Upkeep"],
      asExtra: i % 20 === 19,
    }).catch(() => undefined);
  }
  const result = await db.execute<{ n: string }>(
    sql`select (select count(*) from membership_money_ledger) + (select count(*) from membership_minutes_ledger) as n`,
  );
  return { member, entries: Number(result.rows[0].n) };
}

async function sample(work: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) samples.push((await timed(work)).ms);
  return stats(samples);
}

export async function run() {
  const savedEnv = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-membership-"));
  const database = await openBenchDatabase("membership");
  setDatabase(database.handle);
  setStorage(createLocalStorage(path.join(dataDir, "uploads")));
  let server: Awaited<ReturnType<typeof startServer>> = null;
  try {
    console.log(`seeding ${database.label}...`);
    const { member, entries } = await seed(database.handle.db);

    const data = await sample(async () => {
      const view = await customerMembershipView(member.id);
      if (!view || view.statementPage.total !== entries) {
        throw new Error(`expected ${entries} statement lines, got ${view?.statementPage.total}`);
      }
    });
    console.log(`membership data: p50 ${ms(data.p50)}, p95 ${ms(data.p95)} (${entries} entries)`);

    let page: (Stats & { bytes: number }) | null = null;
    server = await startServer(dataDir);
    if (server) {
      const url = `${server.base}/dashboard?tab=membership`;
      const headers = {
        cookie: await signIn(server.base, EMAIL, PASSWORD),
        "sec-fetch-dest": "document",
        accept: "text/html",
      };
      let bytes = 0;
      const pageStats = await sample(async () => {
        const response = await fetch(url, { headers });
        const html = await response.text();
        if (response.status !== 200 || !html.includes("of 84 h left")) {
          throw new Error(`the Membership tab did not render (HTTP ${response.status})`);
        }
        bytes = Buffer.byteLength(html);
      });
      page = { ...pageStats, bytes };
      console.log(`membership page: p50 ${ms(page.p50)}, p95 ${ms(page.p95)}`);
    } else {
      console.log("no production build (run `npm run build` first): page not measured");
    }

    const row = (what: string, s: Stats) =>
      `| ${what} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.max)} | ${yes(s.p95 <= TARGET_P95_MS)} |`;
    const file = writeSection(
      "membership",
      `## Membership tab with three years of ledger

\`npm run bench -- membership-tab\` (scripts/bench/membership-tab.ts), run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${database.label}, ${ITERATIONS} timed calls after ${WARMUP} warm-up calls, one at a time (load average ${os.loadavg()[0].toFixed(2)}).

Data: a Total Home Care member billed monthly for 36 months, with payments and visits until the hours or allowances ran out: ${entries} ledger entries, all on the statement. Target: p95 at most ${TARGET_P95_MS} ms server time.

| what | p50 | p95 | max | target met |
| --- | ---: | ---: | ---: | --- |
${row("the tab's data (plan, meter, statement, parts)", data)}
${page ? `${row(`the whole /dashboard?tab=membership document (${Math.round(page.bytes / 1024)} KB, session, every query, rendering)`, page)}` : "| the whole page | not measured: no production build | | | |"}
`,
    );
    console.log(`written to ${file}`);
  } finally {
    await server?.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.env = savedEnv;
  }
}
