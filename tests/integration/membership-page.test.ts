import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cancelMembership, previewCancellation } from "~/workflows/cancel-membership.server";
import { recordPayment } from "~/features/memberships/money.server";
import { membershipPage } from "~/features/memberships/page.server";
import { addPart } from "~/features/memberships/parts.server";
import { membershipPartsList, membershipStatement } from "~/features/memberships/statement.server";
import { currentMembership, memberBankSummary } from "~/features/memberships/summary.server";
import { memberPaymentsView } from "~/features/payments/views.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createUser,
} from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";
import { addDays, businessNow } from "~/lib/business-calendar";

/** A view without its forms' idempotency keys: each read draws fresh ones (ADR 048). */
function unkeyed<T>(view: T): T {
  return JSON.parse(
    JSON.stringify(view, (name, value) =>
      name === "formKey" || name === "key" ? undefined : value,
    ),
  ) as T;
}

/*
 * A membership page reads the membership, its figures, one page of the statement and the parts
 * (ADR 066): the same figures as the bank summary, the whole statement cut into pages, and the
 * cancellation preview, which read every entry and each figure on its own.
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

async function member(startDaysAgo: number) {
  const person = await createUser(database.db, {
    email: `member-${startDaysAgo}@example.com`,
    password: "x",
    firstName: "Page",
    lastName: "Member",
  });
  const home = await createHome(database.db, person.id);
  const today = businessNow().date;
  const m = await createMembership(database.db, person.id, {
    plan: "total",
    startDate: addDays(today, -startDaysAgo),
  });
  return { person, home, m, today };
}

/** What the page showed before: each figure read on its own, the statement read whole. */
async function readApart(customerId: string, page: number, size: number) {
  const summary = (await memberBankSummary(customerId))!;
  const statement = await membershipStatement(summary.membershipId);
  const pages = Math.max(1, Math.ceil(statement.length / size));
  const shown = Math.min(page, pages);
  return {
    summary,
    statement: statement.slice((shown - 1) * size, shown * size),
    statementPage: { page: shown, pages, total: statement.length },
    parts: await membershipPartsList(summary.membershipId),
    cancel: summary.status === "active" ? await previewCancellation(summary.membershipId) : null,
  };
}

describe("a membership page read at once", () => {
  it("matches each figure read apart, on every page of a long statement and past its end", async () => {
    const { person, home, m, today } = await member(400);
    for (let i = 0; i < 30; i++) {
      await recordPayment(
        { membershipId: m.id, amountCents: 4_583, method: "card", reference: `R${i}` },
        null,
        database.db,
      );
    }
    // Past visits (some extra), today's, and future ones holding minutes or a charge.
    for (let i = 0; i < 14; i++) {
      await createMemberVisit(database.db, home, {
        scheduledDate: addDays(today, -390 + 28 * i),
        startTime: "09:00",
        endTime: "10:45",
        tasks: ["Upkeep"],
        asExtra: i % 5 === 4,
      }).catch(() => undefined);
    }
    const future = await createMemberVisit(database.db, home, {
      scheduledDate: addDays(today, 9),
      startTime: "13:00",
      endTime: "14:45",
      tasks: ["Gutters"],
    });
    await createMemberVisit(database.db, home, {
      scheduledDate: addDays(today, 12),
      startTime: "09:00",
      endTime: "10:45",
      tasks: ["Deck"],
      asExtra: true,
    });
    await addPart(
      { appointmentId: future.appointment.id, description: "Gutter guard", costCents: 2_500 },
      null,
      database.db,
      false,
    );
    for (const size of [50, 7]) {
      const first = await membershipPage(person.id, 1, size);
      const pages = first!.statementPage.pages;
      expect(pages).toBeGreaterThan(1);
      for (const page of [1, 2, pages, pages + 1, 999_999]) {
        const together = await membershipPage(person.id, page, size);
        expect(together).toEqual(await readApart(person.id, page, size));
      }
    }
    const together = await membershipPage(person.id, 1, 50);
    expect(together!.cancel!.futureVisitCount).toBe(2);
    // The dashboard reads the current membership once for this page and the payments panel.
    const current = await currentMembership(person.id);
    expect(await membershipPage(person.id, 2, 7, undefined, current)).toEqual(
      await readApart(person.id, 2, 7),
    );
    expect(unkeyed(await memberPaymentsView(person.id, current))).toEqual(
      unkeyed(await memberPaymentsView(person.id)),
    );
    expect(together!.parts).toHaveLength(1);
  });

  it("matches for a new member, a canceled one and a customer without a membership", async () => {
    const fresh = await member(3);
    expect(await membershipPage(fresh.person.id, 1, 50)).toEqual(
      await readApart(fresh.person.id, 1, 50),
    );
    const gone = await member(200);
    const staff = await createUser(database.db, {
      email: "staff@example.com",
      password: "x",
      firstName: "Office",
      lastName: "Staff",
      isEmployee: true,
    });
    await cancelMembership({ membershipId: gone.m.id }, { id: staff.id, isEmployee: true });
    const canceled = await membershipPage(gone.person.id, 1, 50);
    expect(canceled!.summary.status).toBe("canceled");
    expect(canceled!.cancel).toBeNull();
    expect(canceled).toEqual(await readApart(gone.person.id, 1, 50));
    expect(
      unkeyed(await memberPaymentsView(gone.person.id, await currentMembership(gone.person.id))),
    ).toEqual(unkeyed(await memberPaymentsView(gone.person.id)));
    const stranger = await createUser(database.db, {
      email: "nobody@example.com",
      password: "x",
      firstName: "No",
      lastName: "Plan",
    });
    expect(await membershipPage(stranger.id, 1, 50)).toBeNull();
    expect(await membershipPage(stranger.id, 1, 50, undefined, null)).toBeNull();
    expect(unkeyed(await memberPaymentsView(stranger.id, null))).toEqual(
      unkeyed(await memberPaymentsView(stranger.id)),
    );
  });
});
