/**
 * What the pages bench adds beside its tables (issue 45), in the same run: where the embedded
 * server's CPU goes for a member's `/dashboard` (a profile under wrk, grouped by what the code
 * does), and a newcomer's first start's memory at rest.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startServer, tempDir } from "../../../tests/support/processes";
import { isBuilt } from "../../fingerprint.mjs";
import { NPM_START, timeStart } from "../startup";

/** The build of these sources, made first when stale: `npm start` would make it itself. */
export function buildIfStale(root: string) {
  if (isBuilt(root)) return;
  console.log("pages bench: building first (npm run build)");
  execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
}

type ProfileNode = { id: number; callFrame: { functionName: string; url: string } };

/** The groups of the breakdown, first match wins; anything else in node_modules is "other". */
const GROUPS: [string, RegExp][] = [
  [
    "the queries' driver and ORM (drizzle-orm, node-postgres)",
    /node_modules\/(drizzle-orm|pg|pg-[a-z]+|postgres-[a-z]+)\//,
  ],
  ["React's render (react-dom, react)", /node_modules\/(react-dom|react)\//],
  [
    "React Router (matching, the loader data's serialisation)",
    /node_modules\/(react-router|@react-router\/[a-z-]+|turbo-stream)\//,
  ],
  [
    "Radix, tailwind-merge and class names",
    /node_modules\/(@radix-ui\/[a-z-]+|tailwind-merge|class-variance-authority|clsx)\//,
  ],
  [
    "Express and its middleware",
    /node_modules\/(express|compression|body-parser|router|finalhandler|send|on-finished|cookie|qs)\//,
  ],
  [
    "Better Auth, Zod, Conform",
    /node_modules\/(better-auth|@better-auth\/[a-z-]+|zod|@conform-to\/[a-z-]+)\//,
  ],
];

/** Microseconds on the monotonic clock V8's profiles are stamped with. */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Shares of the busy time (idle left out) of one thread's `.cpuprofile`, of the samples taken
 * within `window` (monotonic microseconds, as V8 stamps them): the load alone, not the server's
 * start or stop.
 */
export function cpuBreakdown(profileFile: string, window?: { from: number; to: number }) {
  const profile = JSON.parse(fs.readFileSync(profileFile, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    startTime: number;
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map<string, number>();
  let busy = 0;
  let at = profile.startTime;
  const inWindow = profile.samples.filter((_, i) => {
    at += profile.timeDeltas[i] ?? 0;
    return !window || (at >= window.from && at <= window.to);
  });
  if (window && inWindow.length < 100) throw new Error("the profile has no samples of the load");
  for (const id of inWindow) {
    const { functionName, url } = byId.get(id)!.callFrame;
    if (functionName === "(idle)") continue;
    busy++;
    const group =
      functionName === "(garbage collector)"
        ? "garbage collection"
        : url.includes("node_modules/")
          ? (GROUPS.find(([, pattern]) => pattern.test(url))?.[0] ?? "other packages")
          : functionName === "(program)"
            ? "V8 itself, unattributed ((program): compiling, inline caches)"
            : url === ""
              ? "native calls (socket writes such as writev, to the browser and to PGlite's thread)"
              : url.startsWith("node:")
                ? "Node's own JavaScript (HTTP, streams, buffers)"
                : "the product's own code";
    counts.set(group, (counts.get(group) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([group, n]) => ({ group, share: n / busy }));
}

/**
 * The embedded server on `dataDir` under `--cpu-prof`, `load` run against it, then stopped: the
 * main thread's breakdown (the largest profile; PGlite's thread writes its own).
 */
export async function profiledBreakdown(
  env: Record<string, string>,
  /** Runs the load; returns the window of it to count (monotonicMicros), or all of the profile. */
  load: (origin: string) => Promise<{ from: number; to: number } | undefined>,
) {
  const dir = tempDir("handyman-pages-profile-");
  const server = await startServer(env, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
  let window: { from: number; to: number } | undefined;
  try {
    window = await load(server.origin);
  } finally {
    await server.stop();
  }
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  if (!files.length) throw new Error(`no profile written in ${dir}`);
  const breakdown = cpuBreakdown(files[0], window);
  fs.rmSync(dir, { recursive: true, force: true });
  return breakdown;
}

export function breakdownText(label: string, breakdown: { group: string; share: number }[]) {
  return [
    `Where the server's main thread spends its busy time on ${label} (\`--cpu-prof\` under wrk, 10 connections; idle left out):`,
    "",
    ...breakdown.map(({ group, share }) => `- ${group}: ${(share * 100).toFixed(1)}%`),
  ].join("\n");
}

/** `npm start` on an empty data directory (the demo written), its memory 30 s at rest. */
export async function firstStartRestingMb() {
  const fresh = tempDir("handyman-pages-first-start-");
  try {
    const { ms, restingMb } = await timeStart(
      NPM_START,
      { DATA_DIR: fresh, DATABASE_URL: "" },
      30_000,
    );
    return { ms, restingMb: restingMb ?? NaN };
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
}
