/** The load bench's figures per route, and its table of them. */

export type RouteResult = {
  name: string;
  what: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
  latencies: number[];
};

export function ms(value: number) {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

export function table(rows: RouteResult[]) {
  const lines = [
    "| route | connections | requests | req/s | p50 ms | p95 ms | p99 ms | errors |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.name} | ${r.connections} | ${r.requests} | ${r.rps.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.errors} |`,
    );
  }
  return lines.join("\n");
}
