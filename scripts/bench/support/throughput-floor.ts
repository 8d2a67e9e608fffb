/** The framework floor the throughput bench compares rendered pages with (scripts/bench/floor/). */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort, tempDir } from "../../../tests/support/processes";
import { waitForPort } from "./nginx";
import { ROOT } from "./throughput-config";

const FLOOR_PACKAGES = [
  "react",
  "react-dom",
  "react-router",
  "@react-router/node",
  "@react-router/express",
  "express",
  "isbot",
];

/**
 * Copies scripts/bench/floor into a temporary directory and builds it with our node_modules.
 * `replace`: files of the floor to write differently first (an A/B), by path in the floor.
 */
export function buildFloor(replace: Record<string, string | null> = {}) {
  const dir = tempDir("handyman-floor-");
  fs.cpSync(path.join(import.meta.dirname, "..", "floor"), dir, { recursive: true });
  for (const [file, text] of Object.entries(replace))
    if (text === null) fs.rmSync(path.join(dir, file));
    else fs.writeFileSync(path.join(dir, file), text);
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const ours = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const versions = { ...ours.dependencies, ...ours.devDependencies } as Record<string, string>;
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  // The same declared versions as ours (React Router looks for its server runtime here).
  pkg.dependencies = Object.fromEntries(FLOOR_PACKAGES.map((name) => [name, versions[name]]));
  pkg.devDependencies = {
    "@react-router/dev": versions["@react-router/dev"],
    vite: versions.vite,
  };
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  execFileSync(
    process.execPath,
    [path.join(ROOT, "node_modules/@react-router/dev/bin.js"), "build"],
    {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NODE_ENV: "production" },
    },
  );
  const installed = (name: string) =>
    JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", name, "package.json"), "utf8"))
      .version as string;
  return {
    dir,
    versions: ["react-router", "@react-router/express", "express", "react-dom"]
      .map((name) => `${name} ${installed(name)}`)
      .join(", "),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export async function startFloor(dir: string) {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ["server.mjs"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1" },
    stdio: "ignore",
  });
  await waitForPort(port, 30_000);
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => {
      child.kill("SIGTERM");
    },
  };
}
