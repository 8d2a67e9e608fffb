import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, openDatabase, type Database } from "~/db/client.server";
import { migrationsFingerprint, TEMPLATE_FINGERPRINT, templateToCopy } from "~/db/template.server";
import { writeDatabaseTemplate } from "../../scripts/build/database-template";

/*
 * The build's database template (ADR 092): a first start copies it instead of replaying the
 * migrations, so it must be the migrations' result exactly, and must never be copied when it
 * was made from other migrations than the server's.
 */

const work = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-template-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Everything the migrations define, as text, in a stable order. */
async function schemaOf(db: Database) {
  const system = sql`('pg_catalog', 'information_schema', 'pg_toast')`;
  const queries = {
    relations: sql`select n.nspname || '.' || c.relname || ' ' || c.relkind::text as x from pg_class c
      join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ${system}
      and n.nspname not like 'pg_temp%' order by 1`,
    columns: sql`select concat_ws(' ', table_schema, table_name, column_name, data_type,
      column_default, is_nullable, ordinal_position) as x from information_schema.columns
      where table_schema not in ${system} order by 1`,
    indexes: sql`select indexdef as x from pg_indexes where schemaname not in ${system} order by 1`,
    constraints: sql`select conrelid::regclass::text || ' ' || conname || ' ' ||
      pg_get_constraintdef(c.oid) as x from pg_constraint c join pg_namespace n
      on n.oid = c.connamespace where n.nspname not in ${system} order by 1`,
    triggers: sql`select pg_get_triggerdef(oid) as x from pg_trigger where not tgisinternal
      order by 1`,
    functions: sql`select n.nspname || '.' || p.proname || '(' ||
      pg_get_function_identity_arguments(p.oid) || ') ' || md5(pg_get_functiondef(p.oid)) as x
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname not in ${system} and p.prokind in ('f', 'p') order by 1`,
    types: sql`select n.nspname || '.' || t.typname || ' ' ||
      coalesce((select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e
      where e.enumtypid = t.oid), '') as x from pg_type t join pg_namespace n
      on n.oid = t.typnamespace where n.nspname not in ${system} and t.typtype in ('e', 'd')
      order by 1`,
    extensions: sql`select extname || ' ' || extversion as x from pg_extension order by 1`,
    migrations: sql`select hash || ' ' || created_at as x from drizzle.__drizzle_migrations
      order by id`,
    rows: sql`select 'users ' || count(*) as x from "user"`,
  };
  const out: Record<string, string[]> = {};
  for (const [name, query] of Object.entries(queries)) {
    const result = (await db.execute(query)) as unknown as { rows: { x: string }[] };
    out[name] = result.rows.map((r) => r.x);
  }
  return out;
}

describe("the build's database template", () => {
  it("is the migrations' result, and a first start from it has the same schema", async () => {
    const template = path.join(work, "template");
    await writeDatabaseTemplate(template);
    expect(fs.readFileSync(path.join(template, TEMPLATE_FINGERPRINT), "utf8").trim()).toBe(
      migrationsFingerprint(MIGRATIONS_DIR),
    );

    const migrated = await openDatabase({ memory: true });
    await migrated.migrate();
    const expected = await schemaOf(migrated.db);
    await migrated.close();
    expect(expected.migrations.length).toBeGreaterThan(20);
    expect(expected.indexes.length).toBeGreaterThan(50);

    const dataDir = path.join(work, "first-start");
    const fromTemplate = await openDatabase({ dataDir, template });
    try {
      // Copied, not created: the migrations are there before migrate() runs (the server does
      // not run it after a copy, ADR 105).
      expect(fromTemplate.fromTemplate).toBe(true);
      const before = await schemaOf(fromTemplate.db);
      expect(before).toEqual(expected);
      await fromTemplate.migrate();
      expect(await schemaOf(fromTemplate.db)).toEqual(expected);
    } finally {
      await fromTemplate.close();
    }
    // Opened again: the database is there, nothing is copied.
    const again = await openDatabase({ dataDir, template });
    expect(again.fromTemplate).toBe(false);
    await again.close();
  }, 240_000);

  it("is not copied when it was made from other migrations, nor over a database", () => {
    const template = path.join(work, "stale");
    fs.mkdirSync(path.join(template, "pglite"), { recursive: true });
    fs.writeFileSync(path.join(template, "pglite", "PG_VERSION"), "17\n");
    fs.writeFileSync(path.join(template, TEMPLATE_FINGERPRINT), "0".repeat(64));
    const pgDir = path.join(work, "stale-target", "pglite");
    expect(templateToCopy(template, MIGRATIONS_DIR, pgDir)).toBeNull();

    fs.writeFileSync(
      path.join(template, TEMPLATE_FINGERPRINT),
      migrationsFingerprint(MIGRATIONS_DIR),
    );
    fs.mkdirSync(pgDir, { recursive: true });
    fs.writeFileSync(path.join(pgDir, "PG_VERSION"), "16\n");
    expect(templateToCopy(template, MIGRATIONS_DIR, pgDir)).toBeNull();

    fs.rmSync(pgDir, { recursive: true });
    expect(templateToCopy(template, MIGRATIONS_DIR, pgDir)).toBe(path.join(template, "pglite"));
  });
});
