import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { staffMembershipView } from "~/features/memberships/views.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";
import { addDays, businessNow } from "~/lib/business-calendar";

/*
 * Issue 40, item 15: a customer's staff membership page is paginated like the member's pages
 * (2,000 canceled visits made it 2.0 MB): its visits 25 a page, newest first, its statement 50
 * a page; the 'Add Part' form's visits are the ones not released.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

it(`pages a long history of visits on staff's membership page (${testDatabaseKind()})`, async () => {
  const member = await createUser(database.db, {
    email: "many-visits@example.com",
    password: "x",
    firstName: "Many",
    lastName: "Visits",
  });
  const home = await createHome(database.db, member.id);
  const today = businessNow().date;
  await createMembership(database.db, member.id, {
    plan: "total",
    startDate: addDays(today, -400),
  });
  const created: string[] = [];
  for (let i = 0; i < 60; i++) {
    const { appointment } = await createMemberVisit(database.db, home, {
      scheduledDate: addDays(today, -300 + 5 * i),
      startTime: "09:00",
      endTime: "10:45",
      tasks: ["Upkeep"],
    });
    created.push(appointment.id);
  }
  // The first 40 were canceled (their hours released).
  await database.db.execute(
    sql`update membership_visits set status = 'released' where appointment_id in (${sql.join(
      created.slice(0, 40).map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );

  const first = (await staffMembershipView(member.id))!.membership!;
  expect(first.visitsPage).toEqual({ page: 1, pages: 3, total: 60 });
  expect(first.visits).toHaveLength(25);
  expect(first.statement.length).toBeLessThanOrEqual(50);
  // Every visit once across the pages, newest first.
  const all = [];
  for (let page = 1; page <= 3; page++) {
    all.push(...(await staffMembershipView(member.id, 1, page))!.membership!.visits);
  }
  expect(all.map((v) => v.appointmentId)).toEqual([...created].reverse());
  // A page past the last is the last.
  expect((await staffMembershipView(member.id, 1, 99))!.membership!.visitsPage.page).toBe(3);
  // 'Add Part' offers the 20 visits not released, whichever page is shown.
  const partVisits = (await staffMembershipView(member.id, 1, 3))!.membership!.partVisits;
  expect(partVisits.map((v) => v.appointmentId)).toEqual(created.slice(40).reverse());
}, 120_000);
