// Sums the results of every test step into "N passed, N failed".
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? ".tmp/results";
const lineOnly = process.argv.includes("--line");
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
for (const file of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
  if (!file.endsWith(".json")) continue;
  let data;
  try {
    data = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  } catch {
    continue;
  }
  let p = 0;
  let f = 0;
  let s = 0;
  if (data.kind === "check") {
    continue; // static checks are reported as steps, not tests
  } else if ("numPassedTests" in data) {
    p = data.numPassedTests;
    f = data.numFailedTests;
    s = data.numPendingTests + (data.numTodoTests ?? 0);
  } else if (data.stats) {
    p = data.stats.expected + (data.stats.flaky ?? 0);
    f = data.stats.unexpected;
    s = data.stats.skipped;
  }
  passed += p;
  failed += f;
  skipped += s;
  rows.push(`${file}: ${p} passed, ${f} failed, ${s} skipped`);
}
for (const file of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  if (!file.startsWith("check-")) continue;
  const data = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
  passed += data.passed;
  failed += data.failed;
}
if (!lineOnly) {
  console.log("\n=== Summary ===");
  for (const row of rows) console.log(row);
  console.log("(each static check and the build count as one)");
}
if (lineOnly)
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
