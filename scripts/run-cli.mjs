// `npm run cli`: the admin CLI, compiled (build/cli.js). On a fresh clone it builds first; the
// build's output goes to stderr, keeping stdout for the command's own answers.
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
ensureBuild(root, { log: (message) => console.error(message), stdio: ["ignore", 2, 2] });
await import("../build/cli.js");
