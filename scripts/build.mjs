// `npm run build`: the production build, the same for every environment (ADR 029). React
// Router's build (the browser's assets in build/client, the server build in build/server/index.js,
// the pictures in build/images), then the server and the CLI compiled to JavaScript
// (build/server/main.js, build/cli.js), then a trial render of the public pages. Stamped with the
// sources' fingerprint last, so an interrupted build is never taken for a complete one.
import { execFileSync, execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { compileServer } from "./build/compile-server.mjs";
import { fingerprint, STAMP } from "./fingerprint.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
fs.rmSync(STAMP, { force: true });
execSync("npx react-router build", {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
await compileServer();
// The embedded database's template: a first start copies it instead of migrating (ADR 092).
execFileSync(process.execPath, ["--import", "tsx", "scripts/build/database-template.ts"], {
  stdio: "inherit",
  env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production" },
});
// Renders every public page once, with the default settings and none of this shell's, so a page
// that cannot render fails the build rather than a server's start.
execFileSync(process.execPath, ["--import", "tsx", "scripts/build/check-public-pages.ts"], {
  stdio: "inherit",
  env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production" },
});
fs.writeFileSync(STAMP, fingerprint(root));
