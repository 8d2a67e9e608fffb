import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { membershipMoneyLedger, memberships, outbox, paymentSchedule } from "~/db/schema";
import { businessNow, cancelMembership } from "~/features/memberships/index.server";
import {
  markRefundPaid,
  paymentProvider,
  planSchedule,
  refundsToPay,
  sendMembershipOffer,
  startOfferByHand,
  startOfferCheckout,
} from "~/features/payments/index.server";
import { resetEnvForTests } from "~/lib/env.server";
import { createHome, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

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

  it("the schedule plans each charge and reconciliation once, however often it is planned", async () => {
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
    expect(rows.map((r) => r.kind).sort()).toEqual(["charge", "reconcile", "renewal_notice"]);
    const jobs = await database.db.select().from(outbox).where(eq(outbox.kind, "payment_job"));
    expect(jobs).toHaveLength(3);
  });
});
