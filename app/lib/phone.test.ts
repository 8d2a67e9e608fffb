import { describe, expect, it } from "vitest";
import { e164, formatPhone, phoneHref, phoneSearchDigits, storedPhone } from "./phone";

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

describe("one number, one link and one texting form", () => {
  it("links a number for calling, in E.164 or as written", () => {
    expect(phoneHref("(404) 555-0142")).toBe("tel:+14045550142");
    expect(phoneHref("+1 404 555 0142")).toBe("tel:+14045550142");
    expect(phoneHref("(404) 555-0181", { asWritten: true })).toBe("tel:4045550181");
    expect(phoneHref("+14045550181", { asWritten: true })).toBe("tel:+14045550181");
  });

  it("gives a US number's texting form, null for any other", () => {
    expect(e164("(404) 555-0181")).toBe("+14045550181");
    expect(e164("1-404-555-0181")).toBe("+14045550181");
    expect(e164("+44 20 7946 0958")).toBeNull();
    expect(e164(null)).toBeNull();
  });
});
