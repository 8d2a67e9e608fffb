import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planById } from "~/content/plans";
import {
  decideVisit,
  meterLabel,
  minutesBookableAhead,
  minutesPaidThisYear,
  spendLabel,
} from "./bank";
import {
  openItems,
  quoteCancellation,
  settleCancellation,
  settlementLineText,
  type LedgerItem,
} from "./settlement";

const essential = planById("essential");
const complete = planById("complete");
const none = { thisYear: 0, thisMonth: 0 };

describe("booking ahead of payment (ADR 057)", () => {
  it("a new Essential member on monthly billing books 1 h 45 min in the first week", () => {
    // Started December 1: the first month's 1 h 27 min paid; January's 1 h 28 min one month ahead.
    const ahead = minutesBookableAhead({
      terms: essential,
      billing: "monthly",
      startDate: "2026-12-01",
      periodsCharged: 1,
      visitDate: "2026-12-05",
    });
    expect(ahead).toBe(88);
    const decision = decideVisit({
      terms: essential,
      minutesAvailable: 87,
      minutesAhead: ahead,
      block: 105,
      counts: none,
    });
    expect(decision).toEqual({ kind: "bank", minutes: 105 });
    expect(spendLabel(decision, 87)).toBe(
      "Uses 1 h 45 min: 1 h 27 min left now and 18 min from the hours paid by then",
    );
    // Without the rule it was refused: the first month alone is less than the shortest visit.
    expect(
      decideVisit({ terms: essential, minutesAvailable: 87, block: 105, counts: none }).kind,
    ).toBe("refused");
  });

  it("a visit on December 21 counts the hours paid on December 18", () => {
    // Complete, monthly, from October 18: October's and November's 3 h 30 min charged, 2 h left.
    const input = {
      terms: complete,
      billing: "monthly" as const,
      startDate: "2026-10-18",
      periodsCharged: 2,
    };
    expect(minutesBookableAhead({ ...input, visitDate: "2026-12-17" })).toBe(210);
    expect(minutesBookableAhead({ ...input, visitDate: "2026-12-21" })).toBe(420);
    const decision = decideVisit({
      terms: complete,
      minutesAvailable: 120,
      minutesAhead: 420,
      block: 210,
      counts: none,
    });
    expect(decision.kind).toBe("bank");
    expect(
      meterLabel({
        paidMinutes: minutesPaidThisYear({ ...input, today: "2026-12-10" }),
        minutesLeft: 120,
        next: { date: "2026-12-18", minutes: 210 },
        today: "2026-12-10",
      }),
    ).toBe("7 h paid, 2 h left now; 3 h 30 min more on December 18");
  });

  it("annual billing books against the year paid upfront, not ahead", () => {
    expect(
      minutesBookableAhead({
        terms: complete,
        billing: "annual",
        startDate: "2026-10-18",
        periodsCharged: 1,
        visitDate: "2027-10-01",
      }),
    ).toBe(0);
    // A visit after the renewal counts the renewal's hours, paid by then.
    expect(
      minutesBookableAhead({
        terms: complete,
        billing: "annual",
        startDate: "2026-10-18",
        periodsCharged: 1,
        visitDate: "2027-10-20",
      }),
    ).toBe(2520);
  });

  it("the meter says hours booked ahead and the year of a next charge in another year", () => {
    expect(
      meterLabel({
        paidMinutes: 87,
        minutesLeft: -18,
        next: { date: "2027-01-01", minutes: 88 },
        today: "2026-12-05",
      }),
    ).toBe("1 h 27 min paid, 18 min booked ahead of payment; 1 h 28 min more on January 1, 2027");
  });

  it("what can be booked ahead is never more than one month beyond the visit's date", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 400 }),
        (charged, offset) => {
          const start = "2026-01-31";
          const visit = new Date(Date.UTC(2026, 0, 31 + charged * 30 + offset))
            .toISOString()
            .slice(0, 10);
          const ahead = minutesBookableAhead({
            terms: complete,
            billing: "monthly",
            startDate: start,
            periodsCharged: charged,
            visitDate: visit,
          });
          expect(ahead % 210).toBe(0);
          expect(ahead).toBeLessThanOrEqual(210 * 16);
        },
      ),
    );
  });
});

