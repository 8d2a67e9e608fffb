import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseMigratedBefore, rowsOf } from "../support/migrated-before";
import { testDatabaseKind, type TestDatabase } from "../support/test-database";

/*
 * Migration 0022 (issue 40, item 8; ADR 085): the profile's 'Phone' and the notifications'
 * 'Mobile number' become one stored number. A phone without a mobile moves to the mobile (a US
 * number as +1 and ten digits, anything else as typed); a mobile already there is kept.
 */

let database: TestDatabase;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ database, cleanup } = await databaseMigratedBefore((tag) => tag === "0022_one_mobile"));
});
afterAll(async () => {
  await cleanup?.();
});

const rows = <T>(query: ReturnType<typeof sql>) => rowsOf<T>(database, query);

describe(`one mobile number per person (${testDatabaseKind()})`, () => {
  it("moves each profile's phone to its one number and drops the second column", async () => {
    await database.db.execute(sql`
      insert into "user" (id, name, email) values
        ('a', 'A', 'a@example.com'), ('b', 'B', 'b@example.com'), ('c', 'C', 'c@example.com'),
        ('d', 'D', 'd@example.com'), ('e', 'E', 'e@example.com'), ('f', 'F', 'f@example.com')`);
    await database.db.execute(sql`
      insert into profiles (user_id, phone, mobile_phone) values
        ('a', '(404) 555-0181', null),
        ('b', '1-770-555-0127', null),
        ('c', '(404) 555-0100', '+16785550142'),
        ('d', 'ask at the desk', null),
        ('e', '   ', null),
        ('f', null, '+14045550150')`);
    await database.migrate();
    const after = await rows<{ user_id: string; mobile_phone: string | null }>(
      sql`select user_id, mobile_phone from profiles order by user_id`,
    );
    expect(after).toEqual([
      { user_id: "a", mobile_phone: "+14045550181" },
      { user_id: "b", mobile_phone: "+17705550127" },
      // Both given: the mobile, the number the person confirmed for texts, is kept.
      { user_id: "c", mobile_phone: "+16785550142" },
      { user_id: "d", mobile_phone: "ask at the desk" },
      { user_id: "e", mobile_phone: null },
      { user_id: "f", mobile_phone: "+14045550150" },
    ]);
    const columns = await rows<{ column_name: string }>(
      sql`select column_name from information_schema.columns where table_name = 'profiles' and column_name = 'phone'`,
    );
    expect(columns).toEqual([]);
  });
});
