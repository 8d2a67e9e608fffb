import { describe, expect, it } from "vitest";
import { codeMobile } from "./mobile-number.server";

describe("the numbers a code may be texted to (ADR 086)", () => {
  it("a US number, however it is typed, as E.164", () => {
    expect(codeMobile("(404) 555-0181")).toBe("+14045550181");
    expect(codeMobile("404.234.5678")).toBe("+14042345678");
    expect(codeMobile("+1 770 555 0127")).toBe("+17705550127");
  });

  it("refuses premium-rate, toll-free, other countries and nonsense", () => {
    for (const number of [
      "(900) 555-1234",
      "(800) 555-0100",
      "(833) 234-5678",
      "(844) 234-5678",
      "(855) 234-5678",
      "(866) 234-5678",
      "(877) 234-5678",
      "(888) 234-5678",
      "+1 416 555 0100",
      "+44 20 7946 0958",
      "(404) 123-4567",
      "12345",
      "",
      "x".repeat(100),
    ])
      expect(codeMobile(number), number).toBeNull();
  });
});
