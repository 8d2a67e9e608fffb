import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { membershipMoneyLedger, memberships, outbox, paymentSchedule } from "~/db/schema";
import { cancelMembership, cancelOwnMembership } from "~/workflows/cancel-membership.server";
import {
  chooseRenewal,
  markRefundPaid,
  paymentProvider,
  planSchedule,
  registerPaymentJobs,
  runPaymentJob,
  refundsToPay,
  sendMembershipOffer,
  startOfferByHand,
  memberPaymentsView,
  staffPaymentsView,
  startOfferCheckout,
} from "~/features/payments/index.server";
import { resetEnvForTests } from "~/lib/env.server";
import { createHome, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";
import { businessNow, addDays } from "~/lib/business-calendar";

/*
 * Without Stripe settings (the embedded default): the manual adapter. 'Start membership' tells
 * the office; staff record the first payment, which starts the membership; a cancel's refund is
 * listed under 'Refunds to pay' until 'Mark refund paid'; the schedule plans each occasion once.
 */

let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "payments-manual-"));
  Object.assign(process.env, { DATA_DIR: dataDir, BUSINESS_EMAIL: "office@example.com" });
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  resetEnvForTests();
  database = await useTestDatabase();
  // The renewal day's end is the memberships feature's cancel, handed over as at start-up.
  registerPaymentJobs({ endMembership: cancelOwnMembership });
});
afterAll(async () => {
  delete process.env.DATA_DIR;
  delete process.env.BUSINESS_EMAIL;
  resetEnvForTests();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.execute(
    sql`truncate "user", outbox, payment_refunds, payment_schedule, membership_offers cascade`,
  );
});

async function people() {
  const member = await createUser(database.db, {
    email: `manual-${Date.now()}@example.com`,
    password: "Member-pass-2026!",
    firstName: "Ada",
    lastName: "Hand",
  });
  await createHome(database.db, member.id);
  const staff = await createUser(database.db, {
    email: `manual-staff-${Date.now()}@example.com`,
    password: "Staff-pass-2026!",
    firstName: "Sam",
    lastName: "Staff",
    isEmployee: true,
  });
  return { member, staff };
}

describe("manual payments", () => {
  it("an offer starts when staff record the first payment; the refund is paid by hand", async () => {
    expect(paymentProvider().name).toBe("manual");
    const { member, staff } = await people();
    const today = businessNow().date;
    await sendMembershipOffer(
      { customerId: member.id, plan: "essential", billing: "monthly", startDate: today },
      staff.id,
    );
    expect(await startOfferCheckout(member.id)).toBeNull();
    const alerts = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    expect(
      alerts.some((a) => (a.payload as { subject: string }).subject.includes("wants to start")),
    ).toBe(true);
    const started = await startOfferByHand(
      member.id,
      { amountCents: 17_500, method: "check", reference: "Check 77" },
      staff.id,
      today,
    );
    const ledger = await database.db
      .select()
      .from(membershipMoneyLedger)
      .where(eq(membershipMoneyLedger.membershipId, started.id));
    expect(ledger.map((r) => r.kind)).toEqual(["membership_charge", "payment"]);

    await cancelMembership({ membershipId: started.id }, { id: staff.id, isEmployee: true });
    const owed = await refundsToPay();
    expect(owed).toHaveLength(1);
    expect(owed[0].amountCents).toBeGreaterThan(0);
    await markRefundPaid({ refundId: owed[0].id, method: "cash", reference: "" }, staff.id);
    const [after] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, started.id));
    expect(after.balanceCents).toBe(0);
    expect(await refundsToPay()).toHaveLength(0);
  });

  it("the schedule plans each charge, 'Past due' check and reconciliation once, however often it is planned", async () => {
    const { member, staff } = await people();
    const today = businessNow().date;
    await sendMembershipOffer(
      { customerId: member.id, plan: "complete", billing: "annual", startDate: today },
      staff.id,
    );
    await startOfferByHand(
      member.id,
      { amountCents: 354_000, method: "check", reference: "" },
      staff.id,
      today,
    );
    await Promise.all([planSchedule(), planSchedule(), planSchedule()]);
    const rows = await database.db.select().from(paymentSchedule);
    // The 'Past due' check of today and of tomorrow (ADR 083); the renewal's notices and day.
    expect(rows.map((r) => r.kind).sort()).toEqual([
      "charge",
      "past_due",
      "past_due",
      "reconcile",
      "renewal_end",
      "renewal_notice",
      "renewal_notice",
    ]);
    const jobs = await database.db.select().from(outbox).where(eq(outbox.kind, "payment_job"));
    expect(jobs).toHaveLength(7);
  });

  it("'Start membership' sent ten times at once with its form's key tells the office once", async () => {
    const { member, staff } = await people();
    await sendMembershipOffer(
      {
        customerId: member.id,
        plan: "essential",
        billing: "monthly",
        startDate: businessNow().date,
      },
      staff.id,
    );
    // Before: the offer with its 'Start membership'.
    expect((await memberPaymentsView(member.id)).offer?.callAsked).toBe(false);
    const key = "start-key-00000000001";
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => startOfferCheckout(member.id, { key })),
    );
    expect(answers.every((a) => a === null)).toBe(true);
    const alerts = (await database.db.select().from(outbox).where(eq(outbox.kind, "email"))).filter(
      (a) => (a.payload as { subject: string }).subject.includes("wants to start"),
    );
    expect(alerts).toHaveLength(1);
    // After, on any later read of the page: the office is to call, the button is not offered.
    expect((await memberPaymentsView(member.id)).offer?.callAsked).toBe(true);
    // And staff's page for the customer says so.
    expect((await staffPaymentsView(member.id)).offer?.callAsked).toBe(true);
  });
});

