/**
 * A trial, not a bench: the embedded server with different settings side by side (ADR 037).
 * One server per variant, all started at once on data seeded alike, then short wrk runs taking
 * the variants in turn, page by page, round after round, so a change in the machine's load falls
 * on all of them; the first round warms up and is not counted. Prints each page's median req/s.
 *   AB="FOO=1,FOO=2" BENCH_DURATION=3 ROUNDS=5 PAGES="/dashboard@10,/employee@10" \
 *     npx tsx scripts/bench/support/ab-trial.ts
 * AB: the variants, comma-separated, each a space-separated list of environment variables for
 * that server (a variable the code reads while it is tried). PAGES: path@connections.
 * NODE_ARGS: Node's options for every server (`--cpu-prof --cpu-prof-dir=DIR` profiles both
 * the server's thread and the database's).
 */
import fs from "node:fs";
import { startServer, tempDir, TEST_AUTH_SECRET } from "../../../tests/support/processes";
import { EMPLOYEE, MEMBER, seed, signIn, wrk } from "../throughput";
import { envAssignments, stats } from "./common";

async function main() {
  const nodeArgs = (process.env.NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  const pages = (process.env.PAGES ?? "/dashboard.data@1,/dashboard@10,/employee@10").split(",");
  const rounds = Math.max(2, Number(process.env.ROUNDS ?? 5));
  const servers = [];
  const variants = (process.env.AB ?? "A=1").split(",").map(envAssignments);
  for (const [i, env] of variants.entries()) {
    const dataDir = tempDir("handyman-ab-");
    await seed({ dataDir });
    const server = await startServer(
      { AUTH_SECRET: TEST_AUTH_SECRET, DATA_DIR: dataDir, SEED_DEMO: "false", ...env },
      { nodeArgs },
    );
    servers.push({
      env,
      server,
      dataDir,
      origin: server.origin.replace("localhost", "127.0.0.1"),
      member: await signIn(server.origin, MEMBER, `10.0.0.${i + 1}`),
      employee: await signIn(server.origin, EMPLOYEE, `10.1.0.${i + 1}`),
      rps: {} as Record<string, number[]>,
    });
  }
  for (let round = 0; round < rounds; round++) {
    for (const page of pages) {
      const [path, connections] = page.split("@");
      for (const s of servers) {
        const cookie = path.startsWith("/employee") ? s.employee : s.member;
        const result = await wrk(`${JSON.stringify(s.env)} ${page}`, `${s.origin}${path}`, {
          connections: Number(connections ?? 10),
          headers: { accept: "text/html", cookie },
        });
        if (round > 0) (s.rps[page] ??= []).push(result.rps);
      }
    }
  }
  for (const s of servers) {
    const figures = Object.entries(s.rps).map(
      ([page, rps]) =>
        `${page} median ${stats(rps).p50.toFixed(0)} (${rps.map((r) => r.toFixed(0)).join(" ")})`,
    );
    console.log(`${JSON.stringify(s.env)}: ${figures.join("; ")}`);
    await s.server.stop();
    fs.rmSync(s.dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => (console.error(error), process.exit(1)),
);
