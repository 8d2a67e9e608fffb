/**
 * `npm run bench`: runs every benchmark module in this folder that exports `run()`, one after
 * the other (they share the machine, so never in parallel). `npm run bench -- load` runs only
 * the modules named.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const modules = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith(".ts") && file !== "index.ts" && !file.endsWith(".test.ts"))
  .filter((file) => wanted.length === 0 || wanted.includes(path.basename(file, ".ts")))
  .sort();

let failed = false;
for (const file of modules) {
  const module = (await import(pathToFileURL(path.join(dir, file)).href)) as {
    run?: () => Promise<void>;
  };
  if (typeof module.run !== "function") continue;
  console.log(`\n=== bench: ${file} ===`);
  try {
    await module.run();
  } catch (error) {
    failed = true;
    console.error(`bench ${file} failed:`, error);
  }
}
process.exit(failed ? 1 : 0);
