import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { membershipMoneyLedger, memberships, outbox } from "~/db/schema";
import { settlementLineText } from "~/features/memberships/settlement";
import { cancelMembership, previewCancellation } from "~/workflows/cancel-membership.server";
import { activeMembershipsOf } from "~/features/memberships/counters.server";
import { MembershipRejectedError } from "~/features/memberships/errors.server";
import { recordPayment } from "~/features/memberships/money.server";
import { addPart, decidePart, markPartBought } from "~/features/memberships/parts.server";
import { START_OUT_OF_BOUNDS, startMembership } from "~/features/memberships/start.server";
import { membershipStatement } from "~/features/memberships/statement.server";
import { reserveVisitMinutes } from "~/features/memberships/visit-minutes.server";
import { business } from "~/lib/business.server";
import type { OutboxPayloads } from "~/lib/outbox.server";
import { createAppointment, createHome, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";
import { addDays, addMonths, businessNow } from "~/lib/business-calendar";

/*
 * Issue 27, items 10 to 14 on the database: booking ahead of payment, the settlement the
 * dialog, the e-mails and the ledger agree on, the guarantee once, the days of the statement.
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
const late = { date: today, time: "23:59" };
let seq = 0;

async function people() {
  seq++;
  const staff = await createUser(database.db, {
    email: `fig-staff${seq}@example.com`,
    password: "x",
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
  });
  const member = await createUser(database.db, {
    email: `fig-member${seq}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Alvarez",
  });
  const home = await createHome(database.db, member.id);
  return { staff, member, home };
}

async function book(
  home: { id: string; customerId: string },
  input: { date: string; start: string; end: string; asExtra?: boolean },
) {
  return database.db.transaction(async (tx) => {
    const appointment = await createAppointment(tx, home, {
      scheduledDate: input.date,
      startTime: input.start,
      endTime: input.end,
      tasks: ["Fix the faucet"],
    });
    const reserved = await reserveVisitMinutes(tx, appointment.id, { asExtra: input.asExtra });
    return { appointment, reserved };
  });
}

async function mails() {
  const rows = await database.db.select().from(outbox).orderBy(asc(outbox.createdAt));
  return rows.map((r) => r.payload as OutboxPayloads["email"]);
}

describe("the settlement (ADR 058)", () => {
  it("the dialog's lines are the e-mails' lines and the ledger's balance, the office told what it owes", async () => {
    const { staff, member, home } = await people();
    const m = await startMembership(
      {
        customerId: member.id,
        plan: "complete",
        billing: "monthly",
        startDate: addDays(today, -100),
      },
      staff.id,
    );
    // Three months charged (-100 days), the first two paid by card.
    await recordPayment(
      { membershipId: m.id, amountCents: 59_000, method: "card", reference: "" },
      staff.id,
    );
    const past = await book(home, { date: today, start: "08:00", end: "09:45" });
    const part = await addPart(
      { appointmentId: past.appointment.id, description: "Faucet", costCents: 17_450 },
      staff.id,
    );
    await decidePart(member.id, part.id, "approve");
    await markPartBought(part.id, staff.id);
    await book(home, { date: addDays(today, 3), start: "09:00", end: "10:45", asExtra: true });

    const preview = (await previewCancellation(m.id, late))!;
    const lines = preview.settlement.lines.map((l, i) => settlementLineText(l, i === 0));
    expect(lines[0]).toMatch(/^Unused hours: \$/);
    expect(lines).toContainEqual(
      expect.stringMatching(/^Unpaid part: Faucet \(visit on .+\): -\$174\.50$/),
    );
    expect(lines).toContain("Unpaid shopping fee: -$10.00");
    // The upcoming extra visit, not paid, is reversed by the cancel: neither unpaid nor
    // refunded (ADR 081).
    expect(lines.join("\n")).not.toMatch(/extra visit/i);
    expect(lines.filter((l) => /^Unpaid \w+ charge: -\$295\.00$/.test(l))).toHaveLength(
      addMonths(m.startDate, 3) <= today ? 2 : 1,
    );
    // Manual mode: paid by card at the office, but nothing goes back to a card by itself.
    expect(preview.settlement.howLabel).toMatch(
      new RegExp(
        `^We will send you \\$[\\d,.]+ by check or bank transfer within ${business().refundCheckDays} days\\.$`,
      ),
    );

    const result = await cancelMembership(
      { membershipId: m.id },
      { id: staff.id, isEmployee: true },
      late,
    );
    expect(result.settlement).toEqual(preview.settlement);
    const [after] = await database.db.select().from(memberships).where(eq(memberships.id, m.id));
    expect(after.balanceCents).toBe(-preview.settlement.resultCents);
    expect(after.settlement).toEqual(preview.settlement);

    const sent = await mails();
    const memberMail = sent.find((s) => s.subject.includes("membership is canceled"))!;
    const officeMail = sent.find(
      (s) => s.to === business().email && s.subject.startsWith("Membership canceled"),
    )!;
    for (const line of lines) {
      expect(memberMail.text).toContain(line);
      expect(officeMail.text).toContain(line);
    }
    // The member reads her result and how it comes; the office, what it owes and does.
    expect(memberMail.text).toContain(preview.settlement.resultLabel);
    expect(officeMail.text).not.toContain(preview.settlement.resultLabel);
    const amount = Math.abs(preview.settlement.resultCents) / 100;
    expect(officeMail.text).toMatch(
      preview.settlement.resultCents > 0
        ? new RegExp(
            `We owe Maria Alvarez \\$${amount.toLocaleString("en-US", { minimumFractionDigits: 2 })}`,
          )
        : /owes us|Nothing is owed/,
    );

    // The Customers tab shows the open balance or credit of the canceled membership.
    const shown = (await activeMembershipsOf([member.id])).get(member.id);
    expect(shown).toMatchObject({ status: "canceled", balanceCents: after.balanceCents });
  });

  it("hours used before they were paid are owed by a re-joining member", async () => {
    const { staff, member, home } = await people();
    const first = await startMembership(
      { customerId: member.id, plan: "essential", billing: "monthly", startDate: today },
      staff.id,
    );
    const once = await cancelMembership(
      { membershipId: first.id },
      { id: staff.id, isEmployee: true },
    );
    expect(once.quote.rule).toBe("guarantee");

    const again = await startMembership(
      { customerId: member.id, plan: "essential", billing: "monthly", startDate: today },
      staff.id,
    );
    // The first week's visit, booked ahead of payment (ADR 057): 87 minutes paid, 105 reserved.
    const visit = await book(home, { date: today, start: "08:00", end: "09:45" });
    expect(visit.reserved?.decision).toEqual({ kind: "bank", minutes: 105 });
    const result = await cancelMembership(
      { membershipId: again.id },
      { id: staff.id, isEmployee: true },
      late,
    );
    // No guarantee the second time (ADR 059): the ordinary rule, and 18 minutes owed at $120/h.
    expect(result.quote).toMatchObject({ rule: "unused_hours", minutesOwed: 18, owedCents: 3_600 });
    expect(result.settlement.lines.map((l, i) => settlementLineText(l, i === 0))).toEqual([
      "Unused hours: $0.00",
      "Hours used before they were paid (18 min): -$36.00",
      `Unpaid ${new Intl.DateTimeFormat("en-US", { month: "long", timeZone: "UTC" }).format(new Date(`${today}T00:00:00Z`))} charge: -$175.00`,
    ]);
    expect(result.settlement.resultLabel).toBe("You owe: $211.00");
    const [after] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, again.id));
    expect(after).toMatchObject({ balanceCents: 21_100, minutesAvailable: 0 });
  });
});

describe("dates that mean something (issue 27, item 13)", () => {
  it("statement lines carry their period's or visit's day, not the day posted", async () => {
    const { staff, member, home } = await people();
    const start = addDays(today, -70);
    const m = await startMembership(
      { customerId: member.id, plan: "complete", billing: "monthly", startDate: start },
      staff.id,
    );
    const visit = addDays(today, 5);
    await book(home, { date: visit, start: "09:00", end: "10:45" });
    const statement = await membershipStatement(m.id);
    const charges = statement.filter((e) => e.kind === "membership_charge").map((e) => e.on);
    const accruals = statement.filter((e) => e.kind === "accrual").map((e) => e.on);
    const periods = [0, 1, 2]
      .map((n) => addMonths(start, n))
      .filter((d) => d <= today)
      .reverse();
    expect(charges).toEqual(periods);
    expect(accruals).toEqual(periods);
    expect(statement.find((e) => e.kind === "reserve")?.on).toBe(visit);
    const [charge] = await database.db
      .select()
      .from(membershipMoneyLedger)
      .where(eq(membershipMoneyLedger.membershipId, m.id))
      .limit(1);
    expect(charge.periodStart).toBe(start);
  });

  it("refuses a membership starting in 1926 or 9999, whoever starts it", async () => {
    const { staff, member } = await people();
    for (const startDate of ["1926-01-01", "9999-12-31"]) {
      await expect(
        startMembership(
          { customerId: member.id, plan: "complete", billing: "monthly", startDate },
          staff.id,
        ),
      ).rejects.toThrow(new MembershipRejectedError(START_OUT_OF_BOUNDS));
    }
    expect(await database.db.$count(memberships)).toBe(0);
  });
});
