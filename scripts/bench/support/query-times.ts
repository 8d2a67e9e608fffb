/**
 * Each query of a page on its own:
 *   npx tsx scripts/bench/support/query-times.ts <file> <PGlite data dir | postgres:// URL>
 * reads the queries page-cost.ts kept (QUERY_LOG_FULL=<file>, one JSON line each: text and
 * parameters), opens the seeded PGlite directory (PAGE_COST_DATA) or PostgreSQL database and runs each one 30 times
 * after a warm-up, one at a time, printing its median time, slowest first. QUERY_PLAN=yes also
 * prints each plan (EXPLAIN ANALYZE). A measuring aid: run it on a copy of the data if a query
 * writes.
 */
import fs from "node:fs";
import type { Pool } from "pg";
import { openDatabase } from "~/db/client.server";

const [file, dataDir] = process.argv.slice(2);
if (!file || !dataDir) throw new Error("usage: query-times.ts <queries file> <data dir>");
const queries = fs
  .readFileSync(file, "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { text: string; params?: unknown[] });
const unique = [...new Map(queries.map((q) => [q.text, q])).values()];
const handle = await openDatabase(
  /^postgres(ql)?:\/\//.test(dataDir) ? { databaseUrl: dataDir } : { dataDir },
);
// Drizzle's node-postgres database keeps its pool as `$client`.
const client = (handle.db as unknown as { $client: Pool }).$client;
const times: { text: string; ms: number; plan?: string }[] = [];
for (const q of unique) {
  const run = () => client.query(q.text, q.params ?? []);
  for (let i = 0; i < 5; i++) await run();
  const t: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    await run();
    t.push(performance.now() - started);
  }
  t.sort((a, b) => a - b);
  const plan =
    process.env.QUERY_PLAN === "yes"
      ? (await client.query(`explain analyze ${q.text}`, q.params ?? [])).rows
          .map((r: Record<string, string>) => r["QUERY PLAN"])
          .join("\n")
      : undefined;
  times.push({ text: q.text.replace(/\s+/g, " ").trim(), ms: t[15], plan });
}
times.sort((a, b) => b.ms - a.ms);
for (const { text, ms, plan } of times) {
  console.log(`${ms.toFixed(2).padStart(7)} ms  ${text.slice(0, 160)}`);
  if (plan) console.log(`${plan}\n`);
}
console.log(
  `${times.reduce((s, t) => s + t.ms, 0).toFixed(1)} ms in all, ${unique.length} queries`,
);
await handle.close();
process.exit(0);
