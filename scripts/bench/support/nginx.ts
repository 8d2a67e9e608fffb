/**
 * nginx as the benchmarks' anchor for static bytes: one worker process (like our one Node
 * process), no access log, serving a directory. Null when nginx is not installed.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { NGINX, waitForPort } from "../../../tests/support/nginx";
import { freePort, tempDir } from "../../../tests/support/processes";

export { waitForPort };

/**
 * One path nginx serves from the directory, with the response headers our server sends for it
 * (nginx adds its own Content-Type, Content-Length, ETag and Last-Modified).
 */
export type NginxLocation = {
  path: string;
  /** The file under the root, when it is not the path itself. */
  file?: string;
  headers?: Record<string, string>;
  /** Serve `file.gz` to a client that takes gzip (gzip_static), with Vary: Accept-Encoding. */
  gzipStatic?: boolean;
};

/** nginx quotes header values in double quotes: ours have none but the CSP's single quotes. */
const quoted = (value: string) => `"${value.replace(/(["\\$])/g, "\\$1")}"`;

function locationBlock(location: NginxLocation) {
  const lines = [
    ...(location.file ? [`try_files /${location.file.replace(/^\//, "")} =404;`] : []),
    ...(location.gzipStatic ? ["gzip_static on;", "gzip_vary on;"] : []),
    ...Object.entries(location.headers ?? {}).map(
      ([name, value]) => `add_header ${name} ${quoted(value)} always;`,
    ),
  ];
  return `    location = ${location.path} {\n${lines.map((line) => `      ${line}`).join("\n")}\n    }`;
}

export async function startNginx(htmlRoot: string, locations: NginxLocation[] = []) {
  if (!fs.existsSync(NGINX)) return null;
  const dir = tempDir("handyman-nginx-");
  const port = await freePort();
  fs.mkdirSync(path.join(dir, "tmp"));
  const config = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    config,
    `daemon off;
master_process off;
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp;
  proxy_temp_path ${dir}/tmp;
  fastcgi_temp_path ${dir}/tmp;
  uwsgi_temp_path ${dir}/tmp;
  scgi_temp_path ${dir}/tmp;
  types {
    text/html html; text/javascript js; text/css css; text/plain txt; application/xml xml;
    application/json json;
  }
  charset utf-8;
  charset_types text/html text/css text/plain text/javascript application/xml application/json;
  server {
    listen 127.0.0.1:${port};
    root ${htmlRoot};
${
  locations.some((location) => location.path === "/")
    ? ""
    : "    location = / { try_files /index.html =404; }\n"
}${locations.map(locationBlock).join("\n")}
  }
}
`,
  );
  const child = spawn(NGINX, ["-c", config, "-p", dir], { stdio: "ignore" });
  await waitForPort(port);
  // nginx prints its version on stderr.
  const version = spawnSync(NGINX, ["-v"], { encoding: "utf8" }).stderr.trim();
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    version: version.replace(/^nginx version: /, ""),
    stop() {
      child.kill("SIGQUIT");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
