import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../support/test-database";

/*
 * Several connections at once, as the server's pool uses them. On PGlite the worker serves them
 * on one session (ADR 037): these hold on both databases.
 */
describe(`connections side by side (${testDatabaseKind()})`, () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 4 });
    pool = (database.db as unknown as { $client: pg.Pool }).$client;
    await pool.query("create table side_by_side (id int primary key, note text)");
  });
  afterAll(async () => {
    await database.drop();
  });

  const count = async (client: pg.Pool | pg.PoolClient, id: number) =>
    Number(
      (await client.query({ text: "select count(*) from side_by_side where id = $1" }, [id]))
        .rows[0].count,
    );

  it("another connection never sees a transaction's rows before its commit, and sees them after", async () => {
    const writer = await pool.connect();
    try {
      await writer.query("begin");
      await writer.query({ text: "insert into side_by_side values ($1, $2)" }, [1, "written"]);
      let committed = false;
      // On PostgreSQL the read answers at once; on PGlite it waits for the transaction to end.
      const read = count(pool, 1).then((n) => ({ n, committed }));
      await new Promise((resolve) => setTimeout(resolve, 100));
      committed = true;
      await writer.query("commit");
      const seen = await read;
      expect(seen.committed ? [0, 1] : [0]).toContain(seen.n);
      expect(await count(pool, 1)).toBe(1);
    } finally {
      writer.release();
    }
  });

  it("a rolled-back transaction leaves nothing, and the others go on", async () => {
    const writer = await pool.connect();
    try {
      await writer.query("begin");
      await writer.query({ text: "insert into side_by_side values ($1, $2)" }, [2, "undone"]);
      const read = count(pool, 2);
      await writer.query("rollback");
      expect(await read).toBe(0);
    } finally {
      writer.release();
    }
  });

  it("a connection gone inside a transaction has it rolled back, and the others are not kept waiting", async () => {
    const writer = await pool.connect();
    await writer.query("begin");
    await writer.query({ text: "insert into side_by_side values ($1, $2)" }, [3, "abandoned"]);
    const read = count(pool, 3);
    writer.release(true); // the connection closes with its transaction open
    expect(await read).toBe(0);
    expect(await count(pool, 3)).toBe(0);
  });

  it("a COMMIT sent just before the connection closes still commits", async () => {
    const writer = await pool.connect();
    await writer.query("begin");
    await writer.query({ text: "insert into side_by_side values ($1, $2)" }, [4, "kept"]);
    const commit = writer.query("commit").catch(() => undefined); // its answer may not arrive
    writer.release(true); // Terminate follows the COMMIT on the same connection
    await commit;
    // PostgreSQL's backend may finish the COMMIT a moment after the connection is gone.
    let seen = 0;
    for (let tries = 0; tries < 40 && seen === 0; tries++) {
      seen = await count(pool, 4);
      if (seen === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(seen).toBe(1);
  });

  it("queries from many connections at once each get their own answer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        pool.query({ text: "select $1::int * 3 as n, pg_sleep(0.001)" }, [i]),
      ),
    );
    expect(answers.map((a) => a.rows[0].n)).toEqual(Array.from({ length: 40 }, (_, i) => i * 3));
  });
});
