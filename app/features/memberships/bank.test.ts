import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PLANS, planById } from "~/content/plans";
import {
  chargeForPeriod,
  chargesDue,
  decideVisit,
  hourlyRateLabel,
  membershipYear,
  minutesReturned,
  monthlyMinutes,
  monthlyVisitAllowance,
  selfBookedExtraLimitMessage,
  spendLabel,
  type Billing,
  type MembershipTerms,
} from "./bank";
import { quoteCancellation, refundForUnusedMinutes, withinGuarantee } from "./settlement";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { addDays, addMonths, daysBetween } from "~/lib/business-calendar";

const complete = planById("complete");
const essential = planById("essential");

describe("display", () => {
  it("writes minutes as hours and minutes", () => {
    expect(hoursText(735)).toBe("12 h 15 min");
    expect(hoursText(2520)).toBe("42 h");
    expect(hoursText(105)).toBe("1 h 45 min");
    expect(hoursText(45)).toBe("45 min");
    expect(hoursText(0)).toBe("0 min");
  });
  it("writes cents as dollars", () => {
    expect(formatCents(15_000)).toBe("$150.00");
    expect(formatCents(-1_000)).toBe("-$10.00");
    expect(formatCents(1_234_567)).toBe("$12,345.67");
  });
  it("gives Complete Home Care's hourly rate as $84.29/h", () => {
    expect(hourlyRateLabel(complete)).toBe("$84.29/h");
  });
  it("reads the plans from one place", () => {
    expect(
      PLANS.map((p) => [p.id, p.monthlyPriceCents, p.minutesPerYear, p.visitsPerYear]),
    ).toEqual([
      ["essential", 17_500, 1_050, 10],
      ["complete", 29_500, 2_520, 24],
      ["total", 55_000, 5_040, 48],
    ]);
    expect(PLANS.map((p) => [p.pricePerMonth, p.hoursPerYear])).toEqual([
      [175, "17.5"],
      [295, "42"],
      [550, "84"],
    ]);
    expect(PLANS.map((p) => monthlyVisitAllowance(p.visitsPerYear))).toEqual([1, 2, 4]);
  });
});

describe("calendar days", () => {
  it("adds months, keeping the day or the month's last day", () => {
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2026-11-15", 2)).toBe("2027-01-15");
    expect(addMonths("2024-02-29", 12)).toBe("2025-02-28");
  });
  it("finds the membership year holding a day", () => {
    expect(membershipYear("2026-03-10", "2026-03-10")).toMatchObject({
      index: 0,
      first: "2026-03-10",
      last: "2027-03-09",
      renewsOn: "2027-03-10",
    });
    expect(membershipYear("2026-03-10", "2027-03-10").index).toBe(1);
    expect(membershipYear("2026-03-10", "2027-03-09").index).toBe(0);
    expect(membershipYear("2026-03-10", "2031-06-01").first).toBe("2031-03-10");
  });
  it("puts every day after the start in exactly one membership year", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2020-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }),
        fc.integer({ min: 0, max: 3000 }),
        (start, offset) => {
          const startDate = start.toISOString().slice(0, 10);
          const day = new Date(start.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
          const year = membershipYear(startDate, day);
          expect(year.first <= day && day <= year.last).toBe(true);
          expect(year.first).toBe(addMonths(startDate, 12 * year.index));
        },
      ),
    );
  });
});

