/**
 * A small HTTP load balancer for tests, behaving like the usual ones (nginx, HAProxy, a cloud
 * load balancer) in the ways that matter to a deploy: it checks each backend's /healthz every
 * `healthIntervalMs`, sends requests round-robin to the healthy ones only, adds
 * X-Forwarded-For / X-Forwarded-Proto / X-Forwarded-Host, and never retries a failed request
 * (so a test sees every failure a user would).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Backend = { origin: string; healthy: boolean; served: number };

export async function startLoadBalancer(options: {
  backends: string[];
  healthIntervalMs?: number;
  port?: number;
}) {
  const backends: Backend[] = options.backends.map((origin) => ({
    origin,
    healthy: false,
    served: 0,
  }));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  let stopped = false;

  async function check(backend: Backend) {
    try {
      const response = await fetch(`${backend.origin}/healthz`, {
        signal: AbortSignal.timeout(1_000),
      });
      backend.healthy = response.status === 200;
      await response.body?.cancel();
    } catch {
      backend.healthy = false;
    }
  }
  async function checkAll() {
    await Promise.all(backends.map(check));
  }
  await checkAll();
  const interval = setInterval(() => void checkAll(), options.healthIntervalMs ?? 250);

  const server = http.createServer((req, res) => {
    const healthy = backends.filter((b) => b.healthy);
    if (healthy.length === 0) {
      res.writeHead(503, { "content-type": "text/plain" }).end("No healthy backend");
      return;
    }
    const backend = healthy[next++ % healthy.length];
    backend.served++;
    const target = new URL(req.url ?? "/", backend.origin);
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress]
      .filter(Boolean)
      .join(", ");
    const upstream = http.request(
      target,
      {
        method: req.method,
        agent,
        headers: {
          ...req.headers,
          "x-forwarded-for": forwardedFor,
          "x-forwarded-proto": "http",
          "x-forwarded-host": req.headers.host ?? "",
        },
      },
      (upstreamResponse) => {
        res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`Bad gateway: ${error.message}`);
      } else {
        res.destroy(error);
      }
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    origin: `http://localhost:${port}`,
    backends,
    add(origin: string) {
      const backend = { origin, healthy: false, served: 0 };
      backends.push(backend);
      return backend;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(interval);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
