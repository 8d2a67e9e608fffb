import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planById } from "~/content/plans";
import {
  quoteCancellation,
  refundHowLabel,
  settleCancellation,
  settlementLineText,
  settlementOfficeText,
  type LedgerItem,
  type SettlementLine,
} from "./settlement";
import { addMonths } from "~/lib/business-calendar";

/*
 * Settlement lines true to the ledger (issue 39, item 3; ADR 081): each line of a cancellation's
 * settlement comes from its own entries. A reversed charge is not unpaid; an 'Unpaid November
 * charge' is the unpaid part of that charge.
 */

const complete = planById("complete");
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function settle(ledger: LedgerItem[], extras: string[] = [], cardRefundableCents = 0) {
  const quote = quoteCancellation({
    terms: complete,
    startDate: "2026-08-19",
    cancelDate: "2026-11-27",
    guaranteeDays: 60,
    minutesLeft: 840,
    membershipChargesCents: 4 * 29_500,
  });
  return {
    quote,
    settlement: settleCancellation({
      quote,
      billing: "monthly",
      guaranteeDays: 60,
      ledger,
      extraVisitsReversed: extras,
      cardRefundableCents,
      refundCheckDays: 10,
    }),
  };
}

const charge = (periodStart: string): LedgerItem => ({
  kind: "membership_charge",
  amountCents: 29_500,
  date: periodStart,
  periodStart,
  description: "Complete, monthly",
});
const payment = (cents: number): LedgerItem => ({
  kind: "payment",
  amountCents: -cents,
  date: null,
  description: "Payment by check",
});

describe("the walk's case", () => {
  // Maria: August to October paid, November's $295 not paid at all; a $150 extra visit booked
  // in November, then reversed when a closure canceled it.
  const ledger: LedgerItem[] = [
    charge("2026-08-19"),
    payment(29_500),
    charge("2026-09-19"),
    payment(29_500),
    charge("2026-10-19"),
    payment(29_500),
    charge("2026-11-19"),
    {
      kind: "extra_visit",
      amountCents: 15_000,
      date: "2026-11-24",
      appointmentId: "visit-nov-24",
      description: "Extra visit on November 24, 2026 (1 h 45 min)",
    },
    {
      kind: "correction",
      amountCents: -15_000,
      date: "2026-11-24",
      appointmentId: "visit-nov-24",
      description: "Extra visit on November 24, 2026 canceled: charge reversed",
    },
  ];

  it("gives 'Unpaid November charge: -$295.00' and no extra-visit line", () => {
    const { settlement } = settle(ledger);
    const lines = settlement.lines.map((l, i) => settlementLineText(l, i === 0));
    expect(lines).toEqual(["Unused hours: $1,180.00", "Unpaid November charge: -$295.00"]);
    expect(lines.join("\n")).not.toMatch(/extra visit/i);
    expect(settlement.resultLabel).toBe("You receive: $885.00");
  });

  it("manual mode: the member is told the office sends it by check or bank transfer", () => {
    const { settlement } = settle(ledger, [], 0);
    expect(settlement.howLabel).toBe(
      "We will send you $885.00 by check or bank transfer within 10 days.",
    );
    const office = settlementOfficeText(settlement, "Maria Alvarez");
    expect(office[0]).toBe("We owe Maria Alvarez $885.00.");
    expect(office).toContain(
      "Send Maria Alvarez $885.00 by check or bank transfer within 10 days (Maria Alvarez has been told so), then press 'Mark refund paid' under 'Refunds to pay'.",
    );
    expect(office.join("\n")).not.toMatch(/You receive|your account|We will send you/);
  });

  it("Stripe with card payments: back to the card; the office is told Stripe does it", () => {
    const { settlement } = settle(ledger, [], 88_500);
    expect(settlement.howLabel).toBe("Back to the card you paid with, within 10 days.");
    const office = settlementOfficeText(settlement, "Maria Alvarez");
    expect(office).toContain(
      "$885.00 goes back to Maria Alvarez's card through Stripe on its own.",
    );
    expect(office.join("\n")).not.toMatch(/Mark refund paid/);
  });

  it("more than the card payments: the rest by check or bank transfer, each amount said", () => {
    expect(refundHowLabel(59_764, 17_500, 10)).toBe(
      "$175.00 goes back to the card you paid with, and we will send you $422.64 by check or bank transfer, within 10 days.",
    );
    expect(refundHowLabel(59_764, 0, 10)).toBe(
      "We will send you $597.64 by check or bank transfer within 10 days.",
    );
  });
});

