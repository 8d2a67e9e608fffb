/**
 * The machine's CPU: how busy it is, and processes that keep it busy (the lighthouse bench's CPU
 * hog).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";

/** Share of all cores busy between two readings of /proc/stat. */
export function cpuTimes() {
  const [, ...fields] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].split(/\s+/);
  const numbers = fields.filter(Boolean).map(Number);
  return {
    idle: numbers[3] + (numbers[4] ?? 0),
    total: numbers.slice(0, 8).reduce((a, b) => a + b, 0),
  };
}

export function busyShare(a: ReturnType<typeof cpuTimes>, b: ReturnType<typeof cpuTimes>) {
  return 1 - (b.idle - a.idle) / Math.max(1, b.total - a.total);
}

/** The CPU hog: `count` processes that do nothing but spin, until stopped. */
export function startHogs(count: number) {
  const hogs = Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
  return async () => {
    await Promise.all(
      hogs.map(
        (hog) =>
          new Promise((resolve) => {
            if (hog.exitCode !== null || hog.signalCode !== null) return resolve(undefined);
            hog.once("exit", resolve);
            hog.kill("SIGKILL");
          }),
      ),
    );
  };
}
