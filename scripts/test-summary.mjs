// Sums the results of every test step into "N passed, N failed".
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? ".tmp/results";
const lineOnly = process.argv.includes("--line");
let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
const failures = [];

/** The names of what failed (vitest's JSON, Playwright's JSON), so the log's tail says which. */
function failedNames(data) {
  if (Array.isArray(data.testResults)) {
    return data.testResults.flatMap((file) =>
      (file.assertionResults ?? [])
        .filter((a) => a.status === "failed")
        .map((a) => `${path.relative(process.cwd(), file.name)} > ${a.fullName}`),
    );
  }
  const names = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === "unexpected" || t.status === "flaky")
          names.push(`${spec.file}:${spec.line} > ${spec.title} [${t.projectName}] (${t.status})`);
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of data.suites ?? []) walk(suite);
  return names;
}
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
  for (const name of failedNames(data)) failures.push(`${file}: ${name}`);
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
  if (failures.length) {
    console.log("Failed or flaky tests:");
    for (const name of failures) console.log(`  ${name}`);
  }
}
if (lineOnly)
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
