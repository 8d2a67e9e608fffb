import { describe, expect, it } from "vitest";
import {
  dateTimeLabel,
  instantLabel,
  plainDate,
  addYears,
  businessToday,
  DATE_WINDOW,
  isWithinWindow,
  closedDays,
  defaultClosedDays,
  earliestBookableStart,
  isBusinessDay,
  longDate,
  minuteLabel,
  nextBusinessDay,
  addMonths,
  businessNow,
  businessWallClock,
  calendarMonth,
  timestampLabel,
} from "./business-calendar";
import { hoursText } from "~/lib/hours";

describe("the business calendar", () => {
  it("computes the federal holidays, observed, and the day after Thanksgiving", () => {
    expect(defaultClosedDays(2026).map((d) => d.date)).toEqual([
      "2026-01-01",
      "2026-01-19",
      "2026-02-16",
      "2026-05-25",
      "2026-06-19",
      "2026-07-03", // 4 July is a Saturday
      "2026-09-07",
      "2026-10-12",
      "2026-11-11",
      "2026-11-26",
      "2026-11-27",
      "2026-12-25",
    ]);
    // 2027: Christmas on a Saturday, New Year's Day 2028 too (observed Friday 31 December).
    const y2027 = defaultClosedDays(2027).map((d) => d.date);
    expect(y2027).toContain("2027-12-24");
    expect(y2027).toContain("2027-12-31");
    expect(y2027).toContain("2027-11-25");
    expect(y2027).toContain("2027-11-26");
    expect(defaultClosedDays(2028).map((d) => d.date)).not.toContain("2028-01-01");
    // 2028: Juneteenth is a Monday, 4 July a Tuesday.
    expect(defaultClosedDays(2028).map((d) => d.date)).toEqual(
      expect.arrayContaining(["2028-06-19", "2028-07-04", "2028-11-23", "2028-11-24"]),
    );
  });

  it("lets staff close extra days and reopen default ones", () => {
    const closed = closedDays([
      { date: "2026-12-24", closed: true, note: "Christmas Eve" },
      { date: "2026-11-11", closed: false },
    ]);
    expect(closed.reason("2026-12-24")).toBe("Christmas Eve");
    expect(closed.isClosed("2026-11-11")).toBe(false);
    expect(closed.reason("2026-11-26")).toBe("Thanksgiving Day");
    expect(isBusinessDay("2026-11-27", closed)).toBe(false);
    expect(isBusinessDay("2026-11-28", closed)).toBe(false); // Saturday
    expect(isBusinessDay("2026-11-30", closed)).toBe(true);
  });

  it("skips weekends and closed days to the next business day", () => {
    const closed = closedDays();
    expect(nextBusinessDay("2026-11-25", closed)).toBe("2026-11-30");
    expect(nextBusinessDay("2026-11-24", closed)).toBe("2026-11-25");
    // Friday 3 PM → Monday 3 PM; the eve of Thanksgiving → the Monday after.
    expect(earliestBookableStart(new Date("2026-11-20T20:00:00Z"), closed).toISOString()).toBe(
      "2026-11-23T20:00:00.000Z",
    );
    expect(earliestBookableStart(new Date("2026-11-25T15:00:00Z"), closed).toISOString()).toBe(
      "2026-11-30T15:00:00.000Z",
    );
  });

  it("knows today where the business is, not where the server is", () => {
    // 02:00 UTC on the 25th is still the 24th in Atlanta.
    expect(businessToday(new Date("2026-11-25T02:00:00Z"))).toBe("2026-11-24");
  });

  it("speaks US dates, 12-hour times and durations", () => {
    expect(longDate("2026-11-27")).toBe("Friday, November 27, 2026");
    expect(minuteLabel(0)).toBe("12:00 AM");
    expect(minuteLabel(570)).toBe("9:30 AM");
    expect(minuteLabel(720)).toBe("12:00 PM");
    expect(minuteLabel(810)).toBe("1:30 PM");
    expect(hoursText(105)).toBe("1 h 45 min");
    expect(hoursText(210)).toBe("3 h 30 min");
    expect(hoursText(735)).toBe("12 h 15 min");
    expect(hoursText(120)).toBe("2 h");
  });
});

describe("the window of typed dates (ADR 039)", () => {
  it("moves by whole years, 29 February to the 28th in a common year", () => {
    expect(addYears("2028-02-29", 1)).toBe("2029-02-28");
    expect(addYears("2028-02-29", -4)).toBe("2024-02-29");
    expect(addYears("2026-11-26", -2)).toBe("2024-11-26");
  });

  it("takes real days from two years back to two years ahead, its ends included", () => {
    const today = "2026-11-26";
    const window = DATE_WINDOW.schedule;
    expect(isWithinWindow("2028-11-26", today, window)).toBe(true);
    expect(isWithinWindow("2024-11-26", today, window)).toBe(true);
    for (const date of ["2028-11-27", "2024-11-25", "9999-12-31", "9999-99-99", "2027-02-29", ""])
      expect(isWithinWindow(date, today, window)).toBe(false);
    expect(isWithinWindow("2027-11-27", today, DATE_WINDOW.membershipStart)).toBe(false);
  });
});

