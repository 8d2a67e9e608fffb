import { describe, expect, it } from "vitest";
import type { Membership } from "~/db/schema";
import { spendLabel, decideVisit } from "./bank";
import { planById } from "~/content/plans";
import { statementCsv } from "./statement-csv.server";
import { meterTextOf } from "./summary.server";
import { hoursText } from "~/lib/hours";

/* Every hours figure in the meter's words (issue 39, item 11; ADR 081). */

const essential = planById("essential");

function membership(over: Partial<Membership>): Membership {
  return {
    id: "m1",
    customerId: "c1",
    plan: "essential",
    planName: "Essential",
    billing: "monthly",
    status: "active",
    startDate: "2026-11-19",
    periodsCharged: 1,
    minutesAvailable: 87,
    monthlyPriceCents: essential.monthlyPriceCents,
    minutesPerYear: essential.minutesPerYear,
    visitsPerYear: essential.visitsPerYear,
    ...over,
  } as Membership;
}

describe("hours in e-mails", () => {
  it("the e-mails' meter is the Plan tab's: paid, left now, the next hours", () => {
    expect(meterTextOf(membership({ minutesAvailable: 87 }), "2026-11-27")).toBe(
      "1 h 27 min paid, 1 h 27 min left now; 1 h 28 min more on December 19",
    );
  });

  it("a visit worked past what is paid: booked ahead of payment, never '-1 h -18 min'", () => {
    const text = meterTextOf(membership({ minutesAvailable: -78 }), "2026-11-27");
    expect(text).toBe(
      "1 h 27 min paid, 1 h 18 min booked ahead of payment; 1 h 28 min more on December 19",
    );
    expect(text).not.toMatch(/-\d/);
  });

  it("the plan's hours are exact", () => {
    expect(hoursText(essential.minutesPerYear)).toBe("17 h 30 min");
  });

  it("a refusal with the bank below zero says what is booked ahead", () => {
    const decision = decideVisit({
      terms: essential,
      minutesAvailable: -18,
      block: 105,
      counts: { thisYear: 0, thisMonth: 0 },
    });
    expect(spendLabel(decision, -18)).toBe(
      "Not enough hours left: 18 min booked ahead of payment, the visit needs 1 h 45 min.",
    );
  });

  it("the statement's CSV reads a negative bank in words", () => {
    const csv = statementCsv([
      {
        on: "2026-11-24",
        ledger: "hours",
        kind: "reserve",
        description: "Visit on November 24, 2026",
        amountCents: null,
        balanceCents: null,
        minutes: -105,
        minutesBalance: -18,
      } as never,
    ]);
    expect(csv).toContain('"18 min booked ahead of payment"');
    expect(csv).toContain('"-1 h 45 min"');
  });
});
