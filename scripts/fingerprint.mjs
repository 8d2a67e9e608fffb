// The identity of a build: its sources and the settings baked into prerendered pages.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const BUILD_ENV = [
  "BUSINESS_NAME",
  "BUSINESS_PHONE",
  "BUSINESS_EMAIL",
  "SCHEDULER_EMBED_URL",
  "PUBLIC_URL",
];

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
    // The build's own steps (the pages' enhancement scripts, pictures, compression).
    ...walk(path.join(root, "scripts", "build"), []),
    path.join(root, "package-lock.json"),
    path.join(root, "vite.config.ts"),
    path.join(root, "react-router.config.ts"),
  ].sort();
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    hash.update(path.relative(root, file));
    hash.update(fs.readFileSync(file));
  }
  for (const name of BUILD_ENV) hash.update(`${name}=${process.env[name] ?? ""}`);
  return hash.digest("hex");
}

export const STAMP = path.join("build", ".fingerprint");
