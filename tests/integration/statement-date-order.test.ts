import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { appointments } from "~/db/schema";
import { recordPayment } from "~/features/memberships/money.server";
import { membershipPage } from "~/features/memberships/page.server";
import { statementCsv } from "~/features/memberships/statement-csv.server";
import {
  membershipStatement,
  membershipStatementPage,
  type StatementEntry,
} from "~/features/memberships/statement.server";
import { moveVisitMinutes } from "~/features/memberships/visit-minutes.server";
import { plainDate, addDays, businessNow } from "~/lib/business-calendar";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createUser,
} from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The statement reads in date order, each entry on the day it shows (ADR 089): a visit booked
 * later for an earlier day sits below it, a moved visit's entries show its new day, and every
 * running balance still follows from the row below; the CSV says the same in words.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox cascade`);
});

function brokenRows(statement: StatementEntry[]) {
  const broken: string[] = [];
  const below = { money: 0, hours: 0 };
  for (const entry of [...statement].reverse()) {
    if (entry.ledger === "money") {
      if (entry.balanceCents !== below.money + entry.amountCents!) broken.push(entry.key);
      below.money = entry.balanceCents!;
    } else {
      if (entry.minutesBalance !== below.hours + entry.minutes!) broken.push(entry.key);
      below.hours = entry.minutesBalance!;
    }
  }
  return broken;
}

describe("the statement in date order", () => {
  it("orders by the day each entry shows, dates a moved visit by its new day, balances follow", async () => {
    const today = businessNow().date;
    const person = await createUser(database.db, {
      email: "dates@example.com",
      password: "x",
      firstName: "Dee",
      lastName: "Order",
    });
    const home = await createHome(database.db, person.id);
    const m = await createMembership(database.db, person.id, {
      plan: "total",
      startDate: addDays(today, -20),
    });
    // Booked first for a later day, then one for an earlier day, then a payment today.
    const later = await createMemberVisit(database.db, home, {
      scheduledDate: addDays(today, 12),
      startTime: "09:00",
      endTime: "10:45",
      tasks: ["Deck"],
    });
    await createMemberVisit(database.db, home, {
      scheduledDate: addDays(today, 5),
      startTime: "13:00",
      endTime: "14:45",
      tasks: ["Gutters"],
    });
    await recordPayment(
      { membershipId: m.id, amountCents: 5_000, method: "check", reference: "C1" },
      null,
      database.db,
    );
    // The later visit moves to an earlier day, as a move does: re-dated, then decided again.
    const newDay = addDays(today, 3);
    await database.db.transaction(async (tx) => {
      await tx
        .update(appointments)
        .set({ scheduledDate: newDay })
        .where(eq(appointments.id, later.appointment.id));
      await moveVisitMinutes(tx, later.appointment.id, { today });
    });

    const statement = await membershipStatement(m.id);
    const days = statement.map((e) => e.on);
    expect(days).toEqual([...days].sort().reverse());
    // The ledgers' order is not the date order here, so this is the order's doing.
    expect(days[0]).toBe(addDays(today, 5));
    const moved = statement.filter((e) => e.kind === "reserve" || e.kind === "release");
    const movedVisit = moved.filter((e) => e.description.includes(plainDate(newDay)));
    expect(movedVisit.map((e) => e.kind).sort()).toEqual(["release", "reserve"]);
    for (const e of movedVisit) expect(e.on).toBe(newDay);
    expect(statement.find((e) => e.kind === "release")?.description).toBe(
      `Visit moved to ${plainDate(newDay)}: 1 h 45 min back`,
    );
    expect(brokenRows(statement)).toEqual([]);

    // The page reads the same, page by page.
    const size = 3;
    const pages: StatementEntry[] = [];
    for (let page = 1; page <= Math.ceil(statement.length / size); page++) {
      const read = await membershipStatementPage(m.id, page, size);
      expect(read.total).toBe(statement.length);
      pages.push(...read.entries);
    }
    expect(pages).toEqual(statement);

    // The membership's page reads the same page within its figures' one statement (ADR 103),
    // a page past the end as the last; a newer membership without a visit or a payment too.
    const sameAsApart = async (customerId: string, membershipId: string, last: number) => {
      for (let page = 1; page <= last; page++) {
        const one = await membershipPage(customerId, page, size);
        const apart = await membershipStatementPage(membershipId, page, size);
        expect(apart.entries.length).toBeGreaterThan(0);
        expect(one?.statement).toEqual(apart.entries);
        expect(one?.statementPage).toEqual({
          page: apart.page,
          pages: apart.pages,
          total: apart.total,
        });
      }
    };
    await sameAsApart(person.id, m.id, Math.ceil(statement.length / size) + 1);
    const other = await createUser(database.db, {
      email: "fresh@example.com",
      password: "x",
      firstName: "Fay",
      lastName: "Fresh",
    });
    await createHome(database.db, other.id);
    const fresh = await createMembership(database.db, other.id, {
      plan: "essential",
      startDate: today,
    });
    await sameAsApart(other.id, fresh.id, 1);

    // The CSV: days as people read them, kinds in words, never the ledgers' codes.
    const csv = statementCsv(statement);
    const lines = csv.trim().split("\r\n").slice(1);
    expect(lines[0]).toMatch(
      new RegExp(`^"${plainDate(addDays(today, 5))}","Hours","Hours reserved for a visit",`),
    );
    expect(csv).toContain('"Payment"');
    expect(csv).toContain('"Hours released"');
    expect(csv).not.toMatch(
      /"(reserve|release|accrual|extra_visit|membership_charge|money|hours)"/,
    );
    expect(csv).not.toMatch(/"\d{4}-\d{2}-\d{2}"/);
  });
});
