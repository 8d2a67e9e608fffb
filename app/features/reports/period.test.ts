import { describe, expect, it } from "vitest";
import { CUSTOM_RANGE_MESSAGE, periodFrom, periodQuery } from "./period";
import { niceTicks } from "./components/chart";
import { toCsv } from "./tables";

const ask = (query: Record<string, string>, today = "2026-05-20") =>
  periodFrom(new URLSearchParams(query), today);

describe("the reports' period", () => {
  it("reads each choice of the picker as of today", () => {
    expect(ask({})).toMatchObject({ choice: "this-month", from: "2026-05-01", to: "2026-05-31" });
    expect(ask({ period: "last-month" })).toMatchObject({ from: "2026-04-01", to: "2026-04-30" });
    expect(ask({ period: "last-month" }, "2026-01-15")).toMatchObject({
      from: "2025-12-01",
      to: "2025-12-31",
    });
    expect(ask({ period: "this-quarter" })).toMatchObject({ from: "2026-04-01", to: "2026-06-30" });
    expect(ask({ period: "this-quarter" }, "2026-12-31")).toMatchObject({
      from: "2026-10-01",
      to: "2026-12-31",
    });
    const year = ask({ period: "last-12-months" });
    expect(year).toMatchObject({ from: "2025-06-01", to: "2026-05-31" });
    expect(year.months).toHaveLength(12);
  });

  it("takes a custom range, and refuses a wrong one with a message", () => {
    const custom = ask({ period: "custom", from: "2026-02-10", to: "2026-03-05" });
    expect(custom).toMatchObject({ choice: "custom", from: "2026-02-10", to: "2026-03-05" });
    expect(custom.months).toEqual(["2026-02-01", "2026-03-01"]);
    expect(periodQuery(custom)).toBe("period=custom&from=2026-02-10&to=2026-03-05");
    for (const [from, to] of [
      ["2026-03-05", "2026-02-10"],
      ["2026-02-30", "2026-03-05"],
      ["yesterday", "2026-03-05"],
      ["2016-01-01", "2026-03-05"],
    ]) {
      expect(ask({ period: "custom", from, to })).toMatchObject({
        choice: "this-month",
        error: CUSTOM_RANGE_MESSAGE,
      });
    }
  });
});

describe("the charts and files", () => {
  it("puts round ticks above the highest value", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(430)).toEqual([0, 200, 400, 600]);
  });

  it("writes RFC 4180 CSV, a formula kept as text, amounts with commas quoted", () => {
    expect(
      toCsv({
        id: "t",
        title: "T",
        columns: ["Name", "Amount"],
        rows: [
          ['Ann "A", B', "-$3,808.57"],
          ["=HYPERLINK(1)", "$1.00"],
        ],
      }),
    ).toBe('Name,Amount\r\n"Ann ""A"", B","-$3,808.57"\r\n\'=HYPERLINK(1),$1.00\r\n');
  });
});