describe("each line from its own entries", () => {
  it("a partly paid charge shows its unpaid part; a payment for a period pays that period", () => {
    const { settlement } = settle([
      charge("2026-10-19"),
      charge("2026-11-19"),
      { ...payment(29_500), periodStart: "2026-11-19", description: "Card payment" },
      payment(10_000),
    ]);
    expect(settlement.lines.slice(1)).toEqual([{ label: "Unpaid October charge", cents: -19_500 }]);
  });

  it("a fee's reversal takes the fee, not the extra visit of the same visit", () => {
    const visit = { date: "2026-11-24", appointmentId: "v1" };
    const { settlement } = settle([
      { kind: "extra_visit", amountCents: 15_000, description: "Extra visit", ...visit },
      { kind: "shopping_fee", amountCents: 1_000, description: "Shopping fee", ...visit },
      { kind: "correction", amountCents: -1_000, description: "Fee reversed", ...visit },
    ]);
    expect(settlement.lines.slice(1)).toEqual([{ label: "Unpaid extra visit", cents: -15_000 }]);
  });

  it("a paid charge reversed leaves its money as a credit; an upcoming extra visit paid comes back", () => {
    const { settlement } = settle(
      [
        charge("2026-11-19"),
        {
          kind: "extra_visit",
          amountCents: 15_000,
          date: "2026-11-20",
          appointmentId: "a",
          description: "",
        },
        {
          kind: "extra_visit",
          amountCents: 15_000,
          date: "2026-12-02",
          appointmentId: "b",
          description: "",
        },
        payment(59_500),
        {
          kind: "correction",
          amountCents: -15_000,
          date: "2026-11-20",
          appointmentId: "a",
          description: "",
        },
      ],
      ["b"],
    );
    expect(settlement.lines.slice(1)).toEqual([
      { label: "Credit on your account", cents: 15_000 },
      { label: "Extra visit reversed", cents: 15_000 },
    ]);
  });

  it("an upcoming extra visit not paid is reversed, not listed as unpaid", () => {
    const { settlement } = settle(
      [
        charge("2026-11-19"),
        payment(29_500),
        {
          kind: "extra_visit",
          amountCents: 15_000,
          date: "2026-12-02",
          appointmentId: "b",
          description: "",
        },
      ],
      ["b"],
    );
    expect(settlement.lines.slice(1)).toEqual([]);
  });
});

/* ---------- the property: histories drawn at random, every line checked ---------- */

/** A charge of the drawn history, known by the test as an object (not by the ledger's keys). */
type ModelCharge = {
  item: LedgerItem;
  label: string;
  reversed: number;
  /** Paid by payments naming it (a card payment for its period). */
  paidNamed: number;
  reversible: boolean;
};

type Step =
  | { t: "month" }
  | { t: "extra" }
  | { t: "part"; cents: number }
  | { t: "fee" }
  | { t: "pay"; cents: number }
  | { t: "payPeriod"; pick: number; cents: number }
  | { t: "reverse"; pick: number; part: number }
  | { t: "rebook"; pick: number }
  | { t: "goodwill"; cents: number }
  | { t: "surcharge"; cents: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ t: "month" }),
  fc.constant<Step>({ t: "extra" }),
  fc.integer({ min: 100, max: 30_000 }).map<Step>((cents) => ({ t: "part", cents })),
  fc.constant<Step>({ t: "fee" }),
  fc.integer({ min: 1, max: 60_000 }).map<Step>((cents) => ({ t: "pay", cents })),
  fc
    .record({ pick: fc.nat(), cents: fc.integer({ min: 1, max: 40_000 }) })
    .map<Step>((s) => ({ t: "payPeriod", ...s })),
  fc
    .record({ pick: fc.nat(), part: fc.integer({ min: 1, max: 4 }) })
    .map<Step>((s) => ({ t: "reverse", ...s })),
  fc.nat().map<Step>((pick) => ({ t: "rebook", pick })),
  fc.integer({ min: 1, max: 20_000 }).map<Step>((cents) => ({ t: "goodwill", cents })),
  fc.integer({ min: 1, max: 20_000 }).map<Step>((cents) => ({ t: "surcharge", cents })),
);

