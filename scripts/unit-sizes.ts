import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/*
 * Small units (ADR 095): no function of more than 150 lines and no module of more than 500 in
 * the product's sources (app/, server/, scripts/). Seeds (server/seed/) and content
 * (app/content/) are data written as code and are left out, as are tests. A function is any
 * function declaration or expression, arrow function, method, accessor or constructor (so a
 * component is one); its length runs from its first line to its last, nested functions
 * included, and a nested function is measured on its own as well.
 *
 *   npx tsx scripts/unit-sizes.ts             prints each unit too large; exit code 1 when there is one
 *   npx tsx scripts/unit-sizes.ts --report    prints them and the counts; exit code 0
 */

export const MAX_FUNCTION_LINES = 150;
export const MAX_MODULE_LINES = 500;
const DIRS = ["app", "server", "scripts"];
const SKIPPED = ["server/seed/", "app/content/"];

export type Oversized =
  | { kind: "function"; file: string; line: number; name: string; lines: number }
  | { kind: "module"; file: string; lines: number };

function sourceFiles(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "node_modules") return [];
      return SKIPPED.includes(`${relative}/`) ? [] : sourceFiles(root, relative);
    }
    return /\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** What a reader calls a function: its own name, or the variable, property or call it is given to. */
function functionName(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (ts.isFunctionDeclaration(node)) return "default export";
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))
    return parent.name.getText(file);
  if (ts.isExportAssignment(parent)) return "default export";
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(file);
    return `(callback of ${callee.length > 40 ? `${callee.slice(0, 40)}...` : callee})`;
  }
  return "(anonymous)";
}

/** The units of one source text over the limits, `file` being the name to report. */
export function oversizedUnits(source: string, file: string): Oversized[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const found: Oversized[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = sf.getLineAndCharacterOfPosition(fn.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES)
        found.push({ kind: "function", file, line: first + 1, name: functionName(fn, sf), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const moduleLines = source.split("\n").length - (source.endsWith("\n") ? 1 : 0);
  if (moduleLines > MAX_MODULE_LINES) found.push({ kind: "module", file, lines: moduleLines });
  return found;
}

/** Every unit over the limits under `root`'s app/, server/ and scripts/, paths relative to root. */
export function unitSizes(root: string): Oversized[] {
  return DIRS.flatMap((dir) => sourceFiles(root, dir)).flatMap((file) =>
    oversizedUnits(fs.readFileSync(path.join(root, file), "utf8"), file),
  );
}

export function describeUnit(unit: Oversized): string {
  return unit.kind === "function"
    ? `${unit.file}:${unit.line} ${unit.name}: ${unit.lines} lines (function, limit ${MAX_FUNCTION_LINES})`
    : `${unit.file}: ${unit.lines} lines (module, limit ${MAX_MODULE_LINES})`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const root = path.resolve(import.meta.dirname, "..");
  const units = unitSizes(root);
  for (const unit of units) console.log(describeUnit(unit));
  const functions = units.filter((u) => u.kind === "function").length;
  const modules = units.length - functions;
  console.log(
    `${functions} functions over ${MAX_FUNCTION_LINES} lines, ${modules} modules over ${MAX_MODULE_LINES} lines`,
  );
  process.exit(units.length && !process.argv.includes("--report") ? 1 : 0);
}
