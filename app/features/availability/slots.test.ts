import { describe, expect, it } from "vitest";
import { closedDays } from "~/lib/business-calendar";
import { DEFAULT_WORKING_HOURS, offerVisitSlots, type Handyman } from "./slots";

function handyman(id: string, extra: Partial<Handyman> = {}): Handyman {
  return { id, name: id, hours: DEFAULT_WORKING_HOURS, timeOff: [], busy: new Map(), ...extra };
}

// Tuesday 24 November 2026, 10:10 AM in Atlanta.
const now = new Date("2026-11-24T15:10:00Z");
const closed = closedDays();

describe("offering visit slots", () => {
  it("offers the next 4 weeks from one business day ahead, never on a closed day", () => {
    const days = offerVisitSlots({ now, block: 210, closed, handymen: [handyman("ann")] });
    const dates = days.map((d) => d.date);
    expect(dates[0]).toBe("2026-11-25");
    expect(dates).not.toContain("2026-11-26"); // Thanksgiving
    expect(dates).not.toContain("2026-11-27"); // the day after
    expect(dates).not.toContain("2026-11-28");
    expect(dates).not.toContain("2026-12-25");
    expect(dates.at(-1)).toBe("2026-12-22");
    // Wednesday: not before 10:10 AM (one business day ahead), starts every 30 minutes.
    expect(days[0].slots.map((s) => s.label).slice(0, 3)).toEqual([
      "10:30 AM",
      "11:00 AM",
      "11:30 AM",
    ]);
    // A 3 h 30 min block ends by 6:00 PM: the last start is 2:30 PM.
    expect(days[1].slots.at(0)!.label).toBe("8:00 AM");
    expect(days[1].slots.at(-1)!.label).toBe("2:30 PM");
    expect(days[1].label).toBe("Monday, November 30");
  });

  it("offers nothing on Thanksgiving even when asked for that day only", () => {
    expect(
      offerVisitSlots({
        now,
        block: 105,
        closed,
        handymen: [handyman("ann")],
        onlyDate: "2026-11-26",
      }),
    ).toEqual([]);
    // Nor in the past, nor beyond the window.
    expect(
      offerVisitSlots({
        now,
        block: 105,
        closed,
        handymen: [handyman("ann")],
        onlyDate: "2026-11-24",
      }),
    ).toEqual([]);
  });

  it("leaves out booked visits, time off and hours outside the handyman's week", () => {
    const ann = handyman("ann", {
      busy: new Map([["2026-11-30", [[9 * 60, 12 * 60 + 30]] as const]]),
      timeOff: [{ startDate: "2026-12-01", endDate: "2026-12-02" }],
      hours: [null, { start: 9 * 60, end: 15 * 60 }, null, null, null, null, null],
    });
    const days = offerVisitSlots({ now, block: 105, closed, handymen: [ann] });
    expect(days.map((d) => d.date)).toEqual([
      "2026-11-30",
      "2026-12-07",
      "2026-12-14",
      "2026-12-21",
    ]);
    expect(days[0].slots.map((s) => s.label)).toEqual(["12:30 PM", "1:00 PM"]);
    // The day step asks only which days have time: the same days, each with its first start.
    const firstOnly = offerVisitSlots({
      now,
      block: 105,
      closed,
      handymen: [ann],
      firstStartOnly: true,
    });
    expect(firstOnly.map((d) => d.date)).toEqual(days.map((d) => d.date));
    expect(firstOnly.map((d) => d.slots)).toEqual(days.map((d) => d.slots.slice(0, 1)));
  });

  it("puts the dedicated handyman first and otherwise shows who else is free", () => {
    const ann = handyman("ann", { busy: new Map([["2026-11-30", [[8 * 60, 18 * 60]] as const]]) });
    const bob = handyman("bob");
    const days = offerVisitSlots({
      now,
      block: 105,
      closed,
      handymen: [bob, ann],
      dedicatedId: "ann",
    });
    const wednesday = days.find((d) => d.date === "2026-11-25")!;
    expect(wednesday.slots[0].handymen.map((h) => h.id)).toEqual(["ann", "bob"]);
    expect(wednesday.slots[0].withDedicated).toBe(true);
    const monday = days.find((d) => d.date === "2026-11-30")!;
    expect(monday.slots[0].handymen.map((h) => h.id)).toEqual(["bob"]);
    expect(monday.slots[0].withDedicated).toBe(false);
  });
});

describe("offering a visit with two handymen (ADR 091)", () => {
  it("offers only the starts where two handymen are free for the whole block, the dedicated first", () => {
    const date = "2026-11-30";
    // Ann (dedicated) is busy 9:00-11:00; Bob is off on Monday after noon; Cy is away.
    const ann = handyman("ann", { busy: new Map([[date, [[540, 660]]]]) });
    const bob = handyman("bob", {
      hours: DEFAULT_WORKING_HOURS.map((h, wd) => (wd === 1 ? { start: 480, end: 720 } : h)),
    });
    const cy = handyman("cy", { timeOff: [{ startDate: date, endDate: date }] });
    const [day] = offerVisitSlots({
      now,
      block: 105,
      closed,
      handymen: [bob, cy, ann],
      dedicatedId: "ann",
      onlyDate: date,
      handymenNeeded: 2,
    });
    // Ann and Bob are both free only 11:00 to 12:00: no 1 h 45 min start fits; before 9:00,
    // Ann's visit begins within the block.
    expect(day).toBeUndefined();
    const later = offerVisitSlots({
      now,
      block: 105,
      closed,
      handymen: [bob, cy, ann, handyman("dee")],
      dedicatedId: "ann",
      onlyDate: date,
      handymenNeeded: 2,
    })[0];
    // With Dee: 8:00 is Bob and Dee (Ann busy); at 11:00 Ann comes first, with Dee (Bob's
    // day ends at noon, inside the block).
    expect(later.slots[0]).toMatchObject({ startMinute: 480, withDedicated: false });
    expect(later.slots[0].handymen.map((h) => h.id)).toEqual(["bob", "dee"]);
    const eleven = later.slots.find((s) => s.startMinute === 660)!;
    expect(eleven.handymen.map((h) => h.id).slice(0, 2)).toEqual(["ann", "dee"]);
    // One handyman free is never enough.
    const one = offerVisitSlots({
      now,
      block: 105,
      closed,
      handymen: [ann],
      onlyDate: date,
      handymenNeeded: 2,
    });
    expect(one).toEqual([]);
  });
});