const noonOf = (date: string) => new Date(`${date}T12:00:00Z`);

/** The moved clock: every payments job due by `at` run as at that instant (the schedule's clock). */
async function runJobsDueBy(at: Date) {
  const due = await database.db
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, "payment_job"),
        isNull(outbox.deliveredAt),
        lte(outbox.nextAttemptAt, at),
      ),
    )
    .orderBy(outbox.nextAttemptAt);
  for (const job of due) {
    await runPaymentJob(job.payload as { job: string }, at);
    await database.db.update(outbox).set({ deliveredAt: at }).where(eq(outbox.id, job.id));
  }
  return due.length;
}

describe("annual renewals without a card processor", () => {
  async function annualMember() {
    const { member, staff } = await people();
    const today = businessNow().date;
    await sendMembershipOffer(
      { customerId: member.id, plan: "complete", billing: "annual", startDate: today },
      staff.id,
    );
    const m = await startOfferByHand(
      member.id,
      { amountCents: 354_000, method: "check", reference: "Check 1" },
      staff.id,
      today,
    );
    await planSchedule(noonOf(today));
    const renewal = today.replace(/^(\d{4})/, (y) => String(+y + 1));
    return { member, m, renewal };
  }

  const chargesOf = async (membershipId: string) =>
    (
      await database.db
        .select()
        .from(membershipMoneyLedger)
        .where(eq(membershipMoneyLedger.membershipId, membershipId))
        .orderBy(membershipMoneyLedger.seq)
    )
      .filter((r) => r.kind === "membership_charge")
      .map((r) => [r.amountCents, r.periodStart]);

  it("the renewal is charged on its day, once, after notices 45 and 7 days ahead", async () => {
    const { member, m, renewal } = await annualMember();
    await runJobsDueBy(noonOf(addDays(renewal, -45)));
    await runJobsDueBy(noonOf(addDays(renewal, -7)));
    const notices = (await database.db.select().from(outbox).where(eq(outbox.kind, "email")))
      .map((r) => r.payload as { to: string; subject: string; text: string })
      .filter((p) => p.to === member.email && p.subject.includes("renews on"));
    expect(notices).toHaveLength(2);
    expect(notices[0].text).toContain("$3,540.00");
    expect(notices[0].text).toContain("The office will collect it");
    await runJobsDueBy(noonOf(addDays(renewal, -1)));
    expect(await chargesOf(m.id)).toEqual([[354_000, m.startDate]]);
    await runJobsDueBy(noonOf(renewal));
    await runJobsDueBy(noonOf(addDays(renewal, 1)));
    expect(await chargesOf(m.id)).toEqual([
      [354_000, m.startDate],
      [354_000, renewal],
    ]);
  });

  it("'Switch to monthly': the month's price from the renewal date, month by month", async () => {
    const { member, m, renewal } = await annualMember();
    await chooseRenewal(member.id, "monthly", "switch-key-000000001");
    await runJobsDueBy(noonOf(renewal));
    expect(await chargesOf(m.id)).toEqual([
      [354_000, m.startDate],
      [29_500, renewal],
    ]);
    const [after] = await database.db.select().from(memberships).where(eq(memberships.id, m.id));
    expect(after.billing).toBe("monthly");
    expect(after.status).toBe("active");
  });

  it("'Cancel renewal': the membership ends on the renewal date, never charged again", async () => {
    const { member, m, renewal } = await annualMember();
    await chooseRenewal(member.id, "cancel", null);
    await runJobsDueBy(noonOf(renewal));
    await runJobsDueBy(noonOf(addDays(renewal, 2)));
    expect(await chargesOf(m.id)).toEqual([[354_000, m.startDate]]);
    const [after] = await database.db.select().from(memberships).where(eq(memberships.id, m.id));
    expect(after.status).toBe("canceled");
    expect(after.canceledOn).toBe(renewal);
  });
});
