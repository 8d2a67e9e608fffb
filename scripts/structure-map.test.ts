import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const map = readFileSync(path.join(root, "docs/structure.md"), "utf8");

/** The schema's source: app/db/schema.ts, or the modules of app/db/schema/ when it is split. */
function schemaSource() {
  const single = path.join(root, "app/db/schema.ts");
  const dir = path.join(root, "app/db/schema");
  const files = [
    ...(existsSync(single) ? [single] : []),
    ...(existsSync(dir) ? readdirSync(dir).map((file) => path.join(dir, file)) : []),
  ];
  return files.map((file) => readFileSync(file, "utf8")).join("\n");
}

describe("docs/structure.md, the map of the business objects", () => {
  const paths = [...map.matchAll(/`((?:app|server|scripts|tests|drizzle|docs)\/[^`\s]+)`/g)].map(
    (m) => m[1] as string,
  );
  const tables = [...map.matchAll(/^\| [^|]+ \| [^|]+ \| ([^|]+) \|/gm)].flatMap((m) =>
    [...(m[1] ?? "").matchAll(/`([a-z_]+)`/g)].map((t) => t[1] as string),
  );

  it("names paths that exist", () => {
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !existsSync(path.join(root, p)))).toEqual([]);
  });

  it("names tables the schema defines", () => {
    expect(tables.length).toBeGreaterThan(20);
    const schema = schemaSource();
    expect(tables.filter((t) => !schema.includes(`"${t}"`))).toEqual([]);
  });
});