describe("billing", () => {
  it("monthly billing adds hours per year / 12 for each month charged (Complete: 3.5 h)", () => {
    const due = chargesDue(complete, "monthly", "2026-01-15", "2026-04-14");
    expect(due).toEqual([
      { periodStart: "2026-01-15", amountCents: 29_500, minutes: 210 },
      { periodStart: "2026-02-15", amountCents: 29_500, minutes: 210 },
      { periodStart: "2026-03-15", amountCents: 29_500, minutes: 210 },
    ]);
  });
  it("annual billing charges 12 months upfront and adds the year's hours at the start", () => {
    expect(chargesDue(complete, "annual", "2026-01-15", "2027-01-14")).toEqual([
      { periodStart: "2026-01-15", amountCents: 354_000, minutes: 2_520 },
    ]);
    expect(chargesDue(complete, "annual", "2026-01-15", "2027-01-15")).toHaveLength(2);
  });
  it("spreads Essential's 17.5 h a year in whole minutes (87 and 88), exactly 1,050 a year", () => {
    const months = Array.from({ length: 12 }, (_, k) => monthlyMinutes(1_050, k));
    expect(new Set(months)).toEqual(new Set([87, 88]));
    expect(months.reduce((a, b) => a + b, 0)).toBe(1_050);
  });
  it("monthly and annual billing buy the same hours and cost the same over any whole year", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PLANS), fc.integer({ min: 1, max: 5 }), (plan, years) => {
        const monthly = Array.from({ length: 12 * years }, (_, n) =>
          chargeForPeriod(plan, "monthly", "2026-05-31", n),
        );
        const annual = Array.from({ length: years }, (_, n) =>
          chargeForPeriod(plan, "annual", "2026-05-31", n),
        );
        const sum = (
          list: { minutes: number; amountCents: number }[],
          key: "minutes" | "amountCents",
        ) => list.reduce((a, c) => a + c[key], 0);
        expect(sum(monthly, "minutes")).toBe(sum(annual, "minutes"));
        expect(sum(monthly, "amountCents")).toBe(sum(annual, "amountCents"));
        expect(sum(annual, "minutes")).toBe(plan.minutesPerYear * years);
      }),
    );
  });
});

describe("visits", () => {
  const counts = { thisYear: 0, thisMonth: 0 };
  it("takes the block from the bank and says so", () => {
    const decision = decideVisit({ terms: complete, minutesAvailable: 735, block: 105, counts });
    expect(decision).toEqual({ kind: "bank", minutes: 105 });
    expect(spendLabel(decision, 735)).toBe("Uses 1 h 45 min of 12 h 15 min left");
  });
  it("refuses a visit the bank cannot hold, unless staff book it as an extra visit", () => {
    expect(decideVisit({ terms: complete, minutesAvailable: 100, block: 105, counts }).kind).toBe(
      "refused",
    );
    const extra = decideVisit({
      terms: complete,
      minutesAvailable: 100,
      block: 105,
      counts,
      asExtra: true,
    });
    expect(extra).toMatchObject({ kind: "extra", chargeCents: 15_000 });
    expect(spendLabel(extra, 100)).toBe("Extra visit: $150");
  });
  it("makes a visit beyond the month's allowance or the year's visits an extra visit", () => {
    const month = decideVisit({
      terms: complete,
      minutesAvailable: 2_000,
      block: 105,
      counts: { thisYear: 3, thisMonth: 2 },
    });
    expect(month).toMatchObject({
      kind: "extra",
      reason: "The monthly allowance of 2 visits is used.",
    });
    const year = decideVisit({
      terms: essential,
      minutesAvailable: 2_000,
      block: 105,
      counts: { thisYear: 10, thisMonth: 0 },
    });
    expect(year).toMatchObject({ kind: "extra" });
    // An extra visit is 1 h 45 min: a 3 h 30 min block beyond the allowance is refused.
    expect(
      decideVisit({
        terms: complete,
        minutesAvailable: 2_000,
        block: 210,
        counts: { thisYear: 3, thisMonth: 2 },
      }).kind,
    ).toBe("refused");
  });
  it("refuses a member's own extra visit past the month's online limit, with a number to call", () => {
    const refusal = selfBookedExtraLimitMessage(4, "2026-12-09", "(404) 555-0142");
    expect(refusal).toBe(
      "You have booked 4 extra visits for December 2026, the most that can be booked online. Please call us at (404) 555-0142 to book another.",
    );
    const beyond = { terms: complete, minutesAvailable: 2_000, block: 105 };
    const counts = { thisYear: 3, thisMonth: 2 };
    expect(
      decideVisit({ ...beyond, counts, selfBooked: { extrasThisMonth: 3, limit: 4, refusal } }),
    ).toMatchObject({ kind: "extra" });
    expect(
      decideVisit({ ...beyond, counts, selfBooked: { extrasThisMonth: 4, limit: 4, refusal } }),
    ).toEqual({ kind: "refused", reason: refusal });
    // Within the allowances the limit does not matter: the visit comes from the bank.
    expect(
      decideVisit({
        ...beyond,
        counts: { thisYear: 0, thisMonth: 0 },
        selfBooked: { extrasThisMonth: 9, limit: 4, refusal },
      }),
    ).toEqual({ kind: "bank", minutes: 105 });
    // Staff book past it (no limit passed).
    expect(decideVisit({ ...beyond, counts })).toMatchObject({ kind: "extra" });
  });
  it("accepts only 1 h 45 min and 3 h 30 min blocks", () => {
    expect(decideVisit({ terms: complete, minutesAvailable: 999, block: 120, counts }).kind).toBe(
      "refused",
    );
  });
  it("records time worked in 15-minute steps, at most the block, and returns the rest", () => {
    expect(minutesReturned(105, 90)).toBe(15);
    expect(minutesReturned(105, 105)).toBe(0);
    expect(minutesReturned(105, 120)).toBeNull();
    expect(minutesReturned(105, 80)).toBeNull();
    expect(minutesReturned(210, 0)).toBeNull();
  });
});

