import { describe, expect, it } from "vitest";
import { membershipMinutesKind, membershipMoneyKind } from "~/db/schema";
import { statementKindLabel, statementLedgerLabel } from "./statement-kinds";

describe("statement kinds in plain words (the rough edges, item 3)", () => {
  it("names the kinds the walk-through saw as codes", () => {
    expect(statementKindLabel("money", "extra_visit")).toBe("Extra visit");
    expect(statementKindLabel("hours", "reserve")).toBe("Hours reserved for a visit");
    expect(statementKindLabel("hours", "release")).toBe("Hours released");
    expect(statementKindLabel("hours", "accrual")).toBe("Hours for the period");
    expect(statementLedgerLabel("money")).toBe("Money");
  });

  it("names every kind of both ledgers without an underscore or a lower-case code", () => {
    const all = [
      ...membershipMoneyKind.enumValues.map((k) => statementKindLabel("money", k)),
      ...membershipMinutesKind.enumValues.map((k) => statementKindLabel("hours", k)),
    ];
    for (const words of all) expect(words).toMatch(/^[A-Z][a-z]+( [a-z]+)*$/);
    // Each ledger's kinds read differently from one another.
    expect(new Set(all.slice(0, membershipMoneyKind.enumValues.length)).size).toBe(
      membershipMoneyKind.enumValues.length,
    );
  });
});
