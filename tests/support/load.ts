/**
 * Steady load for fault tests: `concurrency` callers each send one request after another,
 * cycling through the given kinds of request, until stopped. Every outcome is recorded with
 * its time, so a test can say what happened before, during and after a fault.
 */

export type LoadTarget = {
  name: string;
  send: () => Promise<Response>;
  /** Whether a status is a success for this request (a redirect to /auth may be). */
  ok?: (status: number) => boolean;
};

export type LoadOutcome = {
  target: string;
  startedAt: number;
  ms: number;
  status?: number;
  error?: string;
  ok: boolean;
};

export function startLoad(targets: LoadTarget[], options: { concurrency: number }) {
  const outcomes: LoadOutcome[] = [];
  let running = true;
  let turn = 0;

  async function caller() {
    while (running) {
      const target = targets[turn++ % targets.length];
      const startedAt = Date.now();
      try {
        const response = await target.send();
        await response.arrayBuffer();
        const ok = target.ok ? target.ok(response.status) : response.status < 400;
        outcomes.push({
          target: target.name,
          startedAt,
          ms: Date.now() - startedAt,
          status: response.status,
          ok,
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        outcomes.push({
          target: target.name,
          startedAt,
          ms: Date.now() - startedAt,
          error: cause?.code ?? cause?.message ?? (error as Error).message,
          ok: false,
        });
      }
    }
  }
  const callers = Array.from({ length: options.concurrency }, caller);

  return {
    outcomes,
    /** Stops sending; resolves when every caller's last request has ended. */
    async stop() {
      running = false;
      await Promise.all(callers);
      return outcomes;
    },
  };
}

/** A short account of failures for an assertion message. */
export function describeFailures(outcomes: LoadOutcome[]) {
  const failures = outcomes.filter((o) => !o.ok);
  const counts = new Map<string, number>();
  for (const f of failures) {
    const key = `${f.target}: ${f.status ?? f.error}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return `${failures.length} of ${outcomes.length} failed: ${[...counts]
    .map(([k, n]) => `${k} ×${n}`)
    .join(", ")}`;
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
