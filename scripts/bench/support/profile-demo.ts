import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "~/db/client.server";
import { businessToday } from "~/lib/business-calendar";
import { DEMO_LOGINS, seedDemo } from "../../../server/seed/demo";
import { startServer, tempDir, TEST_AUTH_SECRET } from "../../../tests/support/processes";
import { measure } from "../pages";
import { summarize } from "./profile";

const [page = "/dashboard", seconds = "10", prof = "yes"] = process.argv.slice(2);
process.env.BENCH_DURATION = seconds;
const profileDir = tempDir("handyman-profile-");
const dataDir = process.env.PROFILE_DATA ?? tempDir("handyman-profile-data-");
if (!process.env.PROFILE_DATA) {
  const h = await openDatabase({ dataDir });
  await h.migrate();
  await seedDemo(h.db, businessToday());
  await h.close();
}
const server = await startServer(
  {
    AUTH_SECRET: TEST_AUTH_SECRET,
    DATA_DIR: dataDir,
    SEED_DEMO: "false",
    ...(process.env.PROFILE_ENV ? JSON.parse(process.env.PROFILE_ENV) : {}),
  },
  { nodeArgs: prof === "yes" ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [] },
);
const who = page.startsWith("/employee") ? DEMO_LOGINS[0] : DEMO_LOGINS[1];
const r = await fetch(`${server.origin}/api/auth/sign-in/email`, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    origin: server.origin,
    "x-forwarded-for": "10.9.9.9",
  },
  body: JSON.stringify({ email: who.email, password: who.password }),
});
const cookie = r.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
const url = `${server.origin.replace("localhost", "127.0.0.1")}${page}`;
const body = await (await fetch(url, { headers: { cookie, accept: "text/html" } })).text();
console.log(`document ${body.length} bytes`);
await measure("warm", url, { accept: "text/html", cookie }, [server.child.pid!], 3);
const pid = server.child.pid!;
const res = await measure(page, url, { accept: "text/html", cookie }, [pid]);
console.log(
  `${page}: ${res.rps.toFixed(0)} req/s p50 ${res.p50} p95 ${res.p95} cpu ${res.cpuMs?.toFixed(2)} ms/req errors ${res.errors}`,
);
const rss = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)![1];
console.log(`RSS ${Math.round(Number(rss) / 1024)} MB`);
await server.stop();
if (prof === "yes") {
  for (const file of fs.readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile"))) {
    console.log(`\n##### ${path.join(profileDir, file)}`);
    summarize(path.join(profileDir, file), 30);
  }
}
process.exit(0);
