/**
 * Writes ownerReport's output for every period as JSON, at a fixed instant, on a seeded database:
 * GOLDEN_DATABASE_URL (seeded once with GOLDEN_SEED=1), so the report's output can be compared
 * before and after a change to the queries. `npx tsx scripts/bench/support/report-golden.ts out.json`
 */
import fs from "node:fs";
import { openDatabase } from "~/db/client.server";
import { periodFrom } from "~/features/reports/period";
import { ownerReport } from "~/features/reports/index.server";
import { seedBench } from "../../../server/seed/bench";
import { seedDemo } from "../../../server/seed/demo";

const handle = process.env.GOLDEN_DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.GOLDEN_DATABASE_URL })
  : await openDatabase({ dataDir: process.env.GOLDEN_DATA_DIR! });
const today = process.env.GOLDEN_TODAY ?? "2026-11-28";
if (process.env.GOLDEN_SEED) {
  await handle.migrate();
  await seedDemo(handle.db, today);
  await seedBench(handle.db, { today });
}
const now = new Date(`${today}T17:00:00Z`);
const out: Record<string, unknown> = {};
const choices: [string, Record<string, string>][] = [
  ["this", {}],
  ["last", { period: "last-month" }],
  ["quarter", { period: "this-quarter" }],
  ["12", { period: "last-12-months" }],
  ["3y", { period: "custom", from: "2023-11-28", to: today }],
  ["past", { period: "custom", from: "2025-02-10", to: "2025-09-20" }],
];
for (const [label, params] of choices) {
  out[label] = await ownerReport(periodFrom(new URLSearchParams(params), today), {
    now,
    database: handle.db,
  });
}
fs.writeFileSync(process.argv[2], JSON.stringify(out, null, 1));
await handle.close();
process.exit(0);
