import { describe, expect, it } from "vitest";
import { parseWrk } from "./throughput";

const OUTPUT = `Running 10s test @ http://127.0.0.1:4811/list
  1 threads and 10 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    84.98ms   80.29ms    1.20s   93.79%
    Req/Sec   136.13     54.52   230.00     53.33%
  Latency Distribution
     50%  812.00us
     75%   84.57ms
     90%  124.99ms
     99%    1.20s
  4080 requests in 10.01s, 7.72MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 7
Requests/sec:    407.59
Transfer/sec:      2.56MB
`;

describe("parseWrk", () => {
  it("reads throughput, percentiles in any unit, and counts every error", () => {
    expect(parseWrk(OUTPUT)).toEqual({
      rps: 407.59,
      requests: 4080,
      p50: 0.812,
      p99: 1200,
      errors: 10,
    });
  });

  it("counts no errors when wrk reports none", () => {
    const clean = OUTPUT.replace(/ {2}Socket errors.*\n/, "").replace(/ {2}Non-2xx.*\n/, "");
    expect(parseWrk(clean).errors).toBe(0);
  });
});
