import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { leadFunnel } from "~/features/leads/funnel.server";
import { handymanVisits } from "~/features/visits/today.server";
import {
  addDays,
  businessToday,
  closedDays,
  isBusinessDay,
  zonedInstant,
} from "~/lib/business-calendar";
import { DEMO_LOGINS, seedDemo } from "../../server/seed/demo";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Issue 40, item 14: the demo shows a working day. Made on a business day, Dana has a visit
 * that day (booked, not started) on 'Today', and the demo has leads in every state, with their
 * entries, an intro call and a walk-thru, so the Leads tab and the funnel are at work.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, leads cascade`);
});

/** The next three business days from today, whatever day the suite runs on. */
function businessDays() {
  const closed = closedDays();
  const days: string[] = [];
  for (let day = businessToday(); days.length < 3; day = addDays(day, 1))
    if (isBusinessDay(day, closed)) days.push(day);
  return days;
}

describe(`the demo's working day (${testDatabaseKind()})`, () => {
  it("on a business day Dana has a visit that day, booked and not started", async () => {
    for (const day of businessDays()) {
      await database.db.execute(sql`truncate "user", outbox, leads cascade`);
      await seedDemo(database.db, day);
      const [dana] = await database.db
        .execute<{ id: string }>(sql`select id from "user" where email = ${DEMO_LOGINS[3].email}`)
        .then((r) => r.rows);
      const visits = await handymanVisits(dana!.id, "today", day);
      expect(visits.length, day).toBeGreaterThan(0);
      expect(visits.every((v) => v.date === day)).toBe(true);
      expect(visits.some((v) => v.status === "booked" && !v.startedAt)).toBe(true);
    }
  });

  it("has leads in every state, and the funnel counts them this month", async () => {
    const day = businessDays()[0]!;
    await seedDemo(database.db, day);
    const statuses = await database.db
      .execute<{ status: string; n: number }>(
        sql`select status::text, count(*)::int as n from leads group by status order by status`,
      )
      .then((r) => r.rows.map((row) => row.status));
    expect(statuses).toEqual(["contacted", "lost", "member", "new", "walk_thru_booked"]);
    // Each lead has its entry (the form it sent); Maria's is linked to her account.
    const [{ entries, linked, walkThrus, calls }] = await database.db
      .execute<{ entries: number; linked: number; walkThrus: number; calls: number }>(
        sql`select (select count(*)::int from lead_entries where lead_id is not null) as entries,
                   (select count(*)::int from leads where customer_id is not null) as linked,
                   (select count(*)::int from appointments where kind = 'walk_thru' and lead_id is not null) as "walkThrus",
                   (select count(*)::int from intro_calls) as calls`,
      )
      .then((r) => r.rows);
    expect({ entries, linked, walkThrus, calls }).toEqual({
      entries: 5,
      linked: 1,
      walkThrus: 1,
      calls: 1,
    });
    const funnel = await leadFunnel(zonedInstant(day, 12 * 60));
    const total = (key: "leads" | "introCalls" | "walkThrus" | "offers" | "newMembers") =>
      funnel.reduce((sum, m) => sum + m[key], 0);
    expect(total("leads")).toBe(5);
    expect(total("introCalls")).toBe(1);
    expect(total("walkThrus")).toBe(1);
    expect(total("offers")).toBe(1);
    expect(total("newMembers")).toBe(1);
  });
});
