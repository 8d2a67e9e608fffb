import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/*
 * The runtime import graph of the product's sources and its cycles (ADR 090): an edge for each
 * `import` or `export ... from` that brings a value at load time. Type-only imports (`import
 * type`, or every name marked `type`) and dynamic `import()` are left out: they load nothing
 * when the module is evaluated. A cycle is a strongly connected component of two or more
 * modules, or a module importing itself (Tarjan's algorithm).
 *
 *   npx tsx scripts/import-cycles.ts        prints each cycle; exit code 1 when there is one
 */

const EXTENSIONS = [".ts", ".tsx", "/index.ts", "/index.tsx"];

function resolve(from: string, specifier: string, root: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = path.join(root, "app", specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null; // a package
  if (/\.(ts|tsx)$/.test(base) && fs.existsSync(base)) return base;
  const stripped = base.replace(/\.(js|mjs)$/, "");
  for (const ext of EXTENSIONS) {
    const candidate = stripped + ext;
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** The specifiers a module imports at load time. */
export function runtimeImports(source: string, fileName = "module.ts"): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause &&
        !clause.name &&
        bindings &&
        ts.isNamedImports(bindings) &&
        bindings.elements.length > 0 &&
        bindings.elements.every((e) => e.isTypeOnly);
      if (onlyTypes) continue;
      found.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      if (statement.isTypeOnly) continue;
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly))
        continue;
      found.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The graph of `root`'s app/ and server/ modules: file -> the files it imports at load time. */
export function importGraph(root: string, dirs = ["app", "server"]) {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sourceFiles(path.join(root, d)))) {
    const targets = runtimeImports(fs.readFileSync(file, "utf8"), file)
      .map((s) => resolve(file, s, root))
      .filter((t): t is string => t !== null);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The cycles: strongly connected components of 2+ modules, or a module importing itself. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  // Iterative Tarjan: the graph has hundreds of modules, recursion is fine, but a deep chain
  // should not meet the stack's limit.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const to = edges[top.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== top.node);
        const selfLoop = (graph.get(top.node) ?? []).includes(top.node);
        if (component.length > 1 || selfLoop) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const root = path.resolve(import.meta.dirname, "..");
  const cycles = importCycles(importGraph(root));
  for (const cycle of cycles) {
    console.log(`A cycle of ${cycle.length} modules:`);
    for (const file of cycle) console.log(`  ${path.relative(root, file)}`);
  }
  console.log(cycles.length ? `${cycles.length} import cycles` : "No import cycles");
  process.exit(cycles.length ? 1 : 0);
}
