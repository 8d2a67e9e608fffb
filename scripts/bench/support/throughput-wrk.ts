/** wrk, the throughput bench's load generator, and the machine's load around it. */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { cpuSeconds, processTree } from "./proc";
import { DURATION, WRK } from "./throughput-config";

/* ---------------- wrk ---------------- */

export class WrkMissingError extends Error {}

export function requireWrk() {
  if (!fs.existsSync(WRK)) {
    throw new WrkMissingError(
      `wrk is not installed (looked for ${WRK}). The throughput bench measures with wrk only, ` +
        "because a Node load generator tops out below the servers it measures on this machine. " +
        "Install it with `apt-get install wrk` (Debian package), or point WRK at the binary.",
    );
  }
}

export type WrkResult = {
  label: string;
  url: string;
  threads: number;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx/3xx, plus socket errors. */
  errors: number;
  /** wrk's own CPU time over the run, as a share of one core. */
  wrkCpu: number;
  /**
   * CPU time the server used per answered request (its process, and for PostgreSQL the
   * database's processes too), in ms: what a request costs, whatever else the machine runs.
   */
  cpuMsPerRequest?: number;
};

/** Milliseconds from wrk's "61.57ms" / "812.00us" / "1.20s". */
function wrkMs(text: string) {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === "us"
    ? value / 1000
    : match[2] === "ms"
      ? value
      : match[2] === "s"
        ? value * 1000
        : value * 60_000;
}

export function parseWrk(output: string) {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN);
  const p50 = wrkMs(/^\s+50%\s+(\S+)/m.exec(output)?.[1] ?? "");
  const p99 = wrkMs(/^\s+99%\s+(\S+)/m.exec(output)?.[1] ?? "");
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return { rps, requests, p50, p99, errors: non2xx + socketErrors };
}

/** CPU seconds (user + system) a process has used so far, from /proc; null once it is gone. */
function treeCpu(pids: number[]) {
  return new Map(pids.map((pid) => [pid, cpuSeconds(pid) ?? 0]));
}

export async function wrk(
  label: string,
  url: string,
  options: {
    threads?: number;
    connections: number;
    headers?: Record<string, string>;
    /** The server's root processes, to count the CPU its requests cost. */
    serverPids?: number[];
  },
): Promise<WrkResult> {
  const threads = options.threads ?? 1;
  const args = [
    `-t${threads}`,
    `-c${options.connections}`,
    `-d${DURATION}s`,
    "--latency",
    "--timeout",
    "10s",
  ];
  for (const [name, value] of Object.entries(options.headers ?? {}))
    args.push("-H", `${name}: ${value}`);
  args.push(url);
  const serverCpuBefore = options.serverPids ? treeCpu(processTree(options.serverPids)) : undefined;
  const child = spawn(WRK, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const started = Date.now();
  let lastCpu = 0;
  let lastAt = started;
  const sampler = setInterval(() => {
    const cpu = cpuSeconds(child.pid!);
    if (cpu !== null) {
      lastCpu = cpu;
      lastAt = Date.now();
    }
  }, 200);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(sampler);
  if (code !== 0) throw new Error(`wrk ${args.join(" ")} failed (${code}):\n${output}`);
  const parsed = parseWrk(output);
  let cpuMsPerRequest: number | undefined;
  if (options.serverPids && serverCpuBefore) {
    let used = 0;
    for (const [pid, after] of treeCpu(processTree(options.serverPids)))
      used += after - (serverCpuBefore.get(pid) ?? 0);
    cpuMsPerRequest = parsed.requests > 0 ? (used * 1000) / parsed.requests : undefined;
  }
  return {
    label,
    url,
    threads,
    connections: options.connections,
    seconds: DURATION,
    ...parsed,
    wrkCpu: lastCpu / Math.max(0.001, (lastAt - started) / 1000),
    cpuMsPerRequest,
  };
}

/* ---------------- the machine ---------------- */

/** Share of all cores busy over `ms`, from /proc/stat, and the load averages. */
export async function machineLoad(ms = 2000) {
  const read = () => {
    const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].split(/\s+/);
    const numbers = fields.filter(Boolean).map(Number);
    const idle = numbers[3] + (numbers[4] ?? 0);
    const total = numbers.slice(0, 8).reduce((sum, n) => sum + n, 0);
    return { idle, total };
  };
  const a = read();
  await new Promise((r) => setTimeout(r, ms));
  const b = read();
  const busy = 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
  return { busy, loadavg: os.loadavg() };
}

export function describeLoad(load: Awaited<ReturnType<typeof machineLoad>>) {
  return `${(load.busy * 100).toFixed(0)}% of all cores busy over 2 s, load average ${load.loadavg
    .map((l) => l.toFixed(2))
    .join(" / ")} (1/5/15 min)`;
}

/** The first line of `wrk -v`, without its build details. */
export function wrkVersion() {
  return (() => {
    try {
      return execFileSync(WRK, ["-v"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      // `wrk -v` prints its version and exits 1.
      const e = error as { stdout?: string; stderr?: string };
      return `${e.stdout ?? ""}${e.stderr ?? ""}`;
    }
  })()
    .split("\n")[0]
    .replace(/ \[.*$/, "")
    .trim();
}
