import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { createTestDatabase, type TestDatabase } from "./test-database";

/**
 * A test database migrated up to, and not including, the migration whose tag matches `tag`
 * (a migration's test writes the rows it is about, then runs the rest with `database.migrate()`).
 * `cleanup` drops the database and the copy of the earlier migrations.
 */
export async function databaseMigratedBefore(tag: (tag: string) => boolean) {
  const database = await createTestDatabase({ migrate: false });
  const before = fs.mkdtempSync(path.join(os.tmpdir(), "migrated-before-"));
  fs.mkdirSync(path.join(before, "meta"));
  const journal = JSON.parse(fs.readFileSync("drizzle/meta/_journal.json", "utf8")) as {
    entries: { idx: number; tag: string }[];
  };
  const target = journal.entries.find((e) => tag(e.tag));
  if (!target) throw new Error("no such migration in drizzle/meta/_journal.json");
  journal.entries = journal.entries.filter((e) => e.idx < target.idx);
  fs.writeFileSync(path.join(before, "meta", "_journal.json"), JSON.stringify(journal));
  for (const e of journal.entries)
    fs.copyFileSync(`drizzle/${e.tag}.sql`, path.join(before, `${e.tag}.sql`));
  await migrate(database.db as Parameters<typeof migrate>[0], { migrationsFolder: before });
  return {
    database,
    async cleanup() {
      await database.drop();
      fs.rmSync(before, { recursive: true, force: true });
    },
  };
}

/** The rows of a raw query, on either database. */
export async function rowsOf<T>(database: TestDatabase, query: ReturnType<typeof sql>) {
  const result = (await database.db.execute(query)) as unknown as { rows?: T[] } | T[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}
