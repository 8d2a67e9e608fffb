/**
 * nginx in front of server processes, configured by the product's own site file
 * (deploy/nginx/handyman.conf) with only the addresses, ports and certificate changed, and a
 * client that speaks to it over TLS from the local address of its choice.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import path from "node:path";
import { freePort, ROOT, tempDir } from "./processes";

export const NGINX = "/usr/sbin/nginx";
export const SITE_CONFIG = path.join(ROOT, "deploy/nginx/handyman.conf");

/** Resolves once something listens on `port` (127.0.0.1). */
export async function waitForPort(port: number, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on port ${port}`);
}

/** `from` replaced by `to` in `text`, failing when the site file no longer has `from`. */
function replaceAll(text: string, from: RegExp, to: string) {
  if (!from.test(text)) throw new Error(`deploy/nginx/handyman.conf no longer matches ${from}`);
  return text.replace(
    new RegExp(from.source, from.flags.includes("g") ? from.flags : `${from.flags}g`),
    to,
  );
}

/** The site file as the tests run it: these upstreams and ports, a throwaway certificate. */
export function siteConfigFor(options: {
  upstreams: number[];
  httpPort: number;
  httpsPort: number;
  certificate: string;
  key: string;
}) {
  let site = fs.readFileSync(SITE_CONFIG, "utf8");
  site = replaceAll(
    site,
    /^( *)server 127\.0\.0\.1:\d+ (max_fails=.*)\n(?:\1server 127\.0\.0\.1:\d+ .*\n)*/m,
    options.upstreams.map((port) => `    server 127.0.0.1:${port} $2\n`).join(""),
  );
  // No IPv6 on every test machine.
  site = replaceAll(site, /^ *listen \[::\]:.*\n/m, "");
  site = replaceAll(site, /listen 80;/, `listen 127.0.0.1:${options.httpPort};`);
  site = replaceAll(site, /listen 443 /, `listen 127.0.0.1:${options.httpsPort} `);
  site = replaceAll(site, /ssl_certificate \S+;/, `ssl_certificate ${options.certificate};`);
  site = replaceAll(site, /ssl_certificate_key \S+;/, `ssl_certificate_key ${options.key};`);
  return site;
}

export type NginxProxy = {
  origin: string;
  httpsPort: number;
  httpPort: number;
  /** What nginx wrote to its error log. */
  errors(): string;
  stop(): Promise<void>;
};

/** Starts nginx with the product's site file in front of the processes on `upstreams`. */
export async function startNginxProxy(upstreams: number[]): Promise<NginxProxy> {
  const dir = tempDir("handyman-nginx-");
  // nginx's workers run as nobody: they write request bodies into the temporary directory.
  fs.chmodSync(dir, 0o755);
  fs.mkdirSync(path.join(dir, "tmp"), { mode: 0o777 });
  fs.chmodSync(path.join(dir, "tmp"), 0o777);
  const certificate = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  const made = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
    ].concat(["-keyout", key, "-out", certificate]),
    { encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  fs.writeFileSync(
    path.join(dir, "site.conf"),
    siteConfigFor({ upstreams, httpPort, httpsPort, certificate, key }),
  );
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    `daemon off;
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  include ${dir}/site.conf;
}
`,
  );
  const check = spawnSync(NGINX, ["-t", "-c", path.join(dir, "nginx.conf"), "-p", dir], {
    encoding: "utf8",
  });
  if (check.status !== 0) throw new Error(`nginx refused the site file:\n${check.stderr}`);
  const child = spawn(NGINX, ["-c", path.join(dir, "nginx.conf"), "-p", dir], {
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await waitForPort(httpsPort);
  return {
    origin: `https://localhost:${httpsPort}`,
    httpsPort,
    httpPort,
    errors: () => fs.readFileSync(path.join(dir, "error.log"), "utf8"),
    async stop() {
      child.kill("SIGQUIT");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const agents = new Map<string, https.Agent>();
/** One keep-alive agent per client address, trusting the test's own certificate. */
function agentFor(localAddress: string) {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false, localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

/**
 * A request to nginx over TLS from `localAddress` (any 127.x.y.z: Linux answers the whole
 * loopback network), as a browser without JavaScript sends it; answered as a fetch Response.
 */
export function requestThrough(
  proxy: NginxProxy,
  pathname: string,
  options: {
    localAddress?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: "127.0.0.1",
        port: proxy.httpsPort,
        servername: "localhost",
        path: pathname,
        method: options.method ?? (options.body === undefined ? "GET" : "POST"),
        agent: agentFor(options.localAddress ?? "127.0.0.1"),
        headers: { host: `localhost:${proxy.httpsPort}`, ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            for (const v of Array.isArray(value) ? value : [value ?? ""]) headers.append(name, v);
          }
          const status = response.statusCode ?? 0;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** A lead posted from the home page's form, without JavaScript, from `localAddress`. */
export function postLeadThrough(
  proxy: NginxProxy,
  fields: { name: string; zipCode: string; email: string },
  options: { localAddress?: string; forwardedFor?: string } = {},
) {
  return requestThrough(proxy, "/?index", {
    localAddress: options.localAddress,
    body: new URLSearchParams(fields).toString(),
    headers: {
      origin: proxy.origin,
      "content-type": "application/x-www-form-urlencoded",
      ...(options.forwardedFor ? { "x-forwarded-for": options.forwardedFor } : {}),
    },
  });
}

/** nginx's version line, for reports. */
export function nginxVersion() {
  return spawnSync(NGINX, ["-v"], { encoding: "utf8" })
    .stderr.trim()
    .replace(/^nginx version: /, "");
}
