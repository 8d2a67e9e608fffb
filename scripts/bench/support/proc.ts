/**
 * What Linux says of a process (/proc), for the benches: its CPU time, its children, its
 * resident memory.
 */
import fs from "node:fs";

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const CLK_TCK = 100;

/** The process's user and system CPU time in seconds, or null once it is gone. */
export function cpuSeconds(pid: number) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
  } catch {
    return null;
  }
}

/** The roots and their direct children (PostgreSQL's backends are the postmaster's children). */
export function processTree(roots: number[]) {
  const pids = new Set(roots);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (roots.includes(ppid)) pids.add(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return [...pids];
}

/** The process's resident memory in MB. */
export function residentMb(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}
