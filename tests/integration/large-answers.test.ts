import crypto from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKind, type TestDatabase } from "../support/test-database";

/*
 * Answers of any size arrive whole (issue 25). On PGlite the answer crosses the worker
 * (ADR 035/037) in the output chunks PGlite hands it; answers over 128 KB once reached
 * node-postgres corrupted and crashed the server. Each answer here is built from md5 digests,
 * so no stretch of it repeats: a chunk overwritten by a later one, or lost, cannot pass
 * unnoticed. The expected bytes are computed here, independently of the database, and the
 * database's own md5 of what it sent is compared too.
 */

const md5 = (text: string) => crypto.createHash("md5").update(text).digest("hex");

/** The text of rows 1..n of the "many rows" query: the row's digest and a run of letters. */
const rowText = (i: number) => md5(String(i)) + String.fromCharCode(65 + (i % 26)).repeat(i % 200);

const MB = 1024 * 1024;

/**
 * A query's answer, or a failure after a minute: a corrupted answer leaves node-postgres
 * waiting for a message that never ends, and the test should say so rather than hang.
 */
function answered<T>(query: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    query,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no whole answer within 60 s")), 60_000);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe(`answers of any size arrive whole (${testDatabaseKind()})`, () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 2 });
    pool = (database.db as unknown as { $client: pg.Pool }).$client;
  });
  afterAll(async () => {
    await database?.drop();
  });

  for (const megabytes of [1, 10, 50]) {
    it(`one value of ${megabytes} MB, as text and as bytes`, { timeout: 180_000 }, async () => {
      const digests = Math.ceil((megabytes * MB) / 32);
      const expected = Array.from({ length: digests }, (_, k) => md5(String(k + 1))).join("");
      const { rows } = await answered(
        pool.query<{ text: string; digest: string }>({
          text: `select string_agg(md5(i::text), '' order by i) as text,
                      md5(string_agg(md5(i::text), '' order by i)) as digest
                 from generate_series(1, $1::int) as i`,
          values: [digests],
        }),
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].text.length).toBe(expected.length);
      expect(rows[0].text === expected).toBe(true);
      expect(md5(rows[0].text)).toBe(rows[0].digest);

      const bytes = await answered(
        pool.query<{ bytes: Buffer }>({
          text: `select decode(string_agg(md5(i::text), '' order by i), 'hex') as bytes
                 from generate_series(1, $1::int) as i`,
          values: [digests * 2],
        }),
      );
      const expectedBytes = Buffer.from(
        Array.from({ length: digests * 2 }, (_, k) => md5(String(k + 1))).join(""),
        "hex",
      );
      expect(bytes.rows[0].bytes.length).toBe(expectedBytes.length);
      expect(bytes.rows[0].bytes.equals(expectedBytes)).toBe(true);
    });

    it(`${megabytes} MB in many rows`, { timeout: 180_000 }, async () => {
      // A row averages about 32 + 100 bytes of text and its number.
      const count = Math.ceil((megabytes * MB) / 140);
      const { rows } = await answered(
        pool.query<{ i: number; text: string }>({
          text: `select i, md5(i::text) || repeat(chr(65 + i % 26), i % 200) as text
                 from generate_series(1, $1::int) as i order by i`,
          values: [count],
        }),
      );
      expect(rows).toHaveLength(count);
      let wrong = 0;
      let size = 0;
      for (let k = 0; k < count; k++) {
        const row = rows[k];
        size += row.text.length;
        if (row.i !== k + 1 || row.text !== rowText(k + 1)) wrong++;
      }
      expect(wrong).toBe(0);
      expect(size).toBeGreaterThan(megabytes * MB * 0.9);
      // The database's own digest of the same rows, carried in a small answer.
      const { rows: check } = await answered(
        pool.query<{ digest: string }>({
          text: `select md5(string_agg(md5(i::text) || repeat(chr(65 + i % 26), i % 200), ',' order by i)) as digest
                 from generate_series(1, $1::int) as i`,
          values: [count],
        }),
      );
      expect(md5(rows.map((row) => row.text).join(","))).toBe(check[0].digest);
    });
  }

  it("a small query after the large ones answers, on every connection", async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, k) =>
        pool.query<{ n: number }>({ text: "select $1::int + 1 as n", values: [k] }),
      ),
    );
    expect(answers.map((a) => a.rows[0].n)).toEqual([1, 2, 3, 4]);
  });
});
