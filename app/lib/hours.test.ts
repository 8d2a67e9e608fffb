import { describe, expect, it } from "vitest";
import { hoursBalanceText, hoursLeftText, hoursMeterText, hoursText } from "./hours";

describe("hours in the meter's words (issue 39, item 11)", () => {
  it("durations in hours and minutes, exact", () => {
    expect(hoursText(1_050)).toBe("17 h 30 min");
    expect(hoursText(2_520)).toBe("42 h");
    expect(hoursText(45)).toBe("45 min");
    expect(hoursText(0)).toBe("0 min");
    expect(hoursText(90_000)).toBe("1,500 h");
    expect(hoursText(-78)).toBe("-1 h 18 min");
  });

  it("a negative bank is booked ahead of payment, never '-1 h -18 min'", () => {
    expect(hoursLeftText(-18)).toBe("18 min booked ahead of payment");
    expect(hoursLeftText(-78, true)).toBe("1 h 18 min booked ahead of payment");
    expect(hoursLeftText(150)).toBe("2 h 30 min left");
    expect(hoursLeftText(0, true)).toBe("0 min left now");
    expect(hoursBalanceText(-18)).toBe("18 min booked ahead of payment");
    expect(hoursBalanceText(735)).toBe("12 h 15 min");
  });

  it("the meter: paid, and left now or booked ahead", () => {
    expect(hoursMeterText(420, 120)).toBe("7 h paid, 2 h left now");
    expect(hoursMeterText(87, -18)).toBe("1 h 27 min paid, 18 min booked ahead of payment");
  });
});
