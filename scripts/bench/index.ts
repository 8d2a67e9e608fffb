/**
 * `npm run bench`: runs every module in scripts/bench/ that exports `run()`, one after another.
 * `npm run bench -- employee-dashboard` runs only the named modules.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// Benches that serve the production build in this process (customer-dashboard, membership-tab)
// need React's production build: a module imported before the server (react-router through
// lib/business.ts) would otherwise load React's development build beside react-dom's production
// server renderer, which then fails ("dispatcher.getOwner is not a function").
process.env.NODE_ENV ??= "production";

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const modules = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith(".ts") && file !== "index.ts" && !file.endsWith(".test.ts"))
  .map((file) => file.replace(/\.ts$/, ""))
  .filter((name) => only.length === 0 || only.includes(name))
  .sort();

let failed = false;
for (const name of modules) {
  const mod = (await import(pathToFileURL(path.join(dir, `${name}.ts`)).href)) as {
    run?: () => Promise<void>;
  };
  if (typeof mod.run !== "function") continue;
  console.log(`\n=== bench: ${name} ===`);
  try {
    await mod.run();
  } catch (error) {
    failed = true;
    console.error(`bench ${name} failed:`, error);
  }
}
process.exit(failed ? 1 : 0);
