import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memberships, outbox } from "~/db/schema";
import { chargesDue } from "~/features/memberships/bank";
import { settlementLineText } from "~/features/memberships/settlement";
import { cancelMembership, previewCancellation } from "~/workflows/cancel-membership.server";
import { membershipPage } from "~/features/memberships/page.server";
import { memberBankSummary } from "~/features/memberships/summary.server";
import { recordPayment } from "~/features/memberships/money.server";
import { startMembership } from "~/features/memberships/start.server";
import { reserveVisitMinutes } from "~/features/memberships/visit-minutes.server";
import { markRefundPaid, refundsToPay } from "~/features/payments/index.server";
import { cancelMemberVisit } from "~/features/visits/member-visits.server";
import { business } from "~/lib/business.server";
import type { OutboxPayloads } from "~/lib/outbox.server";
import { createAppointment, createHome, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";
import { formatCents } from "~/lib/money";
import { addDays, businessNow, plainDate } from "~/lib/business-calendar";

/*
 * Issue 39, items 3 and 4 on the database: the walk's case (an extra visit reversed by a
 * closure, then a cancel with the month's charge unpaid) settles line by line as the ledger has
 * it; in manual mode the member is told the office sends the refund by check or bank transfer,
 * the office is told what to do, and 'Mark refund paid' tells the member it was sent.
 */

let database: TestDatabase;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, payment_refunds cascade`);
});

const today = businessNow().date;
const late = { date: today, time: "23:59" };
const MONTH = new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" });

async function mails() {
  const rows = await database.db.select().from(outbox).orderBy(asc(outbox.createdAt));
  return rows.filter((r) => r.kind === "email").map((r) => r.payload as OutboxPayloads["email"]);
}

describe("the walk's case (issue 39, item 3)", () => {
  it("an extra visit reversed by a closure, then a cancel: the month's whole charge unpaid, no extra-visit line", async () => {
    const staff = await createUser(database.db, {
      email: "settle-staff@example.com",
      password: "x",
      firstName: "Sam",
      lastName: "Staff",
      isEmployee: true,
    });
    const member = await createUser(database.db, {
      email: "settle-maria@example.com",
      password: "x",
      firstName: "Maria",
      lastName: "Alvarez",
    });
    const home = await createHome(database.db, member.id);
    const m = await startMembership(
      {
        customerId: member.id,
        plan: "complete",
        billing: "monthly",
        startDate: addDays(today, -100),
      },
      staff.id,
    );
    const due = chargesDue(m, "monthly", m.startDate, today);
    const last = due[due.length - 1];
    // Every month paid but the last, which is not paid at all.
    await recordPayment(
      {
        membershipId: m.id,
        amountCents: 29_500 * (due.length - 1),
        method: "check",
        reference: "Check 311",
      },
      staff.id,
    );
    // A $150 extra visit, then canceled by a closure (its charge reversed).
    const extra = await database.db.transaction(async (tx) => {
      const appointment = await createAppointment(tx, home, {
        scheduledDate: addDays(today, 5),
        startTime: "09:00",
        endTime: "10:45",
        tasks: ["Hang the shelves"],
      });
      await reserveVisitMinutes(tx, appointment.id, { asExtra: true });
      return appointment;
    });
    await cancelMemberVisit({ id: staff.id, isEmployee: true }, extra.id, {
      why: "We are closed that day.",
    });

    const preview = (await previewCancellation(m.id, late))!;
    const lines = preview.settlement.lines.map((l, i) => settlementLineText(l, i === 0));
    const unpaid = `Unpaid ${MONTH.format(new Date(`${last.periodStart}T00:00:00Z`))} charge: -$295.00`;
    expect(lines).toEqual([expect.stringMatching(/^Unused hours: \$/), unpaid]);
    expect(lines.join("\n")).not.toMatch(/extra visit/i);
    const amount = formatCents(preview.settlement.resultCents);
    const days = business().refundCheckDays;
    expect(preview.settlement.howLabel).toBe(
      `We will send you ${amount} by check or bank transfer within ${days} days.`,
    );

    const result = await cancelMembership(
      { membershipId: m.id },
      { id: staff.id, isEmployee: true },
      late,
    );
    expect(result.settlement).toEqual(preview.settlement);
    const [after] = await database.db.select().from(memberships).where(eq(memberships.id, m.id));
    expect(after.settlement).toEqual(preview.settlement);
    expect(after.balanceCents).toBe(-preview.settlement.resultCents);

    // Both e-mails list the same lines; each speaks to its reader.
    const sent = await mails();
    const memberMail = sent.find((s) => s.subject.includes("membership is canceled"))!;
    const officeMail = sent.find(
      (s) => s.to === business().email && s.subject.startsWith("Membership canceled"),
    )!;
    for (const line of lines) {
      expect(memberMail.text).toContain(line);
      expect(officeMail.text).toContain(line);
    }
    expect(memberMail.text).toContain(`You receive: ${amount}`);
    expect(memberMail.text).toContain(
      `We will send you ${amount} by check or bank transfer within ${days} days.`,
    );
    expect(memberMail.text).not.toMatch(/back to the card/i);
    expect(officeMail.text).toContain(`We owe Maria Alvarez ${amount}.`);
    expect(officeMail.text).toContain(
      `Send Maria Alvarez ${amount} by check or bank transfer within ${days} days`,
    );
    expect(officeMail.text).not.toMatch(
      /You receive|We will send you|your account|back to the card/,
    );

    // 'Mark refund paid' by check: the member is told it was sent, how and the reference.
    const [owed] = await refundsToPay();
    expect(owed.amountCents).toBe(preview.settlement.resultCents);
    await markRefundPaid({ refundId: owed.id, method: "check", reference: "Check 1042" }, staff.id);
    const told = (await mails()).filter((s) => s.to === "settle-maria@example.com");
    const paid = told.find((s) => s.subject === `Your refund of ${amount} was sent`)!;
    expect(paid.text).toContain(`We sent your refund of ${amount} by check on `);
    expect(paid.text).toContain("Reference: Check 1042.");

    // Her page no longer promises it: it says it was sent, how and the reference.
    const sentLine = `Sent by check on ${plainDate(today)}: ${amount} (Check 1042).`;
    const page = (await membershipPage(member.id, 1, 50))!;
    expect(page.summary).toMatchObject({ refundsSent: [sentLine], refundSentInFull: true });
    expect(await memberBankSummary(member.id)).toMatchObject({
      refundsSent: [sentLine],
      refundSentInFull: true,
    });
  });
});
