/**
 * A trial, not a bench (issue 31): the embedded server's resident memory at rest and after the
 * pages bench's load (the demo member's and staff's pages, wrk with 10 connections), and the
 * req/s of that load, with other settings:
 *   TRIAL_ARGS="--max-old-space-size=128" TRIAL_ENV="PGLITE_STATEMENTS=100" BENCH_DURATION=5 \
 *     npx tsx scripts/bench/support/memory-pages-trial.ts
 * TRIAL_ROUNDS (default 1) repeats the load.
 */
import fs from "node:fs";
import { openDatabase } from "~/db/client.server";
import { businessToday } from "~/lib/business-calendar";
import { DEMO_LOGINS, seedDemo } from "../../../server/seed/demo";
import { startServer, tempDir, TEST_AUTH_SECRET } from "../../../tests/support/processes";
import { measure } from "../pages";
import { residentMb } from "./proc";
import { envAssignments } from "./common";

const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));

async function signIn(origin: string, email: string, password: string, ip: string) {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, "x-forwarded-for": ip },
    body: JSON.stringify({ email, password }),
  });
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function main() {
  const env = envAssignments(process.env.TRIAL_ENV ?? "");
  const nodeArgs = (process.env.TRIAL_ARGS ?? "").split(/\s+/).filter(Boolean);
  const dataDir = tempDir("handyman-trial-");
  const handle = await openDatabase({ dataDir });
  await handle.migrate();
  await seedDemo(handle.db, businessToday());
  await handle.close();
  const server = await startServer(
    { AUTH_SECRET: TEST_AUTH_SECRET, DATA_DIR: dataDir, SEED_DEMO: "false", ...env },
    { nodeArgs },
  );
  const pid = server.child.pid!;
  await sleep(20);
  const atRest = residentMb(pid);
  const origin = server.origin.replace("localhost", "127.0.0.1");
  const staff = await signIn(
    server.origin,
    DEMO_LOGINS[0].email,
    DEMO_LOGINS[0].password,
    "10.0.3.1",
  );
  const maria = await signIn(
    server.origin,
    DEMO_LOGINS[1].email,
    DEMO_LOGINS[1].password,
    "10.0.3.2",
  );
  const pages: [string, string][] = [
    ["/dashboard", maria],
    ["/dashboard?tab=membership", maria],
    ["/dashboard?tab=schedule", maria],
    ["/dashboard/book?block=105", maria],
    ["/employee", staff],
    ["/employee?tab=customers", staff],
  ];
  const out: string[] = [];
  let cpu = 0;
  let requests = 0;
  for (let round = 0; round < Number(process.env.TRIAL_ROUNDS ?? 1); round++) {
    for (const [page, cookie] of pages) {
      const r = await measure(page, `${origin}${page}`, { accept: "text/html", cookie }, [pid]);
      out.push(`${page} ${r.rps.toFixed(0)}`);
      cpu += (r.cpuMs ?? 0) * r.requests;
      requests += r.requests;
    }
  }
  const peak = residentMb(pid);
  await sleep(10);
  const afterLoad = residentMb(pid);
  console.log(
    `${process.env.TRIAL_ENV ?? ""} ${nodeArgs.join(" ")}: at rest ${atRest.toFixed(0)} MB, peak ${peak.toFixed(0)}, after load ${afterLoad.toFixed(0)} MB; CPU ${(cpu / requests).toFixed(2)} ms/request; ${out.join(", ")}`,
  );
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
main().then(
  () => process.exit(0),
  (e) => (console.error(e), process.exit(1)),
);
