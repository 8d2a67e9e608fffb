import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseMigratedBefore, rowsOf } from "../support/migrated-before";
import { testDatabaseKind, type TestDatabase } from "../support/test-database";

/*
 * The visit-life migration (0008) over the data of before (ADR 046): 'approved' visits become booked, or
 * completed when their member's visit was completed; canceled ones stay canceled; a request
 * booked on two open visits (issue 26) stays held by the earliest only.
 */

let database: TestDatabase;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ database, cleanup } = await databaseMigratedBefore((tag) => tag.endsWith("_visit_life")));
});
afterAll(async () => {
  await cleanup?.();
});

const rows = <T>(query: ReturnType<typeof sql>) => rowsOf<T>(database, query);

describe(`the visit-life migration over existing visits (${testDatabaseKind()})`, () => {
  it("gives every visit its state and each request to one open visit", async () => {
    await database.db.execute(sql`
      insert into "user" (id, name, email) values ('m1', 'Maria', 'm1@example.com');
      insert into homes (id, customer_id, address, city, state, zip_code)
        values ('00000000-0000-4000-8000-000000000001', 'm1', '1 Elm St', 'Decatur', 'GA', '30030');
      insert into service_requests (id, home_id, customer_id, title, status)
        values ('00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-000000000001', 'm1', 'Fix the gate', 'scheduled');
      insert into memberships (id, customer_id, home_id, plan, plan_name, monthly_price_cents, minutes_per_year, visits_per_year, billing, start_date)
        values ('00000000-0000-4000-8000-0000000000b1', 'm1', '00000000-0000-4000-8000-000000000001', 'complete', 'Complete Home Care', 29500, 2520, 24, 'monthly', '2026-10-01');
      insert into appointments (id, customer_id, home_id, scheduled_date, start_time, end_time, status) values
        ('00000000-0000-4000-8000-0000000000c1', 'm1', '00000000-0000-4000-8000-000000000001', '2026-10-05', '09:00', '10:45', 'approved'),
        ('00000000-0000-4000-8000-0000000000c2', 'm1', '00000000-0000-4000-8000-000000000001', '2026-12-01', '09:00', '10:45', 'approved'),
        ('00000000-0000-4000-8000-0000000000c3', 'm1', '00000000-0000-4000-8000-000000000001', '2026-12-02', '09:00', '10:45', 'approved'),
        ('00000000-0000-4000-8000-0000000000c4', 'm1', '00000000-0000-4000-8000-000000000001', '2026-12-03', '09:00', '10:45', 'canceled');
      insert into membership_visits (appointment_id, membership_id, block_minutes, status, minutes_worked)
        values ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000b1', 105, 'completed', 90);
      insert into appointment_tasks (appointment_id, task_description, service_request_id) values
        ('00000000-0000-4000-8000-0000000000c2', 'Fix the gate', '00000000-0000-4000-8000-0000000000a1'),
        ('00000000-0000-4000-8000-0000000000c3', 'Fix the gate', '00000000-0000-4000-8000-0000000000a1'),
        ('00000000-0000-4000-8000-0000000000c4', 'Fix the gate', '00000000-0000-4000-8000-0000000000a1');
    `);
    await database.migrate();
    const visits = await rows<{ id: string; status: string }>(
      sql`select id, status::text from appointments order by scheduled_date`,
    );
    expect(visits.map((v) => v.status)).toEqual(["completed", "booked", "booked", "canceled"]);
    const tasks = await rows<{ appointment_id: string; visit_open: boolean }>(
      sql`select appointment_id, visit_open from appointment_tasks order by appointment_id`,
    );
    expect(tasks.map((t) => [t.appointment_id.slice(-2), t.visit_open])).toEqual([
      ["c2", true],
      ["c3", false],
      ["c4", false],
    ]);
    // From now on the trigger holds: the completed visit is final.
    await expect(
      database.db.execute(
        sql`update appointments set status = 'canceled' where id = '00000000-0000-4000-8000-0000000000c1'`,
      ),
    ).rejects.toThrow();
  });
});