describe("cancellation", () => {
  it("applies the guarantee on day 60 and not on day 61", () => {
    expect(daysBetween("2026-01-01", "2026-03-02")).toBe(60);
    expect(withinGuarantee("2026-01-01", "2026-03-02", 60)).toBe(true);
    expect(withinGuarantee("2026-01-01", "2026-03-03", 60)).toBe(false);
    const base = {
      terms: complete,
      startDate: "2026-01-01",
      guaranteeDays: 60,
      minutesLeft: 300,
      membershipChargesCents: 88_500,
    };
    expect(quoteCancellation({ ...base, cancelDate: "2026-03-02" })).toEqual({
      rule: "guarantee",
      refundCents: 88_500,
      minutesRefunded: 300,
      minutesOwed: 0,
      owedCents: 0,
    });
    expect(quoteCancellation({ ...base, cancelDate: "2026-03-03" })).toEqual({
      rule: "unused_hours",
      refundCents: refundForUnusedMinutes(complete, 300),
      minutesRefunded: 300,
      minutesOwed: 0,
      owedCents: 0,
    });
  });
  it("refunds unused minutes at the hourly rate, rounded down to the cent", () => {
    // 1 hour of Complete: 60 x 29,500 x 12 / 2,520 = 8,428.57 cents -> $84.28
    expect(refundForUnusedMinutes(complete, 60)).toBe(8_428);
    expect(refundForUnusedMinutes(complete, 2_520)).toBe(354_000);
    expect(refundForUnusedMinutes(complete, 0)).toBe(0);
  });
});

/* ---------- the bank as a state machine ---------- */

type Op =
  | { op: "charge" }
  | { op: "book"; block: 105 | 210; asExtra: boolean; month: number }
  | { op: "cancelVisit"; pick: number }
  | { op: "complete"; pick: number; steps: number }
  | { op: "cancel"; day: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ op: "charge" as const }),
  fc.record({
    op: fc.constant("book" as const),
    block: fc.constantFrom(105 as const, 210 as const),
    asExtra: fc.boolean(),
    month: fc.integer({ min: 0, max: 11 }),
  }),
  fc.record({ op: fc.constant("cancelVisit" as const), pick: fc.nat() }),
  fc.record({
    op: fc.constant("complete" as const),
    pick: fc.nat(),
    steps: fc.integer({ min: 0, max: 15 }),
  }),
  fc.record({ op: fc.constant("cancel" as const), day: fc.integer({ min: 0, max: 400 }) }),
);

/**
 * Runs operations on a model of one membership with the same rules the server applies, and
 * checks after every step: the bank never goes negative, minutes are conserved (paid = used +
 * reserved + left + refunded), and a refund never exceeds what was charged.
 */
