import { describe, expect, it } from "vitest";
import { homeSchema } from "./schema";
import { DEFAULT_STATE, stateCode, US_STATES } from "./us-states";

describe("US states", () => {
  it("lists the 50 states and the District of Columbia, Georgia by default", () => {
    expect(US_STATES).toHaveLength(51);
    expect(new Set(US_STATES.map(([code]) => code)).size).toBe(51);
    expect(DEFAULT_STATE).toBe("GA");
  });

  it("reads a code or a name in any case, and nothing else", () => {
    expect(stateCode("GA")).toBe("GA");
    expect(stateCode(" ga ")).toBe("GA");
    expect(stateCode("Georgia")).toBe("GA");
    expect(stateCode("south   carolina")).toBe("SC");
    expect(stateCode("District of Columbia")).toBe("DC");
    expect(stateCode("Atlantis")).toBeNull();
    expect(stateCode("G")).toBeNull();
    expect(stateCode("")).toBeNull();
  });

  it("the address schema keeps the code and refuses what is not a state", () => {
    const base = { address: "1 Main St", city: "Decatur", zipCode: "30030" };
    const parsed = homeSchema.safeParse({ ...base, state: "georgia" });
    expect(parsed.success && parsed.data.state).toBe("GA");
    const refused = homeSchema.safeParse({ ...base, state: "Atlantis" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([
      "Enter a US state, such as GA or Georgia",
    ]);
    const empty = homeSchema.safeParse({ ...base, state: "" });
    expect(empty.error?.issues.map((issue) => issue.message)).toEqual(["State is required"]);
  });
});
