/**
 * The decision records' index (docs/decisions/README.md), made from the records themselves so it
 * can be neither incomplete nor out of step: each record's number, title (its first heading) and
 * status (its "Status:" line, without the explanations in parentheses). Numbers that have no
 * record are listed with the reason. `npx tsx scripts/adr-index.ts` writes the index;
 * `--check` exits 1 when the index on disk differs or a record's amendments are not answered by
 * the amended record's status. scripts/adr-index.test.ts runs the check.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DECISIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "docs",
  "decisions",
);

/** Numbers that were given out but hold no record, and why. */
const PARALLEL =
  "handed out to work done in parallel that wrote no record of its own; its decisions are in the records beside it";
export const UNUSED_NUMBERS: Record<string, string> = {
  "038": "given to the staff search's folding, which was recorded as 045",
  "051": "handed out with 050 and 052 for the closures; all three decisions are recorded in 050",
  "052": "handed out with 050 and 051 for the closures; all three decisions are recorded in 050",
  "062": PARALLEL,
  "064": PARALLEL,
  "065": PARALLEL,
  "068": PARALLEL,
  "069": PARALLEL,
  "071": PARALLEL,
  "072": PARALLEL,
  "074": PARALLEL,
};

export type DecisionRecord = {
  number: string;
  file: string;
  title: string;
  status: string;
  /** Numbers this record says it amends or replaces ("amends 006", "Amends [017](...)"). */
  amends: string[];
};

function plainStatus(line: string) {
  return line
    .replace(/\[(\d{3})\]\([^)]*\)/g, "$1") // [029](029-....md) -> 029
    .replace(/\s*\((amends (?:\d{3}(?:, | and )?)+)[^)]*\)/gi, ", $1") // (amends 063: ...) -> , amends 063
    .replace(/\s*\([^()]*(\([^()]*\)[^()]*)*\)/g, "") // explanations in parentheses
    .replace(/\s+/g, " ")
    .trim();
}

export function readRecords(dir = DECISIONS_DIR): DecisionRecord[] {
  return readdirSync(dir)
    .filter((file) => /^\d{3}-.*\.md$/.test(file))
    .sort()
    .map((file) => {
      const text = readFileSync(path.join(dir, file), "utf8");
      const number = file.slice(0, 3);
      const heading = /^# (.+)$/m.exec(text)?.[1] ?? "";
      const title = heading.replace(/^\d{3}[.:]?\s*/, "").trim();
      const statusLine = /Status:\s*(.+)$/m.exec(text)?.[1] ?? "";
      const status = plainStatus(
        statusLine.replace(/\s+·\s+([A-Z])/g, (_, c: string) => `, ${c.toLowerCase()}`),
      );
      const amendsLines = [statusLine, ...text.split("\n").filter((l) => /^Amends ADR/.test(l))];
      const amends = [
        ...new Set(
          amendsLines.flatMap((l) =>
            [
              ...l.matchAll(
                /\b[Aa]mends\s+(?:ADRs?\s+)?((?:\[?\d{3}\]?(?:\(\d{3}[^)]*\))?(?:,\s*|\s+and\s+)?)+)/g,
              ),
            ].flatMap((m) => [...(m[1] ?? "").matchAll(/\d{3}(?![-\w])/g)].map((n) => n[0])),
          ),
        ),
      ];
      return { number, file, title, status, amends };
    });
}

export function renderIndex(records: DecisionRecord[]) {
  const rows = records.map(
    (r) => `| ${r.number} | [${r.title.replace(/\|/g, "\\|")}](${r.file}) | ${r.status} |`,
  );
  const unused = Object.entries(UNUSED_NUMBERS).map(([n, why]) => `- ${n}: ${why}.`);
  return [
    "# Decision records",
    "",
    "Each record: context, decision, consequences, with its date and status. A record that a",
    "later one replaces or amends says so in its status line; its body is not rewritten.",
    "",
    "This index is made from the records (`npx tsx scripts/adr-index.ts`); a test fails when it is",
    "out of step with them, or when a record amends another whose status does not say so.",
    "",
    "| number | decision | status |",
    "| --- | --- | --- |",
    ...rows,
    "",
    "## Numbers without a record",
    "",
    "Numbers are handed out before the work is done; these were given out and the decision was",
    "written into a neighbouring record instead. None was ever published.",
    "",
    ...unused,
    "",
  ].join("\n");
}

/** What is wrong with the records and the index on disk: nothing when the list is empty. */
export function checkIndex(dir = DECISIONS_DIR) {
  const records = readRecords(dir);
  const problems: string[] = [];
  const byNumber = new Map(records.map((r) => [r.number, r]));
  for (const r of records) {
    if (!r.title) problems.push(`${r.file}: no "# NNN Title" heading`);
    if (!r.status) problems.push(`${r.file}: no "Status:" line`);
    if (UNUSED_NUMBERS[r.number]) problems.push(`${r.number} has a record and is listed unused`);
    for (const amended of r.amends) {
      const target = byNumber.get(amended);
      if (!target) problems.push(`${r.file} amends ${amended}, which has no record`);
      else if (!new RegExp(`\\b${r.number}\\b`).test(target.status))
        problems.push(`${target.file}'s status does not name ${r.number}, which amends it`);
    }
  }
  const last = Number(records.at(-1)?.number ?? 0);
  for (let n = 1; n <= last; n++) {
    const id = String(n).padStart(3, "0");
    if (!byNumber.has(id) && !UNUSED_NUMBERS[id]) problems.push(`${id}: no record and no reason`);
  }
  const onDisk = readFileSync(path.join(dir, "README.md"), "utf8");
  if (onDisk !== renderIndex(records))
    problems.push("docs/decisions/README.md is out of step: run npx tsx scripts/adr-index.ts");
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (process.argv.includes("--check")) {
    const problems = checkIndex();
    for (const p of problems) console.error(p);
    process.exit(problems.length ? 1 : 0);
  }
  writeFileSync(path.join(DECISIONS_DIR, "README.md"), renderIndex(readRecords()));
  console.log("docs/decisions/README.md written");
}
