import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCycles, importGraph, runtimeImports } from "./import-cycles";

/*
 * No runtime import cycles (ADR 090): the product's own graph has none, and the check finds one
 * planted in a copy of a small tree, while type-only imports and dynamic import() make none.
 */

const root = path.resolve(import.meta.dirname, "..");
const planted = fs.mkdtempSync(path.join(os.tmpdir(), "import-cycles-"));

afterAll(() => fs.rmSync(planted, { recursive: true, force: true }));

function plant(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(planted, "tree-"));
  for (const [name, code] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), code);
  }
  return importCycles(importGraph(dir)).map((cycle) =>
    cycle.map((file) => path.relative(dir, file)),
  );
}

describe("import cycles", () => {
  it("the product's modules import each other without a cycle", () => {
    const cycles = importCycles(importGraph(root)).map((c) =>
      c.map((file) => path.relative(root, file)),
    );
    expect(cycles).toEqual([]);
  });

  it("finds a cycle planted through a feature's index and the ~/ alias", () => {
    const cycles = plant({
      "app/features/a/index.server.ts": 'export { one } from "./one.server";',
      "app/features/a/one.server.ts":
        'import { two } from "~/features/b/index.server";\nexport const one = () => two();',
      "app/features/b/index.server.ts": 'export { two } from "./two.server";',
      "app/features/b/two.server.ts":
        'import { one } from "~/features/a/index.server";\nexport const two = () => one;',
      "app/features/c/alone.ts": 'import { two } from "../b/two.server";\nexport const c = two;',
    });
    expect(cycles).toEqual([
      [
        "app/features/a/index.server.ts",
        "app/features/a/one.server.ts",
        "app/features/b/index.server.ts",
        "app/features/b/two.server.ts",
      ],
    ]);
  });

  it("a module importing itself is a cycle", () => {
    expect(plant({ "server/self.ts": 'import "./self";' })).toEqual([["server/self.ts"]]);
  });

  it("leaves out imports that load nothing at run time", () => {
    expect(
      runtimeImports(
        [
          'import type { A } from "./a";',
          'import { type B, type C } from "./b";',
          'export type { D } from "./d";',
          'const lazy = () => import("./e");',
          'import { f, type G } from "./f";',
          'export { h } from "./h";',
          'import "./side-effect";',
        ].join("\n"),
      ),
    ).toEqual(["./f", "./h", "./side-effect"]);
    expect(
      plant({
        "app/x.ts": 'import type { Y } from "./y";\nexport const x = 1;',
        "app/y.ts": 'import { x } from "./x";\nexport type Y = typeof x;',
      }),
    ).toEqual([]);
  });
});
