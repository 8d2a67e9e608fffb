// Smoke run on the Node.js running this script: start the built app (`npm start`'s own
// entry, scripts/start.mjs) with the embedded database in a throwaway directory, ask one page of
// each family, sign in as the demo customer and open the dashboard, then stop. Prints one line per
// check and a last line "smoke on Node vX: N passed, M failed"; exits 1 on any failure.
// Used by .ci/run on the older Node.js versions `engines` admits. Needs a build (npm run build).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const port = await new Promise((resolve) => {
  const probe = net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-smoke-"));
// PUBLIC_URL stays unset (it defaults to http://localhost:PORT), as in the build: a different
// value would make scripts/start.mjs rebuild.
const origin = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ["scripts/start.mjs"], {
  cwd: root,
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    SEED_DEMO: "true",
    LOG_LEVEL: "warn",
  },
  stdio: ["ignore", "pipe", "pipe"],
});
let output = "";
child.stdout.on("data", (chunk) => (output += chunk));
child.stderr.on("data", (chunk) => (output += chunk));

let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok || !detail ? "" : `: ${detail}`}`);
}

async function ready() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

try {
  const up = await ready();
  check(`server starts on Node ${process.version}`, up, output.slice(-2000));
  if (up) {
    for (const [page, text] of [
      ["/", "Your Dedicated Handyman"],
      ["/dunwoody-handyman", "Dunwoody"],
      ["/book-call", "Book"],
      ["/auth", "Sign in"],
      ["/sitemap.xml", "<urlset"],
    ]) {
      const response = await fetch(`${origin}${page}`);
      const body = await response.text();
      check(`GET ${page}`, response.status === 200 && body.includes(text), `${response.status}`);
    }
    const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      // The app's own origin is PUBLIC_URL's default, http://localhost:PORT.
      headers: { "Content-Type": "application/json", Origin: `http://localhost:${port}` },
      body: JSON.stringify({
        email: "maria@peachtree-handyman.example",
        password: "Maria-demo-2026!",
      }),
    });
    const cookie = (signIn.headers.getSetCookie?.() ?? []).map((c) => c.split(";")[0]).join("; ");
    check("sign in as the demo customer", signIn.ok && cookie.length > 0, `${signIn.status}`);
    const dashboard = await fetch(`${origin}/dashboard`, {
      headers: { cookie },
      redirect: "manual",
    });
    const page = await dashboard.text();
    check(
      "GET /dashboard signed in",
      dashboard.status === 200 && page.includes("Maria"),
      `${dashboard.status}`,
    );
  }
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, 15_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    if (child.exitCode !== null) resolve();
  });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(`smoke on Node ${process.version}: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
