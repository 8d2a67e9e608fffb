import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeUnit, oversizedUnits, unitSizes } from "./unit-sizes";

/*
 * Small units (ADR 095): no function over 150 lines, no module over 500, outside seeds and
 * content. The files below are still to be split; each leaves this list when it is, and a file
 * listed here that is no longer too large fails the test, so the list only shrinks.
 */
const BEING_SPLIT = new Set<string>([]);

const root = path.resolve(import.meta.dirname, "..");
const planted = fs.mkdtempSync(path.join(os.tmpdir(), "unit-sizes-"));

afterAll(() => fs.rmSync(planted, { recursive: true, force: true }));

function plant(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(planted, "tree-"));
  for (const [name, code] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), code);
  }
  return unitSizes(dir).map(describeUnit);
}

const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`);

describe("unit sizes", () => {
  it("no function over 150 lines and no module over 500 in the product", () => {
    const units = unitSizes(root).filter((unit) => !BEING_SPLIT.has(unit.file));
    expect(units.map(describeUnit)).toEqual([]);
  });

  it("lists only files still too large", () => {
    const large = new Set(unitSizes(root).map((unit) => unit.file));
    expect([...BEING_SPLIT].filter((file) => !large.has(file))).toEqual([]);
  });

  it("finds a function planted over 150 lines, whichever form it takes", () => {
    const declaration = ["export function big() {", ...body(149), "}"].join("\n");
    const component = ["export const Page = () => (", "  <div>", ...body(148), "  </div>", ");"];
    const method = ["class A {", "  run() {", ...body(149), "  }", "}"];
    expect(
      plant({
        "app/features/a/big.server.ts": declaration,
        "app/routes/page.tsx": component
          .map((l) => l.replace(/const (v\d+)/, "<p>$1</p>"))
          .join("\n"),
        "server/a.ts": method.join("\n"),
        "scripts/fit.ts": ["export function fit() {", ...body(148), "}"].join("\n"),
      }),
    ).toEqual([
      "app/features/a/big.server.ts:1 big: 151 lines (function, limit 150)",
      "app/routes/page.tsx:1 Page: 152 lines (function, limit 150)",
      "server/a.ts:2 run: 151 lines (function, limit 150)",
    ]);
  });

  it("finds a module over 500 lines and leaves out tests, seeds and content", () => {
    const long = body(501).join("\n") + "\n";
    expect(
      plant({
        "app/lib/long.ts": long,
        "app/lib/long.test.ts": long,
        "app/content/cities.ts": long,
        "server/seed/demo.ts": ["export function seed() {", ...body(200), "}"].join("\n"),
        "app/lib/fits.ts": body(500).join("\n") + "\n",
      }),
    ).toEqual(["app/lib/long.ts: 501 lines (module, limit 500)"]);
  });

  it("names a function by what holds it", () => {
    const long = body(151).join("\n");
    const names = oversizedUnits(
      [
        `export default function () {\n${long}\n}`,
        `const byVariable = function () {\n${long}\n};`,
        `const object = { byProperty: () => {\n${long}\n} };`,
        `items.map((item) => {\n${long}\n});`,
      ].join("\n"),
      "x.ts",
    ).map((unit) => (unit.kind === "function" ? unit.name : unit.kind));
    expect(names).toEqual([
      "default export",
      "byVariable",
      "byProperty",
      "(callback of items.map)",
      "module",
    ]);
  });
});
