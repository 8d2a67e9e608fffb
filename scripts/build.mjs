// `npm run build`: the production build, stamped with its fingerprint so `npm start` reuses it.
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fingerprint, STAMP } from "./fingerprint.mjs";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
execSync("npx react-router build", {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
fs.writeFileSync(STAMP, fingerprint(root));
