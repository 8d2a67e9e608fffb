/**
 * A trial, not a bench: resident memory of the embedded server 25 s after start and 30 s after
 * some load, and the req/s of that load, with other settings (ADR 036):
 *   TRIAL_ENV="MALLOC_MMAP_THRESHOLD_=32768" TRIAL_ARGS="--trace-gc" BENCH_DURATION=10 \
 *     npx tsx scripts/bench/support/memory-trial.ts
 * The load is /dashboard, /employee and /dashboard.data (wrk, 10 connections); TRIAL_ALL=1 adds
 * the throughput bench's other pages in its order, TRIAL_GAP=S idles S seconds after each,
 * TRIAL_ENCODING asks for compression, and TRIAL_PROBE=1 sends the server SIGUSR2 at the end and
 * prints its last output (for a handler loaded with TRIAL_ARGS="--import file").
 */
import fs from "node:fs";
import { startServer, tempDir, TEST_AUTH_SECRET } from "../../../tests/support/processes";
import { EMPLOYEE, MEMBER, seed, signIn, wrk } from "../throughput";
import { envAssignments } from "./common";

const rss = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

async function main() {
  const env = envAssignments(process.env.TRIAL_ENV ?? "");
  const nodeArgs = (process.env.TRIAL_ARGS ?? "").split(/\s+/).filter(Boolean);
  const dataDir = tempDir("handyman-trial-");
  await seed({ dataDir });
  const server = await startServer(
    { AUTH_SECRET: TEST_AUTH_SECRET, DATA_DIR: dataDir, SEED_DEMO: "false", ...env },
    { nodeArgs },
  );
  const pid = server.child.pid!;
  await sleep(25);
  const afterStart = rss(pid);
  const origin = server.origin.replace("localhost", "127.0.0.1");
  const out: string[] = [];
  const pages: [string, string | null][] = [
    ["/dashboard", MEMBER],
    ["/employee", EMPLOYEE],
    ["/dashboard.data", MEMBER],
  ];
  // The bench's order: the sign-in page (fast path, then rendered), the signed-in pages, /healthz.
  if (process.env.TRIAL_ALL) {
    pages.unshift(["/auth", null], ["/auth", "stale"]);
    pages.push(["/healthz", null]);
  }
  for (const [page, who] of pages) {
    const cookie =
      who === "stale"
        ? "better-auth.session_token=stale"
        : who
          ? await signIn(server.origin, who, `10.0.0.${out.length + 9}`)
          : "";
    const r = await wrk(page, `${origin}${page}`, {
      connections: 10,
      headers: {
        accept: "text/html",
        ...(cookie ? { cookie } : {}),
        ...(process.env.TRIAL_ENCODING ? { "accept-encoding": process.env.TRIAL_ENCODING } : {}),
      },
    });
    out.push(`${page} ${r.rps.toFixed(0)}`);
    await sleep(Number(process.env.TRIAL_GAP ?? 0));
  }
  const peak = rss(pid);
  await sleep(30);
  const afterLoad = rss(pid);
  if (process.env.TRIAL_PROBE) {
    process.kill(pid, "SIGUSR2");
    await sleep(1);
    console.log(server.output().split("\n").slice(-20).join("\n"));
  }
  console.log(
    `${process.env.TRIAL_ENV ?? ""} ${nodeArgs.join(" ")}: start ${afterStart.toFixed(0)} MB, peak ${peak.toFixed(0)}, after load ${afterLoad.toFixed(0)} MB; ${out.join(", ")}`,
  );
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
main().then(
  () => process.exit(0),
  (e) => (console.error(e), process.exit(1)),
);
