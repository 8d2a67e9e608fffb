import { mkdtempSync, readFileSync, writeFileSync, cpSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkIndex, DECISIONS_DIR, readRecords, renderIndex } from "./adr-index";

let copy = "";
afterEach(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
  copy = "";
});

function copyOfRecords() {
  copy = mkdtempSync(path.join(os.tmpdir(), "adr-index-"));
  cpSync(DECISIONS_DIR, copy, { recursive: true });
  return copy;
}

describe("the decision records' index", () => {
  it("lists every record with its status, and explains every number without one", () => {
    expect(checkIndex()).toEqual([]);
    const index = readFileSync(path.join(DECISIONS_DIR, "README.md"), "utf8");
    for (const record of readRecords()) expect(index).toContain(`(${record.file})`);
    expect(index).toMatch(/^- 038: /m);
  });

  it("fails on a record left out of the index", () => {
    const dir = copyOfRecords();
    writeFileSync(
      path.join(dir, "999-a-new-decision.md"),
      "# 999 A new decision\n\nDate: 2026-11-28 · Status: accepted\n",
    );
    expect(checkIndex(dir).join("\n")).toMatch(/out of step/);
    expect(checkIndex(dir).join("\n")).toMatch(/no record and no reason/);
  });

  it("fails when an amended record's status does not name the record amending it", () => {
    const dir = copyOfRecords();
    writeFileSync(
      path.join(dir, "999-amends-two.md"),
      "# 999 Amends two\n\nDate: 2026-11-28 · Status: accepted (amends 002)\n",
    );
    writeFileSync(path.join(dir, "README.md"), renderIndex(readRecords(dir)));
    expect(checkIndex(dir)).toContain(
      "002-end-to-end-tests-on-postgresql.md's status does not name 999, which amends it",
    );
  });
});
