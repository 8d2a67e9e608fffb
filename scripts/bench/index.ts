/**
 * `npm run bench`: runs every module in scripts/bench/ that exports `run()`, one after the
 * other (each writes its own section of docs/benchmarks.md). `npm run bench -- lighthouse`
 * runs only the named modules.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const modules = fs
  .readdirSync(dir)
  .filter((name) => name.endsWith(".ts") && name !== "index.ts" && !name.endsWith(".test.ts"))
  .filter((name) => only.length === 0 || only.includes(name.replace(/\.ts$/, "")))
  .sort();

let failed = 0;
for (const name of modules) {
  const module = (await import(pathToFileURL(path.join(dir, name)).href)) as {
    run?: () => Promise<unknown>;
  };
  if (typeof module.run !== "function") continue;
  console.log(`\n=== bench: ${name} ===`);
  try {
    await module.run();
  } catch (error) {
    failed++;
    console.error(`bench ${name} failed:`, error);
  }
}
process.exit(failed ? 1 : 0);
