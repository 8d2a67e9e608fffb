import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseMigratedBefore, rowsOf } from "../support/migrated-before";
import { testDatabaseKind, type TestDatabase } from "../support/test-database";

/*
 * The lead names' migration (ADR 096): the person is a lead (`prospects` becomes `leads`) and
 * each form post an entry (`leads` becomes `lead_entries`), with every row and link kept.
 */

let database: TestDatabase;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ database, cleanup } = await databaseMigratedBefore((tag) => tag.endsWith("_lead_names")));
});
afterAll(async () => {
  await cleanup?.();
});

const rows = <T>(query: ReturnType<typeof sql>) => rowsOf<T>(database, query);

describe(`leads and their entries, renamed (${testDatabaseKind()})`, () => {
  it("keeps every person, entry and intro call, linked as before", async () => {
    await database.db.execute(sql`
      insert into prospects (id, email, name, source, status, lost_reason) values
        ('00000000-0000-4000-8000-000000000001', 'ann@example.com', 'Ann Lee', 'home', 'new', null),
        ('00000000-0000-4000-8000-000000000002', 'bo@example.com', 'Bo Diaz', 'city', 'lost', 'Moved away')`);
    await database.db.execute(sql`
      insert into leads (name, email, form_type, source, prospect_id) values
        ('Ann Lee', 'ann@example.com', 'contact', 'home', '00000000-0000-4000-8000-000000000001'),
        ('Ann Lee', 'ann@example.com', 'contact', 'home', '00000000-0000-4000-8000-000000000001'),
        ('Bo Diaz', 'bo@example.com', 'contact', 'city', '00000000-0000-4000-8000-000000000002')`);
    await database.db.execute(sql`
      insert into intro_calls (name, email, starts_at, prospect_id) values
        ('Bo Diaz', 'bo@example.com', now(), '00000000-0000-4000-8000-000000000002')`);

    await database.migrate();

    expect(
      await rows(sql`select email, status::text, lost_reason from leads order by email`),
    ).toEqual([
      { email: "ann@example.com", status: "new", lost_reason: null },
      { email: "bo@example.com", status: "lost", lost_reason: "Moved away" },
    ]);
    expect(
      await rows(sql`
        select l.email, count(e.id)::int as entries,
               (select count(*)::int from intro_calls c where c.lead_id = l.id) as calls
        from leads l join lead_entries e on e.lead_id = l.id group by l.id, l.email order by l.email`),
    ).toEqual([
      { email: "ann@example.com", entries: 2, calls: 0 },
      { email: "bo@example.com", entries: 1, calls: 1 },
    ]);
    // The constraints came along: one lead per e-mail; a lost lead has a reason.
    await expect(
      database.db.execute(
        sql`insert into leads (email, name, source) values ('ann@example.com', 'Ann', 'home')`,
      ),
    ).rejects.toThrow();
    await expect(
      database.db.execute(sql`update leads set lost_reason = null where email = 'bo@example.com'`),
    ).rejects.toThrow();
    expect(
      await rows(
        sql`select count(*)::int as n from information_schema.tables where table_name = 'prospects'`,
      ),
    ).toEqual([{ n: 0 }]);
  });
});
