import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planById } from "~/content/plans";
import { bookableAhead, decideVisit, minutesBookableAhead, spendLabel } from "./bank";

/*
 * "By then" in the booking summary (issue 40, item 7): which hours are paid by the visit's day
 * and which are booked ahead of payment (a period beginning after the visit's day is not paid
 * by then).
 */

const essential = planById("essential");
const complete = planById("complete");
const none = { thisYear: 0, thisMonth: 0 };

function label(input: {
  terms: typeof essential;
  startDate: string;
  periodsCharged: number;
  minutesAvailable: number;
  visitDate: string;
  block: number;
}) {
  const split = bookableAhead({ ...input, billing: "monthly" });
  const decision = decideVisit({
    terms: input.terms,
    minutesAvailable: input.minutesAvailable,
    minutesAhead: split.paidByThen.minutes + (split.beyondPayment?.minutes ?? 0),
    block: input.block,
    counts: none,
  });
  return spendLabel(decision, input.minutesAvailable, { ...split, visitDate: input.visitDate });
}

describe("the booking summary's words match the dates", () => {
  it("the walk's case: hours arriving December 27 are not paid by a December 3 visit", () => {
    expect(
      label({
        terms: essential,
        startDate: "2026-11-27",
        periodsCharged: 1,
        minutesAvailable: 87,
        visitDate: "2026-12-03",
        block: 105,
      }),
    ).toBe(
      "Uses 1 h 45 min: 1 h 27 min left now and 18 min booked ahead of payment (its hours are charged on December 27, after the visit)",
    );
  });

  it("a December 21 visit counts the hours paid on December 18 as paid by then", () => {
    expect(
      label({
        terms: complete,
        startDate: "2026-10-18",
        periodsCharged: 2,
        minutesAvailable: 120,
        visitDate: "2026-12-21",
        block: 210,
      }),
    ).toBe(
      "Uses 3 h 30 min: 2 h left now and 1 h 30 min from the hours paid on December 18 (before the visit)",
    );
  });

  it("both: paid by then first, the rest booked ahead of payment", () => {
    expect(
      label({
        terms: essential,
        startDate: "2026-10-18",
        periodsCharged: 2,
        minutesAvailable: 60,
        visitDate: "2026-12-21",
        block: 210,
      }),
    ).toBe(
      "Uses 3 h 30 min: 1 h left now, 1 h 27 min from the hours paid on December 18 (before the visit) and 1 h 3 min booked ahead of payment (its hours are charged on January 18, 2027, after the visit)",
    );
  });

  it("hours already booked ahead take what is paid by then first", () => {
    expect(
      label({
        terms: complete,
        startDate: "2026-10-18",
        periodsCharged: 2,
        minutesAvailable: -30,
        visitDate: "2026-12-21",
        block: 210,
      }),
    ).toBe(
      "Uses 3 h 30 min: 3 h from the hours paid on December 18 (before the visit) and 30 min booked ahead of payment (its hours are charged on January 18, 2027, after the visit)",
    );
  });

  it("the split adds up to what can be booked, and the words to the visit's block", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 27 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: -200, max: 300 }),
        fc.constantFrom(105, 210),
        (startDay, charged, visitIn, available, block) => {
          const startDate = `2026-0${1 + (startDay % 9)}-${String(1 + startDay).padStart(2, "0")}`;
          const input = {
            terms: essential,
            billing: "monthly" as const,
            startDate,
            periodsCharged: charged,
          };
          const visitDate = new Date(Date.parse(`${startDate}T00:00:00Z`) + visitIn * 86_400_000)
            .toISOString()
            .slice(0, 10);
          const s = bookableAhead({ ...input, visitDate });
          expect(s.paidByThen.minutes + (s.beyondPayment?.minutes ?? 0)).toBe(
            minutesBookableAhead({ ...input, visitDate }),
          );
          // Every date counted as paid by then is on or before the visit; the other after it.
          for (const d of s.paidByThen.dates) expect(d <= visitDate).toBe(true);
          if (s.beyondPayment) expect(s.beyondPayment.date > visitDate).toBe(true);
          const text = label({ ...input, minutesAvailable: available, visitDate, block });
          const minutes = (m: string) => {
            const [, h, min] = /^(?:(\d+) h)? ?(?:(\d+) min)?$/.exec(m.trim())!;
            return Number(h ?? 0) * 60 + Number(min ?? 0);
          };
          const parts = text.match(
            /(\d+ h(?: \d+ min)?|\d+ min) (?=left now|from the hours paid|booked ahead of payment)/g,
          );
          if (text.startsWith("Uses") && text.includes(":") && parts) {
            expect(parts.reduce((sum, p) => sum + minutes(p), 0)).toBe(block);
          }
        },
      ),
    );
  });
});
