import { describe, expect, it } from "vitest";
import { formatPhone, phoneSearchDigits, storedPhone } from "./phone";

describe("one mobile number, one format (issue 40, item 8)", () => {
  it("shows every way of writing a US number as (404) 555-0181", () => {
    for (const written of ["+14045550181", "4045550181", "(404) 555-0181", "1-404-555-0181"])
      expect(formatPhone(written)).toBe("(404) 555-0181");
    expect(formatPhone(null)).toBeNull();
    expect(formatPhone("+44 20 7946 0958")).toBe("+44 20 7946 0958");
  });

  it("stores a US number as +1 and ten digits, anything else as typed", () => {
    expect(storedPhone(" (404) 555-0181 ")).toBe("+14045550181");
    expect(storedPhone("")).toBeNull();
    expect(storedPhone("ext. 12")).toBe("ext. 12");
  });

  it("searches by the digits typed", () => {
    expect(phoneSearchDigits("(404) 555")).toBe("404555");
    expect(phoneSearchDigits("Maria")).toBeNull();
  });
});
