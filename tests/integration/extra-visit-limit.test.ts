import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { membershipMoneyLedger, membershipVisits } from "~/db/schema";
import {
  releaseVisitMinutes,
  reserveVisitMinutes,
} from "~/features/memberships/visit-minutes.server";
import { visitSpend } from "~/features/memberships/summary.server";
import { VisitSpendRefusedError } from "~/features/memberships/errors.server";
import { visitSpendSummary } from "~/features/visits/member-visits.server";
import { business } from "~/lib/business.server";
import {
  createAppointment,
  createHome,
  createMembership,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";
import { addDays, calendarMonth, businessNow } from "~/lib/business-calendar";

/*
 * A member books at most 4 extra visits ($150 each, beyond the allowances) a calendar month
 * online; the refusal says to call, with the business's phone, and staff still book more
 * (issue 25 item 8, ADR 042). A member booked 28 in one burst before.
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

const today = businessNow().date;
/** The calendar month after today's: every visit of these tests falls in it. */
const month = calendarMonth(addDays(calendarMonth(today).last, 1));
const day = (n: number) => addDays(month.first, n);

async function people() {
  const staff = await createUser(database.db, {
    email: "staff@example.com",
    password: "x",
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
  });
  const member = await createUser(database.db, {
    email: "member@example.com",
    password: "x",
    firstName: "Maria",
    lastName: "Alvarez",
  });
  const home = await createHome(database.db, member.id);
  // Complete, annual: 42 h in the bank, 2 visits a month before a visit is an extra one.
  await createMembership(database.db, member.id, {
    plan: "complete",
    billing: "annual",
    startDate: today,
  });
  return { staff, member, home };
}

/** Books a 1 h 45 min visit on `date` as `actorId` would (the member, or staff). */
function book(home: { id: string; customerId: string }, date: string, actorId: string) {
  return database.db.transaction(async (tx) => {
    const appointment = await createAppointment(tx, home, {
      scheduledDate: date,
      startTime: "09:00",
      endTime: "10:45",
      createdBy: actorId,
      tasks: ["Fix the gate"],
    });
    const reserved = await reserveVisitMinutes(tx, appointment.id, { actorId, today });
    return { appointmentId: appointment.id, kind: reserved!.decision.kind };
  });
}

/** Extra visits held (the tests have one member). */
async function extras() {
  const rows = await database.db
    .select({ id: membershipVisits.appointmentId })
    .from(membershipVisits)
    .where(and(eq(membershipVisits.isExtra, true), eq(membershipVisits.status, "reserved")));
  return rows.length;
}

const refusal = () =>
  `You have booked ${business().selfBookedExtraVisitsPerMonth} extra visits for ${new Date(
    `${month.first}T12:00:00Z`,
  ).toLocaleString("en-US", {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  })}, the most that can be booked online. Please call us at ${business().phone} to book another.`;

describe("extra visits a member books online", () => {
  it("are limited to 4 a month; the 5th is refused with the number to call; staff book more", async () => {
    expect(business().selfBookedExtraVisitsPerMonth).toBe(4);
    const { staff, member, home } = await people();
    // The month's allowance of 2, from the bank.
    expect((await book(home, day(0), member.id)).kind).toBe("bank");
    expect((await book(home, day(1), member.id)).kind).toBe("bank");
    for (let n = 2; n < 6; n++) expect((await book(home, day(n), member.id)).kind).toBe("extra");

    // The preview before 'Confirm Visit' already says so, and offers no confirmation.
    expect(await visitSpendSummary(member.id, { date: day(6), block: 105 })).toEqual({
      label: refusal(),
      refused: true,
    });
    const fifth = book(home, day(6), member.id);
    await expect(fifth).rejects.toThrow(VisitSpendRefusedError);
    await expect(fifth).rejects.toThrow(refusal());
    expect(refusal()).toContain(business().phone);

    // Staff see an ordinary extra visit, and book it.
    const preview = await visitSpend(member.id, { date: day(6), block: 105 });
    expect(preview?.decision.kind).toBe("extra");
    expect((await book(home, day(6), staff.id)).kind).toBe("extra");
    expect((await book(home, day(7), staff.id)).kind).toBe("extra");
    expect(await extras()).toBe(6);
    const charged = await database.db.$count(
      membershipMoneyLedger,
      eq(membershipMoneyLedger.kind, "extra_visit"),
    );
    expect(charged).toBe(6);
  });

  it("frees a place when one is canceled, and counts each month on its own", async () => {
    const { member, home } = await people();
    await book(home, day(0), member.id);
    await book(home, day(1), member.id);
    const booked: { appointmentId: string }[] = [];
    for (let n = 2; n < 6; n++) booked.push(await book(home, day(n), member.id));
    await expect(book(home, day(6), member.id)).rejects.toThrow(refusal());

    await database.db.transaction((tx) => releaseVisitMinutes(tx, booked[0].appointmentId));
    expect((await book(home, day(6), member.id)).kind).toBe("extra");
    await expect(book(home, day(7), member.id)).rejects.toThrow(VisitSpendRefusedError);

    // The month after has its own allowance and its own limit.
    const next = calendarMonth(addDays(month.last, 1)).first;
    expect((await book(home, next, member.id)).kind).toBe("bank");
  });
});

describe.runIf(testDatabaseKind() === "postgres")("a burst (PostgreSQL)", () => {
  it("28 parallel self-bookings beyond the allowance: exactly 4 extra visits", async () => {
    const { member, home } = await people();
    await book(home, day(0), member.id);
    await book(home, day(1), member.id);
    const results = await Promise.allSettled(
      Array.from({ length: 28 }, (_, n) => book(home, day(2 + (n % 25)), member.id)),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter(
      (r) => r.status === "rejected" && r.reason instanceof VisitSpendRefusedError,
    );
    expect(ok).toHaveLength(4);
    expect(refused).toHaveLength(24);
    expect(await extras()).toBe(4);
  });
});