describe("dates and times as people read them (the rough edges, item 1)", () => {
  it("writes a calendar date in words, never YYYY-MM-DD", () => {
    expect(plainDate("2026-11-27")).toBe("November 27, 2026");
    expect(plainDate("2027-01-05")).toBe("January 5, 2027");
  });

  it("writes a business day and a wall-clock time as 'Tue, Dec 1, 2:00 PM'", () => {
    expect(dateTimeLabel("2026-12-01", "14:00")).toBe("Tue, Dec 1, 2:00 PM");
    expect(dateTimeLabel("2026-12-01", "09:30:00")).toBe("Tue, Dec 1, 9:30 AM");
    expect(dateTimeLabel("2026-12-06", 0)).toBe("Sun, Dec 6, 12:00 AM");
  });

  it("reads an instant on the business's wall clock, whatever the machine's zone", () => {
    // 19:00 UTC is 2:00 PM in Atlanta in December (EST) and 3:00 PM in June (EDT).
    expect(instantLabel(new Date("2026-12-01T19:00:00Z"))).toBe("Tue, Dec 1, 2:00 PM");
    expect(instantLabel("2026-06-02T19:00:00Z")).toBe("Tue, Jun 2, 3:00 PM");
    // Just after midnight UTC is still the evening before in Atlanta.
    expect(instantLabel("2026-12-02T01:30:00Z")).toBe("Tue, Dec 1, 8:30 PM");
  });
});

describe("one date helper per job (issue 41)", () => {
  it("adds calendar months, the 31st becoming the month's last day", () => {
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2028-01-31", 1)).toBe("2028-02-29");
    expect(addMonths("2026-03-15", -3)).toBe("2025-12-15");
    expect(addMonths("2026-11-30", 14)).toBe("2028-01-30");
    expect(calendarMonth("2026-02-14")).toEqual({ first: "2026-02-01", last: "2026-02-28" });
  });

  it("plainDate: the long form, or shorter where a page asks", () => {
    expect(plainDate("2026-12-03")).toBe("December 3, 2026");
    expect(plainDate("2026-12-03", { today: "2026-01-10" })).toBe("December 3");
    expect(plainDate("2027-01-03", { today: "2026-12-10" })).toBe("January 3, 2027");
    expect(plainDate("2026-03-05", { month: "short" })).toBe("Mar 5, 2026");
    expect(plainDate("2026-03-05", { month: "short", year: false })).toBe("Mar 5");
  });

  it("reads the business's clock", () => {
    expect(businessNow(new Date("2026-12-02T01:30:00Z"))).toEqual({
      date: "2026-12-01",
      time: "20:30",
    });
    expect(businessNow(new Date("2026-07-01T04:05:00Z"))).toEqual({
      date: "2026-07-01",
      time: "00:05",
    });
    expect(timestampLabel("2026-11-21T14:15:00Z")).toBe("Nov 21, 2026, 9:15 AM");
    expect(minuteLabel("14:30:00")).toBe("2:30 PM");
    expect(minuteLabel(0)).toBe("12:00 AM");
  });
});

describe("the wall clock, read by quarter hour", () => {
  /** What Intl alone says the wall clock reads. */
  function intlWallClock(instant: Date, timeZone: string) {
    const parts = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    }).formatToParts(instant);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return {
      date: `${get("year")}-${String(get("month")).padStart(2, "0")}-${String(get("day")).padStart(2, "0")}`,
      minute: get("hour") * 60 + get("minute"),
    };
  }

  it("agrees with Intl on every minute around clock changes, in zones with odd offsets too", () => {
    const zones = [
      ["America/New_York", "2026-03-08T05:00:00Z"],
      ["America/New_York", "2026-11-01T04:30:00Z"],
      ["Australia/Lord_Howe", "2026-04-04T14:00:00Z"],
      ["Asia/Kathmandu", "2026-06-01T00:00:00Z"],
      ["Pacific/Kiritimati", "2026-12-31T09:00:00Z"],
    ] as const;
    for (const [zone, around] of zones) {
      const start = Date.parse(around) - 2 * 3_600_000;
      for (let instant = start; instant <= start + 4 * 3_600_000; instant += 60_000 + 7_001) {
        const at = new Date(instant);
        const read = businessWallClock(at, zone);
        expect({ date: read.date, minute: read.minute }, `${zone} ${at.toISOString()}`).toEqual(
          intlWallClock(at, zone),
        );
      }
    }
  });
});