/**
 * Builds the ledger a history writes, and what the test knows of it: each charge, what its own
 * reversals took and what payments naming it paid, and the credits no charge is named by.
 */
function build(steps: Step[]) {
  const ledger: LedgerItem[] = [];
  const charges: ModelCharge[] = [];
  let general = 0;
  let months = 0;
  let visits = 0;
  let parts = 0;
  const post = (item: LedgerItem) => ledger.push(item);
  const addCharge = (item: LedgerItem, label: string, reversible: boolean) => {
    post(item);
    charges.push({ item, label, reversed: 0, paidNamed: 0, reversible });
  };
  for (const s of steps) {
    switch (s.t) {
      case "month": {
        const periodStart = addMonths("2025-01-19", months++);
        addCharge(
          charge(periodStart),
          `Unpaid ${MONTHS[Number(periodStart.slice(5, 7)) - 1]} charge`,
          false,
        );
        break;
      }
      case "extra": {
        const appointmentId = `visit-${visits++}`;
        addCharge(
          {
            kind: "extra_visit",
            amountCents: 15_000,
            date: "2026-11-24",
            appointmentId,
            description: "Extra visit",
          },
          "Unpaid extra visit",
          true,
        );
        break;
      }
      case "part": {
        const partId = `part-${parts++}`;
        const description = `Part: Washer ${partId} (visit on November 12, 2026)`;
        addCharge(
          {
            kind: "part",
            amountCents: s.cents,
            date: "2026-11-12",
            appointmentId: `visit-${visits++}`,
            partId,
            description,
          },
          `Unpaid part: Washer ${partId} (visit on November 12, 2026)`,
          true,
        );
        break;
      }
      case "fee": {
        // The fee of a visit that may be an extra visit too: its reversal must find the fee.
        const extra = charges.filter((c) => c.item.kind === "extra_visit");
        const appointmentId = extra.length
          ? extra[extra.length - 1].item.appointmentId!
          : `visit-${visits++}`;
        if (
          charges.some(
            (c) => c.item.kind === "shopping_fee" && c.item.appointmentId === appointmentId,
          )
        )
          break;
        addCharge(
          {
            kind: "shopping_fee",
            amountCents: 1_000,
            date: "2026-11-24",
            appointmentId,
            description: "Shopping fee",
          },
          "Unpaid shopping fee",
          true,
        );
        break;
      }
      case "pay":
        post(payment(s.cents));
        general += s.cents;
        break;
      case "payPeriod": {
        const periods = charges.filter((c) => c.item.kind === "membership_charge");
        if (!periods.length) break;
        const c = periods[s.pick % periods.length];
        post({
          ...payment(s.cents),
          periodStart: c.item.periodStart,
          description: "Card payment",
          fromProvider: true,
        });
        const left = c.item.amountCents - c.paidNamed;
        c.paidNamed += Math.min(left, s.cents);
        general += s.cents - Math.min(left, s.cents);
        break;
      }
      case "reverse": {
        // A reversal of a charge's own (an extra visit or fee in full, a part in full or in part).
        const open = charges.filter((c) => c.reversible && c.item.amountCents - c.reversed > 0);
        if (!open.length) break;
        const c = open[s.pick % open.length];
        const left = c.item.amountCents - c.reversed;
        const cents = c.item.kind === "part" ? Math.ceil(left / s.part) : left;
        c.reversed += cents;
        post({
          kind: "correction",
          amountCents: -cents,
          date: c.item.date,
          appointmentId: c.item.appointmentId,
          partId: c.item.partId,
          description: "Reversed",
        });
        break;
      }
      case "rebook": {
        // An extra visit moved: its charge reversed, then charged again on the same visit.
        const open = charges.filter((c) => c.item.kind === "extra_visit" && c.reversed === 0);
        if (!open.length) break;
        const c = open[s.pick % open.length];
        c.reversed = 15_000;
        post({
          kind: "correction",
          amountCents: -15_000,
          date: c.item.date,
          appointmentId: c.item.appointmentId,
          description: "Moved: charge reversed",
        });
        addCharge({ ...c.item }, "Unpaid extra visit", true);
        break;
      }
      case "goodwill":
        post({
          kind: "correction",
          amountCents: -s.cents,
          date: null,
          description: "Goodwill credit",
        });
        general += s.cents;
        break;
      case "surcharge":
        addCharge(
          { kind: "correction", amountCents: s.cents, date: null, description: "Key cut" },
          "Unpaid: Key cut",
          false,
        );
        break;
    }
  }
  return { ledger, charges, general };
}

