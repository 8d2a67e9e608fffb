import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { recordPayment } from "~/features/memberships/money.server";
import { customerMembershipView } from "~/features/memberships/views.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createUser,
} from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";
import { addDays, businessNow } from "~/lib/business-calendar";

/*
 * Three years of a monthly member: 36 charges and their hours, payments, visits reserved until
 * the hours or allowances run out (some extra visits): about 1,000 ledger entries. The Membership tab reads them all
 * (newest day first, ADR 089, with running balances) a page at a time.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

it("reads a statement of about 1,000 entries whole, newest day first, quickly", async () => {
  const member = await createUser(database.db, {
    email: "long-member@example.com",
    password: "x",
    firstName: "Long",
    lastName: "Member",
  });
  const home = await createHome(database.db, member.id);
  const today = businessNow().date;
  const m = await createMembership(database.db, member.id, {
    plan: "total",
    startDate: addDays(today, -3 * 365),
  });
  for (let i = 0; i < 36 * 16; i++) {
    await recordPayment(
      { membershipId: m.id, amountCents: 4_583, method: "card", reference: `R${i}` },
      null,
      database.db,
    );
  }
  for (let i = 0; i < 36 * 10; i++) {
    await createMemberVisit(database.db, home, {
      scheduledDate: addDays(today, -3 * 365 + 3 * i),
      startTime: "09:00",
      endTime: "10:45",
      tasks: ["Upkeep"],
      asExtra: i % 20 === 19,
    }).catch(() => undefined);
  }
  const [{ n }] = await database.db
    .execute<{ n: number }>(
      sql`select (select count(*) from membership_money_ledger) + (select count(*) from membership_minutes_ledger) as n`,
    )
    .then((r) => r.rows.map((row) => ({ n: Number(row.n) })));
  expect(n).toBeGreaterThan(900);

  const times: number[] = [];
  let view;
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    view = await customerMembershipView(member.id);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const p95 = times[Math.floor(times.length * 0.95) - 1];
  console.log(
    `statement of ${n} entries: p50 ${times[15].toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`,
  );
  // Every entry is on the statement, a page of 50 at a time, newest first across the pages.
  expect(view!.statementPage).toEqual({ page: 1, pages: Math.ceil(n / 50), total: n });
  expect(view!.statement).toHaveLength(50);
  const pages = [];
  for (let page = 1; page <= view!.statementPage.pages; page++) {
    pages.push(...(await customerMembershipView(member.id, page))!.statement);
  }
  expect(pages).toHaveLength(n);
  expect(new Set(pages.map((e) => e.key)).size).toBe(n);
  // In date order across the pages (ADR 089): the day each entry shows, newest first.
  const days = pages.map((e) => e.on);
  expect([...days].sort().reverse()).toEqual(days);
}, 300_000);
