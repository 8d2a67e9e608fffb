import { describe, expect, it } from "vitest";
import { centsAsDecimal, formatCents, formatPrice, parseDollars } from "./money";

describe("money as people read it", () => {
  it("formats cents with the dollar sign, separators and cents", () => {
    expect(formatCents(1234567)).toBe("$12,345.67");
    expect(formatCents(-1000)).toBe("-$10.00");
    expect(formatPrice(15000)).toBe("$150");
    expect(formatPrice(8429)).toBe("$84.29");
  });

  it("gives an input's plain amount, empty for none", () => {
    expect(centsAsDecimal(1234567)).toBe("12345.67");
    expect(centsAsDecimal(5)).toBe("0.05");
    expect(centsAsDecimal(null)).toBe("");
  });

  it("reads a typed amount, within the caller's bounds", () => {
    expect(parseDollars("$1,234.5")).toBe(123450);
    expect(parseDollars(" 12 ")).toBe(1200);
    expect(parseDollars("1234567")).toBe(123456700);
    expect(parseDollars("1234567", { plainDigits: 6 })).toBeUndefined();
    expect(parseDollars("$10,000,000.00", { maxLength: 13 })).toBeUndefined();
    expect(parseDollars("12.345")).toBeUndefined();
    expect(parseDollars("ten")).toBeUndefined();
  });
});
