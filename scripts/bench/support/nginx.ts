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

export async function startNginx(htmlRoot: string) {
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
  types { text/html html; text/javascript js; text/css css; }
  server {
    listen 127.0.0.1:${port};
    root ${htmlRoot};
    location = / { try_files /index.html =404; }
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
