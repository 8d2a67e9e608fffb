/**
 * Where the reports page's time goes on the bench data set (issue 30, item 4): seeds the demo
 * and the bench data set into one database (PGlite in memory, or PostgreSQL with
 * BENCH_DATABASE_URL / TEST_DATABASE_URL), then times ownerReport() for each period choice and
 * each statement it runs. `npx tsx scripts/bench/reports-profile.ts` (PROFILE_RUNS=n, default 5).
 * A profile, not the bench: the bench is `npm run bench -- reports`.
 */
import { sql, type SQL } from "drizzle-orm";
import { loadClosedDays, loadHandymen } from "~/features/availability/index.server";
import { businessToday } from "~/lib/business-calendar";
import { periodFrom } from "~/features/reports/period";
import { ownerReport } from "~/features/reports/index.server";
import { seedBench } from "../../server/seed/bench";
import { seedDemo } from "../../server/seed/demo";
import { openBenchDatabase, stats, timed } from "./support/common";

const RUNS = Number(process.env.PROFILE_RUNS ?? 5);

async function main() {
  const database = await openBenchDatabase("reports_profile");
  const today = businessToday();
  await seedDemo(database.handle.db, today);
  await seedBench(database.handle.db, { today });
  const client = database.handle.db as unknown as {
    execute: (query: unknown) => Promise<unknown>;
  };
  const original = client.execute.bind(client);
  let log: { ms: number; text: string; query: unknown }[] = [];
  // One statement at a time, so each time is the statement's own (PGlite runs them in turn
  // anyway; on PostgreSQL the page's statements overlap, which this profile takes apart).
  let queue: Promise<unknown> = Promise.resolve();
  client.execute = async (query: unknown) => {
    const turn = queue.then(() => timed(() => original(query)));
    queue = turn.catch(() => undefined);
    const { result, ms } = await turn;
    const chunks = (query as { queryChunks?: unknown[] }).queryChunks ?? [];
    const text = chunks
      .map((c) => (c as { value?: string[] }).value?.join("") ?? "")
      .join("?")
      .replace(/\s+/g, " ")
      .slice(0, 90);
    log.push({ ms, text, query });
    return result;
  };
  const choices = [
    ["this month", new URLSearchParams()],
    ["last month", new URLSearchParams({ period: "last-month" })],
    ["this quarter", new URLSearchParams({ period: "this-quarter" })],
    ["last 12 months", new URLSearchParams({ period: "last-12-months" })],
    [
      "3 years",
      new URLSearchParams({
        period: "custom",
        from: `${Number(today.slice(0, 4)) - 3}${today.slice(4)}`,
        to: today,
      }),
    ],
  ] as const;
  console.log(database.label);
  for (const [label, params] of choices) {
    const period = periodFrom(params, today);
    const samples: number[] = [];
    const perQuery = new Map<string, number[]>();
    for (let i = 0; i < RUNS + 1; i++) {
      log = [];
      const { ms } = await timed(() => ownerReport(period, { database: database.handle.db }));
      if (i === 0) continue;
      samples.push(ms);
      for (const q of log) perQuery.set(q.text, [...(perQuery.get(q.text) ?? []), q.ms]);
    }
    const other = await timed(() =>
      Promise.all([
        loadHandymen(period.from, period.to, { database: database.handle.db, busy: false }),
        loadClosedDays(period.from, period.to, database.handle.db),
      ]),
    );
    console.log(
      `\n${label} (${period.from}..${period.to}): ownerReport p50 ${stats(samples).p50.toFixed(1)} ms, max ${stats(samples).max.toFixed(1)} ms`,
    );
    for (const [text, list] of perQuery) {
      console.log(`  ${stats(list).p50.toFixed(1).padStart(7)} ms x${list.length / RUNS}  ${text}`);
    }
    console.log(
      `  ${other.ms.toFixed(1).padStart(7)} ms (once) the handymen's hours, time off and closed days`,
    );
    // PROFILE_EXPLAIN=1: each statement's plan, as PostgreSQL ran it (EXPLAIN ANALYZE).
    if (process.env.PROFILE_EXPLAIN && database.label.startsWith("PostgreSQL")) {
      for (const entry of log) {
        const plan = (await original(sql`explain (analyze, buffers) ${entry.query as SQL}`)) as {
          rows: Record<string, string>[];
        };
        console.log(`\n  EXPLAIN ANALYZE ${entry.text}`);
        for (const row of plan.rows) console.log(`    ${Object.values(row)[0]}`);
      }
    }
  }
  if (process.env.PROFILE_KEEP) return;
  await database.drop();
}

// Run directly only: `npm run bench` imports every module of this folder.
if (import.meta.url === `file://${process.argv[1]}`) {
  await main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
