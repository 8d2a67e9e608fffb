import { asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memberships, outbox, paymentSchedule } from "~/db/schema";
import {
  checkPastDue,
  pastDueMemberships,
  PAYMENT_WAIT_BY_HAND_MESSAGE,
  recordPayment,
} from "~/features/memberships/index.server";
import {
  memberPaymentsView,
  planSchedule,
  runPastDueCheck,
} from "~/features/payments/index.server";
import { overdueOf } from "~/features/memberships/past-due.server";
import { resetEnvForTests } from "~/lib/env.server";
import type { OutboxPayloads } from "~/lib/outbox.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * 'Past due' without a card processor (issue 39 item 7): a charge unpaid PAST_DUE_AFTER_DAYS
 * (10) after its period began makes a membership collected by hand 'Past due', by the daily
 * check of the durable schedule; the member is reminded once with the amount and how to pay,
 * the office is alerted and lists it with the balance's age; booking waits after
 * PAST_DUE_GRACE_DAYS (14); recording the payment brings it back. The clock is moved by
 * passing the instant each step runs at.
 */

let database: TestDatabase;
beforeAll(async () => {
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  delete process.env.PAST_DUE_AFTER_DAYS;
  delete process.env.PAST_DUE_GRACE_DAYS;
  resetEnvForTests();
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, payment_schedule cascade`);
});
afterEach(() => {
  delete process.env.PAST_DUE_AFTER_DAYS;
  resetEnvForTests();
});

/** 10:00 in Atlanta on a business day of 2026. */
const at = (date: string) => new Date(`${date}T15:00:00Z`);

let n = 0;
async function world() {
  n++;
  const office = await createUser(database.db, {
    email: `office${n}@example.com`,
    password: "x",
    firstName: "Sam",
    lastName: "Office",
    isEmployee: true,
  });
  const member = await createUser(database.db, {
    email: `maria${n}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Alvarez",
  });
  const home = await createHome(database.db, member.id);
  // Complete, monthly, $295: October's charge posted on October 1 and paid.
  const membership = await createMembership(database.db, member.id, {
    plan: "complete",
    billing: "monthly",
    startDate: "2026-10-01",
    staffId: office.id,
    today: "2026-10-01",
  });
  await recordPayment(
    { membershipId: membership.id, amountCents: 29_500, method: "check", reference: "101" },
    office.id,
  );
  return { office, member, home, membership };
}

async function row(id: string) {
  const [m] = await database.db.select().from(memberships).where(eq(memberships.id, id));
  return m;
}

async function mails() {
  const rows = await database.db
    .select()
    .from(outbox)
    .where(eq(outbox.kind, "email"))
    .orderBy(asc(outbox.createdAt));
  return rows.map((r) => r.payload as OutboxPayloads["email"]);
}

function book(home: { id: string; customerId: string }, today: string) {
  return createMemberVisit(database.db, home, {
    today,
    scheduledDate: "2026-11-30",
    startTime: "09:00",
    endTime: "10:45",
    tasks: ["Fix the gate"],
  });
}

