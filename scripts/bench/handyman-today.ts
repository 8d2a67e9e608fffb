/**
 * 'Today' for a handyman with 8 visits (issue 26): 8 members' homes, two tasks each with notes,
 * a part on each visit. Measures the whole /employee/today document through the production
 * build, signed in like a phone, one request at a time, beside the framework floor's /list page
 * (scripts/bench/floor, built and measured in the same run the same way). Targets: p95 at most
 * 50 ms server time on PGlite, the document at most 60 KB.
 *
 * Results go to docs/benchmarks.md between <!-- today:start --> and <!-- today:end -->.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setDatabase } from "~/db/client.server";
import { addPart } from "~/features/memberships/parts.server";
import { businessToday, timeOfDay } from "~/lib/business-calendar";
import { createLocalStorage, setStorage } from "~/lib/storage.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createServiceRequest,
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
import { buildFloor, startFloor } from "./throughput";

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const WARMUP = 15;
const TARGET_P95_MS = 50;
const TARGET_KB = 60;
const VISITS = 8;
const PASSWORD = "Bench-pass-2026!";
const EMAIL = "bench-handyman@bench.example";

async function seed(db: Parameters<typeof createUser>[0]) {
  const today = businessToday();
  const handyman = await createUser(db, {
    email: EMAIL,
    password: PASSWORD,
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
    staffRole: "handyman",
  });
  for (let i = 0; i < VISITS; i++) {
    const member = await createUser(db, {
      email: `member${i}@bench.example`,
      password: PASSWORD,
      firstName: `Member${String.fromCharCode(65 + i)}`,
      lastName: "Homeowner",
      phone: `(404) 555-01${String(10 + i)}`,
    });
    const home = await createHome(db, member.id, {
      address: `${100 + i} Peachtree St NE`,
      propertyNotes: "Gate code 2468. The dog is friendly.",
    });
    await createMembership(db, member.id, {
      plan: "total",
      billing: "annual",
      startDate: today,
      today,
    });
    const requests = [];
    for (const title of ["Fix the dripping faucet", "Patch the drywall"]) {
      requests.push(
        await createServiceRequest(db, home, {
          title: `${title} (${i + 1})`,
          description: "Started last week; worse in the mornings. The shutoff is under the sink.",
        }),
      );
    }
    // 8 AM onwards, an hour each (visits are 1 h 45 min blocks; the bench needs no free time).
    const start = 7 * 60 + i * 105;
    const { appointment } = await createMemberVisit(db, home, {
      today,
      scheduledDate: today,
      startTime: timeOfDay(start),
      endTime: timeOfDay(start + 105),
      assignedEmployeeId: handyman.id,
      notes: "Bring the long ladder.",
      tasks: requests.map((r) => ({ description: r.title, requestId: r.id })),
    });
    await addPart(
      { appointmentId: appointment.id, description: "Faucet cartridge", costCents: 2_450 },
      null,
      db,
      false,
    );
  }
}

async function sample(work: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) samples.push((await timed(work)).ms);
  return stats(samples);
}

export async function run() {
  const savedEnv = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-today-"));
  // PGlite unless BENCH_DATABASE_URL names a PostgreSQL server.
  const database = await openBenchDatabase("today");
  setDatabase(database.handle);
  setStorage(createLocalStorage(path.join(dataDir, "uploads")));
  let server: Awaited<ReturnType<typeof startServer>> = null;
  const floorBuild = buildFloor();
  let floor: Awaited<ReturnType<typeof startFloor>> | null = null;
  try {
    console.log(`seeding ${database.label}...`);
    await seed(database.handle.db);
    server = await startServer(dataDir);
    if (!server) {
      console.log("no production build (run `npm run build` first): 'Today' not measured");
      return;
    }
    floor = await startFloor(floorBuild.dir);
    const floorStats = await sample(async () => {
      const response = await fetch(`${floor!.origin}/list`);
      const html = await response.text();
      if (response.status !== 200 || !html.includes("Request 30"))
        throw new Error(`the floor's /list did not render (HTTP ${response.status})`);
    });
    console.log(`floor /list: p50 ${ms(floorStats.p50)}, p95 ${ms(floorStats.p95)}`);

    const headers = {
      cookie: await signIn(server.base, EMAIL, PASSWORD),
      "sec-fetch-dest": "document",
      accept: "text/html",
    };
    let bytes = 0;
    const today = await sample(async () => {
      const response = await fetch(`${server!.base}/employee/today`, { headers });
      const html = await response.text();
      const visits = html.match(/<article/g)?.length ?? 0;
      if (response.status !== 200 || visits !== VISITS)
        throw new Error(`'Today' did not render 8 visits (HTTP ${response.status}, ${visits})`);
      bytes = Buffer.byteLength(html);
      if (process.env.BENCH_DUMP) fs.writeFileSync(process.env.BENCH_DUMP, html);
    });
    console.log(
      `'Today': p50 ${ms(today.p50)}, p95 ${ms(today.p95)}, ${Math.round(bytes / 1024)} KB`,
    );

    const row = (what: string, s: Stats, target: string) =>
      `| ${what} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.max)} | ${target} |`;
    const file = writeSection(
      "today",
      `## 'Today' for a handyman with 8 visits

\`npm run bench -- handyman-today\` (scripts/bench/handyman-today.ts), run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${database.label}, ${ITERATIONS} timed requests after ${WARMUP} warm-up requests, one at a time over local HTTP (load average ${os.loadavg()[0].toFixed(2)}); the framework floor (scripts/bench/floor, ${floorBuild.versions}) built and measured the same way in the same run.

Data: 8 visits today, each a member's home with two tasks (notes), property notes, the visit's notes and a part. Targets: p95 at most ${TARGET_P95_MS} ms server time, the document at most ${TARGET_KB} KB.

| what | p50 | p95 | max | target met |
| --- | ---: | ---: | ---: | --- |
${row("the framework floor's /list (30 cards, no database, no session)", floorStats, "(reference)")}
${row(`the whole /employee/today document (${Math.round(bytes / 1024)} KB: session, every query, rendering)`, today, `${yes(today.p95 <= TARGET_P95_MS)} (p95); ${yes(bytes <= TARGET_KB * 1024)} (size)`)}
`,
    );
    console.log(`written to ${file}`);
  } finally {
    floor?.stop();
    floorBuild.remove();
    await server?.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.env = savedEnv;
  }
}
