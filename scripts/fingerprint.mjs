// The identity of a build: the sources it was made from. Settings are not part of it: they are
// read when the server starts (ADR 029), so one build serves every environment.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

function walk(dir, out) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (!/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

export function fingerprint(root) {
  const hash = crypto.createHash("sha256");
  const files = [
    ...walk(path.join(root, "app"), []),
    ...walk(path.join(root, "public"), []),
    // The compiled server and CLI (build/server/main.js, build/cli.js) and the build's own steps.
    ...walk(path.join(root, "server"), []),
    // The migrations: the build's database template is made from them (ADR 092).
    ...walk(path.join(root, "drizzle"), []),
    ...walk(path.join(root, "scripts", "build"), []),
    ...fs
      .readdirSync(path.join(root, "scripts"))
      .filter((name) => /^cli.*\.ts$/.test(name) && !name.endsWith(".test.ts"))
      .map((name) => path.join(root, "scripts", name)),
    path.join(root, "package-lock.json"),
    path.join(root, "tsconfig.json"),
    path.join(root, "vite.config.ts"),
    path.join(root, "react-router.config.ts"),
  ].sort();
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(root, file));
    hash.update(fs.readFileSync(file));
  }
  return hash.digest("hex");
}

export const STAMP = "build/.fingerprint";

/** What a complete build holds besides its stamp. */
const OUTPUTS = [
  "build/server/index.js",
  "build/server/main.js",
  "build/server/start.js",
  "build/server/first-start.js",
  "build/server/first-start-gate.js",
  "build/server/pglite-worker.mjs",
  "build/cli.js",
  "build/pglite-worker.mjs",
  "build/client",
];

/** Whether build/ is a complete build of the sources as they are now. */
export function isBuilt(root) {
  const stamp = path.join(root, STAMP);
  if (!fs.existsSync(stamp)) return false;
  if (!OUTPUTS.every((output) => fs.existsSync(path.join(root, output)))) return false;
  return fs.readFileSync(stamp, "utf8") === fingerprint(root);
}