describe("the settlement of a cancellation (ADR 058)", () => {
  // Maria's Complete membership: August to November charged, three payments, an extra visit paid
  // in October, a part and its fee in November, an upcoming extra visit reversed by the cancel.
  const ledger: LedgerItem[] = [
    { kind: "membership_charge", amountCents: 29_500, date: "2026-08-01", description: "" },
    { kind: "payment", amountCents: -29_500, date: null, description: "Payment by card" },
    { kind: "membership_charge", amountCents: 29_500, date: "2026-09-01", description: "" },
    { kind: "payment", amountCents: -29_500, date: null, description: "Payment by card" },
    { kind: "membership_charge", amountCents: 29_500, date: "2026-10-01", description: "" },
    {
      kind: "extra_visit",
      amountCents: 15_000,
      date: "2026-12-02",
      description: "",
      appointmentId: "visit-dec-2",
    },
    { kind: "payment", amountCents: -44_500, date: null, description: "Payment by card" },
    { kind: "membership_charge", amountCents: 29_500, date: "2026-11-01", description: "" },
    {
      kind: "part",
      amountCents: 17_450,
      date: "2026-11-12",
      description: "Part: Faucet (visit on November 12, 2026)",
    },
    { kind: "shopping_fee", amountCents: 1_000, date: "2026-11-12", description: "" },
  ];

  it("the issue's example to the cent: $1,053.57 unused, $724.07 received", () => {
    const quote = quoteCancellation({
      terms: complete,
      startDate: "2026-08-01",
      cancelDate: "2026-11-26",
      guaranteeDays: 60,
      minutesLeft: 750,
      membershipChargesCents: 4 * 29_500,
    });
    expect(quote).toMatchObject({ rule: "unused_hours", refundCents: 105_357, owedCents: 0 });
    const settlement = settleCancellation({
      quote,
      billing: "monthly",
      guaranteeDays: 60,
      ledger,
      extraVisitsReversed: ["visit-dec-2"],
      cardRefundableCents: 103_500,
      refundCheckDays: 10,
    });
    expect(settlement.lines.map((l, i) => settlementLineText(l, i === 0))).toEqual([
      "Unused hours: $1,053.57",
      "Unpaid November charge: -$295.00",
      "Unpaid part: Faucet (visit on November 12, 2026): -$174.50",
      "Unpaid shopping fee: -$10.00",
      "Extra visit reversed: +$150.00",
    ]);
    expect(settlement.resultCents).toBe(72_407);
    expect(settlement.resultLabel).toBe("You receive: $724.07");
    expect(settlement.howLabel).toBe("Back to the card you paid with, within 10 days.");
  });

  it("a refund that cannot go back to a card is sent by check or bank transfer within the set days", () => {
    const quote = quoteCancellation({
      terms: complete,
      startDate: "2026-08-01",
      cancelDate: "2026-11-26",
      guaranteeDays: 60,
      minutesLeft: 750,
      membershipChargesCents: 4 * 29_500,
    });
    const settlement = settleCancellation({
      quote,
      billing: "monthly",
      guaranteeDays: 60,
      ledger,
      extraVisitsReversed: ["visit-dec-2"],
      cardRefundableCents: 0,
      refundCheckDays: 14,
    });
    expect(settlement.howLabel).toBe(
      "We will send you $724.07 by check or bank transfer within 14 days.",
    );
  });

  it("hours used before they were paid are owed outside the guarantee", () => {
    // A re-joining Essential member (no guarantee) books 1 h 45 min ahead and cancels.
    const quote = quoteCancellation({
      terms: essential,
      startDate: "2026-12-01",
      cancelDate: "2026-12-10",
      guaranteeDays: 60,
      guaranteeApplies: false,
      minutesLeft: -18,
      membershipChargesCents: 17_500,
    });
    expect(quote).toMatchObject({
      rule: "unused_hours",
      refundCents: 0,
      minutesOwed: 18,
      owedCents: 3_600,
    });
    const settlement = settleCancellation({
      quote,
      billing: "monthly",
      guaranteeDays: 60,
      ledger: [
        { kind: "membership_charge", amountCents: 17_500, date: "2026-12-01", description: "" },
        { kind: "payment", amountCents: -17_500, date: null, description: "" },
      ],
      extraVisitsReversed: [],
      cardRefundableCents: 17_500,
      refundCheckDays: 10,
    });
    expect(settlement.lines.map((l, i) => settlementLineText(l, i === 0))).toEqual([
      "Unused hours: $0.00",
      "Hours used before they were paid (18 min): -$36.00",
    ]);
    expect(settlement.resultLabel).toBe("You owe: $36.00");
  });

  it("the guarantee refunds every charge once; a re-joining member gets the ordinary refund", () => {
    const base = {
      terms: essential,
      startDate: "2026-12-01",
      cancelDate: "2026-12-20",
      guaranteeDays: 60,
      minutesLeft: 0,
      membershipChargesCents: 17_500,
    };
    expect(quoteCancellation(base)).toMatchObject({ rule: "guarantee", refundCents: 17_500 });
    expect(quoteCancellation({ ...base, guaranteeApplies: false })).toMatchObject({
      rule: "unused_hours",
      refundCents: 0,
    });
  });

  it("a credit on the account is returned with the refund", () => {
    expect(
      openItems(
        [
          { kind: "membership_charge", amountCents: 29_500, date: "2026-11-01", description: "" },
          { kind: "payment", amountCents: -35_000, date: null, description: "" },
        ],
        "monthly",
      ),
    ).toEqual([{ label: "Credit on your account", cents: 5_500 }]);
  });

  it("the result is always minus the balance the ledger is left with", () => {
    const item = fc.record({
      kind: fc.constantFrom("membership_charge", "part", "shopping_fee", "payment", "correction"),
      amountCents: fc.integer({ min: -50_000, max: 50_000 }).filter((n) => n !== 0),
    });
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 20 }),
        fc.integer({ min: 0, max: 3 }),
        (items, extras) => {
          const ledger = items.map((i) => ({ ...i, date: "2026-11-01", description: "x" }));
          const balance = ledger.reduce((s, i) => s + i.amountCents, 0);
          const quote = quoteCancellation({
            terms: complete,
            startDate: "2026-01-01",
            cancelDate: "2026-11-26",
            guaranteeDays: 60,
            minutesLeft: 300,
            membershipChargesCents: 100_000,
          });
          const settlement = settleCancellation({
            quote,
            billing: "monthly",
            guaranteeDays: 60,
            ledger,
            extraVisitsReversed: Array.from({ length: extras }, (_, i) => `visit-${i}`),
            cardRefundableCents: 0,
            refundCheckDays: 10,
          });
          const after = balance - extras * 15_000 - quote.refundCents + quote.owedCents;
          // toBe tells -0 from 0: a ledger left at zero is 0, not -0.
          expect(settlement.resultCents).toBe(after === 0 ? 0 : -after);
        },
      ),
    );
  });

  it("a cancel takes back the second handyman's fees: what was paid of them comes back", () => {
    const fee = (appointmentId: string): LedgerItem => ({
      kind: "second_handyman",
      amountCents: 9_500,
      date: "2026-12-03",
      appointmentId,
      description: "Second handyman: $95.00 (visit on December 3, 2026)",
    });
    const ledger: LedgerItem[] = [
      { kind: "membership_charge", amountCents: 17_500, date: "2026-12-01", description: "" },
      { kind: "payment", amountCents: -17_500, date: null, description: "" },
      fee("visit-a"),
      fee("visit-b"),
      // Pays the oldest charge left: visit A's fee.
      { kind: "payment", amountCents: -9_500, date: null, description: "" },
    ];
    const quote = quoteCancellation({
      terms: essential,
      startDate: "2026-12-01",
      cancelDate: "2026-12-02",
      guaranteeDays: 60,
      guaranteeApplies: false,
      minutesLeft: 0,
      membershipChargesCents: 17_500,
    });
    const settle = (feesReversed?: string[]) =>
      settleCancellation({
        quote,
        billing: "monthly",
        guaranteeDays: 60,
        ledger,
        extraVisitsReversed: [],
        feesReversed,
        cardRefundableCents: 0,
        refundCheckDays: 10,
      });
    const text = (s: ReturnType<typeof settle>) =>
      s.lines.map((l, i) => settlementLineText(l, i === 0));
    expect(text(settle())).toEqual(["Unused hours: $0.00", "Unpaid second handyman: -$95.00"]);
    const ended = settle(["visit-a", "visit-b"]);
    expect(text(ended)).toEqual(["Unused hours: $0.00", "Second handyman reversed: +$95.00"]);
    expect(ended.resultLabel).toBe("You receive: $95.00");
  });

  it("with fees taken back, the result is still minus the balance the ledger is left with", () => {
    const item = fc.record({
      kind: fc.constantFrom("membership_charge", "payment", "second_handyman", "correction"),
      amountCents: fc.integer({ min: -20_000, max: 20_000 }).filter((n) => n !== 0),
      appointmentId: fc.constantFrom("visit-0", "visit-1", null),
      description: fc.constantFrom("Second handyman reversed", "Goodwill", "Second handyman"),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 20 }), (items) => {
        // Charges are positive, payments negative, as the ledger's CHECK holds them.
        const ledger = items.map((i) => ({
          ...i,
          amountCents:
            i.kind === "payment"
              ? -Math.abs(i.amountCents)
              : i.kind === "correction"
                ? i.amountCents
                : Math.abs(i.amountCents),
          date: "2026-11-01",
        }));
        const balance = ledger.reduce((s, i) => s + i.amountCents, 0);
        const ofFee = (i: (typeof ledger)[number], id: string) =>
          i.appointmentId === id &&
          (i.kind === "second_handyman" ||
            (i.kind === "correction" && i.description.startsWith("Second handyman")));
        const reversed = ["visit-0", "visit-1"]
          .map((id) => ledger.filter((i) => ofFee(i, id)).reduce((s, i) => s + i.amountCents, 0))
          .reduce((s, net) => s + Math.max(0, net), 0);
        const quote = quoteCancellation({
          terms: complete,
          startDate: "2026-01-01",
          cancelDate: "2026-11-26",
          guaranteeDays: 60,
          minutesLeft: 300,
          membershipChargesCents: 100_000,
        });
        const settlement = settleCancellation({
          quote,
          billing: "monthly",
          guaranteeDays: 60,
          ledger,
          extraVisitsReversed: [],
          feesReversed: ["visit-0", "visit-1"],
          cardRefundableCents: 0,
          refundCheckDays: 10,
        });
        const after = balance - reversed - quote.refundCents + quote.owedCents;
        expect(settlement.resultCents).toBe(after === 0 ? 0 : -after);
      }),
    );
  });
});