describe("the settlement's lines against their entries (property)", () => {
  // Seed -113645750 once found two upcoming extra visits listed in the order they were given;
  // they are listed in the ledger's order (it is kept as a case below).
  const lineProperty = () =>
    fc.property(
      fc.array(step, { maxLength: 40 }),
      fc.array(fc.nat(), { maxLength: 3 }),
      fc.integer({ min: 0, max: 200_000 }),
      (steps, upcomingPicks, cardRefundable) => {
        const { ledger, charges, general } = build(steps);
        // Upcoming extra visits the cancel reverses: some still-charged extra visits.
        const live = charges.filter((c) => c.item.kind === "extra_visit" && c.reversed === 0);
        const upcoming = [
          ...new Set(upcomingPicks.filter(() => live.length).map((p) => live[p % live.length])),
        ];
        const { quote, settlement } = settle(
          ledger,
          upcoming.map((c) => c.item.appointmentId!),
          cardRefundable,
        );

        // What the test expects, in closed form: each charge's own net (less its reversals and
        // the payments naming it), then the other credits paying the oldest first.
        let before = 0;
        const expected: SettlementLine[] = [];
        const back: SettlementLine[] = [];
        for (const c of charges) {
          const net = c.item.amountCents - c.reversed - c.paidNamed;
          const unpaid = Math.min(net, Math.max(0, before + net - general));
          before += net;
          if (upcoming.includes(c)) {
            if (15_000 - unpaid)
              back.push({ label: "Extra visit reversed", cents: 15_000 - unpaid });
          } else if (unpaid > 0) expected.push({ label: c.label, cents: -unpaid });
        }
        const credit = general - before;
        if (credit > 0) expected.push({ label: "Credit on your account", cents: credit });
        expect(settlement.lines).toEqual([
          { label: "Unused hours", cents: quote.refundCents },
          ...expected,
          ...back,
        ]);

        // Every line from its own entries: never more than its charge less its reversals, none
        // for a charge reversed in full.
        for (const line of settlement.lines.filter((l) => l.label.startsWith("Unpaid"))) {
          const own = charges.filter((c) => c.label === line.label && !upcoming.includes(c));
          expect(own.some((c) => -line.cents <= c.item.amountCents - c.reversed)).toBe(true);
        }
        // And the total is the ledger's: minus the balance the cancel leaves.
        const balance = ledger.reduce((sum, i) => sum + i.amountCents, 0);
        const after = balance - 15_000 * upcoming.length - quote.refundCents;
        expect(settlement.resultCents).toBe(-after);
        // The refund's words say what goes to a card and what the office sends.
        if (settlement.resultCents > 0) {
          expect(settlement.toCardCents).toBe(Math.min(settlement.resultCents, cardRefundable));
        }
      },
    );

  it("every line is its own charge's unpaid part, reversed charges never unpaid, the credits paying the oldest first", () => {
    fc.assert(lineProperty(), { numRuns: 500 });
  });
  it("lists upcoming extra visits reversed in the ledger's order (seed -113645750)", () => {
    fc.assert(lineProperty(), { numRuns: 100, seed: -113645750 });
  });
});