describe(`'Past due' without a card processor (${testDatabaseKind()})`, () => {
  it("goes 'Past due' 10 days after the unpaid period began, reminds once, waits after the grace, clears when paid", async () => {
    const { office, member, home, membership } = await world();
    // November's charge posts on November 1; nine days on, it is not yet past due.
    await checkPastDue(at("2026-11-01"));
    expect((await row(membership.id)).balanceCents).toBe(29_500);
    await checkPastDue(at("2026-11-10"));
    expect((await row(membership.id)).pastDueSince).toBeNull();
    expect(await pastDueMemberships("2026-11-10")).toEqual([]);

    // Ten days after November 1: the daily check of the durable schedule marks it.
    await planSchedule(at("2026-11-11"));
    const [occasion] = await database.db
      .select()
      .from(paymentSchedule)
      .where(eq(paymentSchedule.key, "past-due:2026-11-11"));
    expect(occasion).toMatchObject({ kind: "past_due", doneAt: null });
    await runPastDueCheck(occasion.key, at("2026-11-11"));
    expect((await row(membership.id)).pastDueSince).toBe("2026-11-11");
    const [done] = await database.db
      .select()
      .from(paymentSchedule)
      .where(eq(paymentSchedule.key, occasion.key));
    expect(done.doneAt).not.toBeNull();

    // The member's reminder: the amount, since when, how to pay, when booking waits.
    const reminders = (await mails()).filter((m) => m.to === member.email);
    expect(reminders.map((m) => m.subject)).toEqual(["Payment reminder: $295.00 is past due"]);
    expect(reminders[0].text).toContain(
      "Your Complete Home Care membership has $295.00 unpaid since November 1, 2026. Your membership is 'Past due'.",
    );
    expect(reminders[0].text).toContain(
      "Please pay by check, cash or bank transfer: call us at (404) 555-0142 and we will tell you how.",
    );
    expect(reminders[0].text).toContain(
      "If it is not paid by November 25, 2026, booking waits until it is paid.",
    );
    const alert = (await mails()).find((m) => m.subject === "Past due: Maria Alvarez owes $295.00");
    expect(alert?.text).toContain(`/employee/customers/${member.id}/membership`);

    // Checked again the next days: still 'Past due' from the 11th, no second reminder.
    await checkPastDue(at("2026-11-12"));
    await checkPastDue(at("2026-11-20"));
    expect((await row(membership.id)).pastDueSince).toBe("2026-11-11");
    expect((await mails()).filter((m) => m.to === member.email)).toHaveLength(1);

    // The office's list: the balance and its age.
    expect(await pastDueMemberships("2026-11-20")).toEqual([
      expect.objectContaining({
        membershipId: membership.id,
        customerName: "Maria Alvarez",
        owedCents: 29_500,
        unpaidSince: "2026-11-01",
        ageDays: 19,
        byCard: false,
        bookingWaitsFrom: "2026-11-25",
      }),
    ]);
    // The member's Plan tab says what is owed and how to pay.
    const view = await memberPaymentsView(member.id);
    expect(view.pastDueByHand).toMatchObject({ owedCents: 29_500 });
    expect(view.bookingWaitsFrom).toBe("2026-11-25");

    // Booking still works within the grace period, and waits after it.
    await book(home, "2026-11-24");
    await expect(book(home, "2026-11-25")).rejects.toThrow(PAYMENT_WAIT_BY_HAND_MESSAGE);

    // A part of it paid: still past due. The rest paid: active again, booking too.
    await recordPayment(
      { membershipId: membership.id, amountCents: 10_000, method: "cash", reference: "" },
      office.id,
    );
    expect((await row(membership.id)).pastDueSince).toBe("2026-11-11");
    await recordPayment(
      { membershipId: membership.id, amountCents: 19_500, method: "check", reference: "102" },
      office.id,
    );
    expect((await row(membership.id)).pastDueSince).toBeNull();
    expect(await pastDueMemberships("2026-11-25")).toEqual([]);
    await book(home, "2026-11-25");
  });

  it("ages each balance by its oldest unpaid charge, every membership of the list in one read", async () => {
    const a = await world();
    const b = await world();
    // November's charges unpaid past the 10 days: both 'Past due'; then December's posts.
    await checkPastDue(at("2026-11-01"));
    await checkPastDue(at("2026-11-11"));
    await checkPastDue(at("2026-12-01"));
    expect((await row(a.membership.id)).balanceCents).toBe(59_000);
    const since = async (date: string) =>
      Object.fromEntries(
        (await pastDueMemberships(date)).map((r) => [r.membershipId, [r.owedCents, r.unpaidSince]]),
      );
    expect(await since("2026-12-02")).toEqual({
      [a.membership.id]: [59_000, "2026-11-01"],
      [b.membership.id]: [59_000, "2026-11-01"],
    });
    // Payments pay the oldest first: $200 leaves $390, December's $295 and $95 of November's.
    await recordPayment(
      { membershipId: a.membership.id, amountCents: 20_000, method: "cash", reference: "" },
      a.office.id,
    );
    expect((await since("2026-12-02"))[a.membership.id]).toEqual([39_000, "2026-11-01"]);
    // $100 more leaves $290, all of it December's.
    await recordPayment(
      { membershipId: a.membership.id, amountCents: 10_000, method: "cash", reference: "" },
      a.office.id,
    );
    // The day's check (the payment's own pass reads the real clock, which a moved clock puts
    // past December 11th).
    await checkPastDue(at("2026-12-02"));
    const after = await since("2026-12-02");
    expect(after[b.membership.id]).toEqual([59_000, "2026-11-01"]);
    // Nothing of it is 10 days old: no longer 'Past due'; the one membership's own read agrees.
    expect(after[a.membership.id]).toBeUndefined();
    expect(await overdueOf(database.db, await row(a.membership.id))).toEqual({
      owedCents: 29_000,
      unpaidSince: "2026-12-01",
    });
  });

  it("follows PAST_DUE_AFTER_DAYS, and leaves a membership paid on time alone", async () => {
    process.env.PAST_DUE_AFTER_DAYS = "3";
    resetEnvForTests();
    const { membership } = await world();
    const onTime = await world();
    await checkPastDue(at("2026-11-03"));
    await recordPayment(
      { membershipId: onTime.membership.id, amountCents: 29_500, method: "check", reference: "" },
      onTime.office.id,
    );
    expect((await row(membership.id)).pastDueSince).toBeNull();
    const result = await checkPastDue(at("2026-11-04"));
    expect(result.pastDue).toBe(1);
    expect((await row(membership.id)).pastDueSince).toBe("2026-11-04");
    expect((await row(onTime.membership.id)).pastDueSince).toBeNull();
  });
});
