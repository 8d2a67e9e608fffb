import { describe, expect, it } from "vitest";
import {
  closedDates,
  DAYS_AHEAD,
  isOfferableSlot,
  offeredSlots,
  slotLabel,
  zonedInstant,
} from "./slots";

describe("the intro-call calendar", () => {
  // Wednesday 25 November 2026, 10:07 in Atlanta (EST, UTC-5).
  const now = new Date("2026-11-25T15:07:00Z");

  it("offers 15-minute slots Mon-Fri 8AM-6PM New York time over the next 14 days", () => {
    const days = offeredSlots(now);
    // Thanksgiving (Thursday 26) and the day after are closed.
    expect(days.map((d) => d.date)).toEqual([
      "2026-11-25",
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
      "2026-12-04",
      "2026-12-07",
      "2026-12-08",
    ]);
    const full = days[1].slots;
    expect(full).toHaveLength(40);
    expect(full[0].toISOString()).toBe("2026-11-30T13:00:00.000Z");
    expect(full.at(-1)!.toISOString()).toBe("2026-11-30T22:45:00.000Z");
    const last = new Date(now.getTime());
    last.setUTCDate(last.getUTCDate() + DAYS_AHEAD);
    for (const day of days) for (const slot of day.slots) expect(slot < last).toBe(true);
  });

  it("never offers a past slot: today starts at the next quarter hour", () => {
    const today = offeredSlots(now)[0].slots;
    expect(today[0].toISOString()).toBe("2026-11-25T15:15:00.000Z");
    expect(today.every((slot) => slot > now)).toBe(true);
  });

  it("leaves out taken slots", () => {
    const taken = new Date("2026-11-30T13:15:00Z");
    const slots = offeredSlots(now, [taken])[1].slots.map((s) => s.toISOString());
    expect(slots).not.toContain(taken.toISOString());
    expect(slots).toContain("2026-11-30T13:30:00.000Z");
  });

  it("follows daylight saving time: 8AM is 12:00 UTC in summer", () => {
    const summer = offeredSlots(new Date("2026-07-01T04:00:00Z"));
    expect(summer[0].slots[0].toISOString()).toBe("2026-07-01T12:00:00.000Z");
    expect(zonedInstant({ year: 2026, month: 3, day: 9 }, 8 * 60).toISOString()).toBe(
      "2026-03-09T12:00:00.000Z",
    );
    expect(zonedInstant({ year: 2026, month: 3, day: 6 }, 8 * 60).toISOString()).toBe(
      "2026-03-06T13:00:00.000Z",
    );
  });

  it("recognises what it offers, and nothing else", () => {
    expect(isOfferableSlot(new Date("2026-11-30T13:00:00Z"), now)).toBe(true);
    expect(isOfferableSlot(new Date("2026-11-30T13:05:00Z"), now)).toBe(false); // not on a quarter
    expect(isOfferableSlot(new Date("2026-11-30T23:00:00Z"), now)).toBe(false); // 6PM
    expect(isOfferableSlot(new Date("2026-11-26T15:00:00Z"), now)).toBe(false); // Thanksgiving
    expect(isOfferableSlot(new Date("2026-11-27T15:00:00Z"), now)).toBe(false); // day after
    expect(isOfferableSlot(new Date("2026-11-28T15:00:00Z"), now)).toBe(false); // Saturday
    expect(isOfferableSlot(new Date("2026-11-25T15:00:00Z"), now)).toBe(false); // past
    expect(isOfferableSlot(new Date("2026-12-09T15:00:00Z"), now)).toBe(false); // day 15
    expect(isOfferableSlot(new Date("not a date"), now)).toBe(false);
  });

  it("labels a slot in Eastern time", () => {
    expect(slotLabel(new Date("2026-11-26T14:15:00Z"))).toBe("Thursday, November 26 at 9:15 AM ET");
  });

  it("knows the federal holidays as observed, and the day after Thanksgiving as a setting", () => {
    expect([...closedDates(2026)].sort()).toEqual([
      "2026-01-01",
      "2026-01-19", // Martin Luther King, Jr.
      "2026-02-16", // Washington's Birthday
      "2026-05-25", // Memorial Day
      "2026-06-19", // Juneteenth
      "2026-07-03", // Independence Day, a Saturday, observed Friday
      "2026-09-07", // Labor Day
      "2026-10-12", // Columbus Day
      "2026-11-11", // Veterans Day
      "2026-11-26", // Thanksgiving
      "2026-11-27", // the day after
      "2026-12-25",
    ]);
    const y2027 = closedDates(2027, { dayAfterThanksgiving: false });
    expect(y2027.has("2027-11-25")).toBe(true); // Thanksgiving
    expect(y2027.has("2027-11-26")).toBe(false); // open the day after
    expect(y2027.has("2027-06-18")).toBe(true); // Juneteenth, a Saturday
    expect(y2027.has("2027-12-24")).toBe(true); // Christmas, a Saturday
    expect(y2027.has("2027-12-31")).toBe(true); // New Year's Day 2028, a Saturday
    expect(closedDates(2028).has("2028-01-01")).toBe(false); // observed the year before
    expect(closedDates(2028).has("2028-05-29")).toBe(true); // last Monday of May
    expect(closedDates(2023).has("2023-01-02")).toBe(true); // a Sunday, observed Monday
  });

  it("never offers a closed day; the day after Thanksgiving opens when the business says so", () => {
    const opens = offeredSlots(now, [], { dayAfterThanksgiving: false }).map((d) => d.date);
    expect(opens.slice(0, 3)).toEqual(["2026-11-25", "2026-11-27", "2026-11-30"]);
    expect(
      isOfferableSlot(new Date("2026-11-27T15:00:00Z"), now, { dayAfterThanksgiving: false }),
    ).toBe(true);
    const christmas = offeredSlots(new Date("2026-12-21T12:00:00Z")).map((d) => d.date);
    expect(christmas).not.toContain("2026-12-25");
    expect(christmas).not.toContain("2027-01-01");
    expect(christmas).toContain("2026-12-24");
  });
});
