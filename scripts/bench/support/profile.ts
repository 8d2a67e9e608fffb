/**
 * CPU profile of one page under wrk load:
 *   npx tsx scripts/bench/support/profile.ts /dashboard [postgres|pglite] [seconds]
 * Seeds the throughput bench's data (a member with 30 requests, an employee), starts the
 * production build with `node --cpu-prof`, signs in as whoever the page needs, drives the page
 * with wrk (one thread, 10 connections), stops the server and prints the functions with the most
 * self time and the packages they belong to. The .cpuprofile stays in the printed directory
 * (open it in Chrome DevTools).
 */
import fs from "node:fs";
import path from "node:path";
import {
  createDatabase,
  startServer,
  tempDir,
  TEST_AUTH_SECRET,
} from "../../../tests/support/processes";
import { EMPLOYEE, MEMBER, requireWrk, seed, signIn, wrk } from "../throughput";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};

export function summarize(profileFile: string, top = 25) {
  const profile = JSON.parse(fs.readFileSync(profileFile, "utf8")) as {
    nodes: Node[];
    samples: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const id of profile.samples) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "");
    const key = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + 1);
    const pkg = url.includes("node_modules/")
      ? url
          .split("node_modules/")
          .pop()!
          .split("/")
          .slice(0, url.split("node_modules/").pop()!.startsWith("@") ? 2 : 1)
          .join("/")
      : url.startsWith("node:") || url === ""
        ? functionName.startsWith("(")
          ? functionName
          : "node internals"
        : "our code";
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
  }
  const total = profile.samples.length;
  const line = ([k, v]: [string, number]) => `${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`;
  console.log("\nself time by package:");
  console.log(
    [...byPackage]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(line)
      .join("\n"),
  );
  console.log("\nself time by function:");
  console.log(
    [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(line)
      .join("\n"),
  );
}

async function main() {
  requireWrk();
  const [page = "/auth", database = "pglite", seconds = "10"] = process.argv.slice(2);
  process.env.BENCH_DURATION = seconds;
  const profileDir = tempDir("handyman-profile-");
  const dataDir = tempDir("handyman-profile-data-");
  const db = database === "postgres" ? await createDatabase() : undefined;
  await seed(db ? { databaseUrl: db.url } : { dataDir });
  const server = await startServer(
    {
      AUTH_SECRET: TEST_AUTH_SECRET,
      DATA_DIR: dataDir,
      SEED_DEMO: "false",
      ...(db ? { DATABASE_URL: db.url } : {}),
    },
    { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] },
  );
  try {
    const who = page.startsWith("/employee")
      ? EMPLOYEE
      : page.startsWith("/dashboard")
        ? MEMBER
        : null;
    const cookie = who ? await signIn(server.origin, who, "10.0.0.9") : undefined;
    const result = await wrk(page, `${server.origin.replace("localhost", "127.0.0.1")}${page}`, {
      connections: 10,
      headers: { accept: "text/html", ...(cookie ? { cookie } : {}) },
    });
    console.log(
      `${page}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, errors ${result.errors}`,
    );
  } finally {
    await server.stop();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const file = fs.readdirSync(profileDir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile written in ${profileDir}`);
  console.log(`profile: ${path.join(profileDir, file)}`);
  summarize(path.join(profileDir, file));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
