import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUEST_STATUSES } from "~/db/request-status";
import { createTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The request statuses are declared once, in app/db/request-status.ts, and the Drizzle enum is
 * built from that list; the migrations create the real enum. This checks the migrated database
 * agrees with the list, in the same order (the order of the Status select).
 */

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

describe("request statuses", () => {
  it("are the values of the migrated request_status enum, in its order", async () => {
    const result = await database.db.execute<{ status: string }>(
      sql`select unnest(enum_range(null::request_status))::text as status`,
    );
    expect(result.rows.map((row) => row.status)).toEqual([...REQUEST_STATUSES]);
  });
});
