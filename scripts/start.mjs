// `npm start`: build when the sources changed since the last build, then run the server.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fingerprint, STAMP } from "./fingerprint.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);

const current = fingerprint(root);
const previous = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, "utf8") : "";
if (current !== previous || !fs.existsSync("build/server/index.js")) {
  console.log("Building the application (first start, or the sources changed)...");
  execSync("node scripts/build.mjs", { stdio: "inherit" });
}

process.env.NODE_ENV ??= "production";
const { register } = await import("tsx/esm/api");
register({ tsconfig: path.join(root, "tsconfig.json") });
await import("../server/main.ts");