function run(terms: MembershipTerms, billing: Billing, ops: Op[]) {
  const startDate = "2026-01-15";
  let bank = 0;
  let paid = 0;
  let used = 0;
  let refundedMinutes = 0;
  let chargedCents = 0;
  let periods = 0;
  let canceled = false;
  const visits: {
    block: number;
    extra: boolean;
    month: number;
    state: "reserved" | "done" | "released";
  }[] = [];
  const check = () => {
    expect(bank).toBeGreaterThanOrEqual(0);
    const reserved = visits
      .filter((v) => v.state === "reserved" && !v.extra)
      .reduce((a, v) => a + v.block, 0);
    expect(paid).toBe(used + reserved + bank + refundedMinutes);
  };
  for (const step of ops) {
    if (canceled) break;
    if (step.op === "charge") {
      const charge = chargeForPeriod(terms, billing, startDate, periods++);
      paid += charge.minutes;
      bank += charge.minutes;
      chargedCents += charge.amountCents;
    } else if (step.op === "book") {
      const active = visits.filter((v) => v.state !== "released" && !v.extra);
      const decision = decideVisit({
        terms,
        minutesAvailable: bank,
        block: step.block,
        counts: {
          thisYear: active.length,
          thisMonth: active.filter((v) => v.month === step.month).length,
        },
        asExtra: step.asExtra,
      });
      if (decision.kind === "bank") {
        bank -= decision.minutes;
        visits.push({
          block: decision.minutes,
          extra: false,
          month: step.month,
          state: "reserved",
        });
      } else if (decision.kind === "extra") {
        visits.push({ block: decision.minutes, extra: true, month: step.month, state: "reserved" });
      }
    } else if (step.op === "cancelVisit" || step.op === "complete") {
      const open = visits.filter((v) => v.state === "reserved");
      if (!open.length) continue;
      const visit = open[step.pick % open.length];
      if (step.op === "cancelVisit") {
        if (!visit.extra) bank += visit.block;
        visit.state = "released";
      } else {
        const back = minutesReturned(visit.block, step.steps * 15);
        if (back === null) continue;
        if (!visit.extra) {
          bank += back;
          used += visit.block - back;
        }
        visit.state = "done";
      }
    } else {
      for (const v of visits) {
        if (v.state === "reserved") {
          if (!v.extra) bank += v.block;
          v.state = "released";
        }
      }
      const quote = quoteCancellation({
        terms,
        startDate,
        cancelDate: addDays(startDate, step.day),
        guaranteeDays: 60,
        minutesLeft: bank,
        membershipChargesCents: chargedCents,
      });
      expect(quote.refundCents).toBeLessThanOrEqual(chargedCents);
      expect(quote.refundCents).toBeGreaterThanOrEqual(0);
      bank -= quote.minutesRefunded;
      refundedMinutes += quote.minutesRefunded;
      canceled = true;
    }
    check();
  }
}

describe("the hours bank, by properties", () => {
  it("never goes negative and conserves minutes, monthly and annual, on every plan", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PLANS),
        fc.constantFrom<Billing>("monthly", "annual"),
        fc.array(opArb, { maxLength: 60 }),
        (plan, billing, ops) => run(plan, billing, ops),
      ),
      { numRuns: 300 },
    );
  });

  it("never refunds more for unused hours than the charges that bought them", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PLANS),
        fc.constantFrom<Billing>("monthly", "annual"),
        fc.integer({ min: 1, max: 36 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (plan, billing, periods, share) => {
          const charges = Array.from({ length: periods }, (_, n) =>
            chargeForPeriod(plan, billing, "2026-02-28", n),
          );
          const minutes = charges.reduce((a, c) => a + c.minutes, 0);
          const cents = charges.reduce((a, c) => a + c.amountCents, 0);
          const unused = Math.floor(minutes * share);
          expect(refundForUnusedMinutes(plan, unused)).toBeLessThanOrEqual(cents);
        },
      ),
    );
  });
});
