import fs from "node:fs";
import { expect } from "@playwright/test";
import type { HttpClient } from "./http";
import type { ServerProcess } from "./processes";

/* What the hostile fuzz tests share: signing a client in, and watching the server's health. */

export async function signIn(client: HttpClient, email: string, password: string) {
  const response = await client.postJson("/api/auth/sign-in/email", { email, password });
  expect(response.status, await response.text()).toBe(200);
}

/**
 * Probes /healthz every 100 ms (a probe that takes over 5 s, or answers anything but 200, is a
 * failure; the latencies are reported) and samples the process's resident memory.
 */
export function watch(server: ServerProcess) {
  const healthz = { latencies: [] as number[], failures: [] as string[] };
  let peakMb = 0;
  let startMb = 0;
  let running = true;
  const sampleMemory = () => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      healthz.failures.push(`the server process exited:\n${server.output().slice(-4000)}`);
      running = false;
      return;
    }
    const status = fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peakMb = Math.max(peakMb, Math.round(kb / 1024));
    startMb ||= peakMb;
  };
  sampleMemory();
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        const response = await fetch(`${server.origin}/healthz`, {
          signal: AbortSignal.timeout(5_000),
        });
        await response.arrayBuffer();
        if (response.status !== 200) healthz.failures.push(`status ${response.status}`);
      } catch (error) {
        healthz.failures.push((error as Error).message);
      }
      healthz.latencies.push(Date.now() - started);
      sampleMemory();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { healthz, peakMb, startMb };
    },
  };
}
