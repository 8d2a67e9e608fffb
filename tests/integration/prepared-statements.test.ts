import { sql } from "drizzle-orm";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareStatements } from "~/db/statements.server";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../support/test-database";

function rows<T>(result: unknown) {
  return (result as { rows: T[] }).rows;
}

describe(`queries with parameters are prepared once per connection (${testDatabaseKind()})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 2 });
  });
  afterAll(async () => {
    await database.drop();
  });

  // A transaction's queries share one connection: what it prepared is what the next one sees.
  const prepared = async (tx: Pick<TestDatabase["db"], "execute">) =>
    rows<{ name: string; statement: string }>(
      await tx.execute(sql`select name, statement from pg_prepared_statements`),
    );

  it("keeps a query's statement prepared under a name made from its text, and answers the same", async () => {
    await database.db.transaction(async (tx) => {
      const ask = (n: number) => tx.execute(sql`select ${n}::int + 41 as answer`);
      expect(rows(await ask(1))).toEqual([{ answer: 42 }]);
      expect(rows(await ask(2))).toEqual([{ answer: 43 }]);
      const statements = (await prepared(tx)).filter((s) => s.statement.includes("+ 41 as answer"));
      expect(statements).toHaveLength(1);
      expect(statements[0].name).toMatch(/^c\d+_[\w-]{27}$/);
    });
  });

  it("sends a query without parameters unprepared, so a text of several commands still runs", async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw("select 1 as one; select 2 as two"));
      const statements = await prepared(tx);
      expect(statements.some((s) => s.statement.includes("select 1 as one"))).toBe(false);
    });
  });

  it("a new connection prepares its statements again (the embedded database's one session is reset)", async () => {
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    const text = "select $1::int * 2 as twice";
    const first = await pool.connect();
    expect((await first.query({ text }, [21])).rows).toEqual([{ twice: 42 }]);
    first.release(true); // closed, not returned to the pool
    const second = await pool.connect();
    try {
      expect((await second.query({ text }, [4])).rows).toEqual([{ twice: 8 }]);
    } finally {
      second.release();
    }
  });

  it("keeps a failed statement out and runs it again once fixed elsewhere (a table made later)", async () => {
    const read = () => database.db.execute(sql`select note from later_table where id = ${1}`);
    await expect(read()).rejects.toThrow(/later_table/);
    await database.db.execute(sql.raw("create table later_table (id int, note text)"));
    await database.db.execute(sql`insert into later_table values (${1}, ${"kept"})`);
    expect(rows(await read())).toEqual([{ note: "kept" }]);
  });
});

describe("the limit of prepared statements per connection", () => {
  it("names each new text up to the limit, the same text always alike, and leaves the rest unnamed", () => {
    const sent: unknown[][] = [];
    const client = { query: (...args: unknown[]) => sent.push(args) } as unknown as pg.Client;
    prepareStatements(client, 2);
    const ask = (text: string, values?: unknown[]) => client.query({ text }, values);
    ask("select $1::int", [1]);
    ask("select $1::text", ["a"]);
    ask("select $1::int", [2]);
    ask("select $1::date", ["2026-01-01"]);
    ask("select now()", []);
    ask("select now()");
    client.query({ text: "select $1::int + 1", name: "plus_one" }, [1]);
    const names = sent.map(([config]) => (config as { name?: string }).name);
    expect(names[0]).toBeDefined();
    expect(names[1]).toBeDefined();
    expect(names[1]).not.toBe(names[0]);
    expect(names[2]).toBe(names[0]);
    expect(names.slice(3, 6)).toEqual([undefined, undefined, undefined]);
    // A name the code gave is kept, behind the connection's prefix (connections share a session).
    expect(names[6]).toMatch(/^c\d+_plus_one$/);
    expect(names[6]!.split("_")[0]).toBe(names[0]!.split("_")[0]);
    expect(sent[2][1]).toEqual([2]);
  });
});
