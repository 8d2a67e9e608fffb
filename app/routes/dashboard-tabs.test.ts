import { describe, expect, it } from "vitest";
import { dashboardParts, dashboardTab, needsNewParts } from "./dashboard-tabs";

const url = (search: string) => new URL(`http://localhost/dashboard${search}`);

describe("the member's dashboard tabs (ADR 100)", () => {
  it("reads ?tab=, anything else is Requests", () => {
    expect(dashboardTab(new URLSearchParams("tab=home"))).toBe("home");
    expect(dashboardTab(new URLSearchParams("tab=nope"))).toBe("requests");
    expect(dashboardTab(new URLSearchParams(""))).toBe("requests");
  });

  it("each tab reads only the parts it shows", () => {
    const none = new URLSearchParams();
    expect(dashboardParts("requests", none)).toEqual({
      requests: true,
      appointments: false,
      membership: false,
      home: false,
    });
    expect(dashboardParts("schedule", none)).toEqual({
      requests: false,
      appointments: true,
      membership: false,
      home: false,
    });
    // Membership reads her next walk-thru with its own part, not the upcoming visits.
    expect(dashboardParts("membership", none)).toEqual({
      requests: false,
      appointments: false,
      membership: true,
      home: false,
    });
    expect(dashboardParts("home", none).home).toBe(true);
    // A request opened by a link needs the lists whichever tab is shown.
    expect(dashboardParts("home", new URLSearchParams("edit=x")).requests).toBe(true);
  });

  it("a switch reads the page again only for a part not yet read", () => {
    expect(needsNewParts(url(""), url("?tab=completed"))).toBe(false);
    expect(needsNewParts(url("?tab=appointments"), url("?tab=schedule"))).toBe(false);
    expect(needsNewParts(url("?tab=membership"), url("?tab=appointments"))).toBe(true);
    expect(needsNewParts(url(""), url("?tab=appointments"))).toBe(true);
    expect(needsNewParts(url("?tab=schedule"), url("?tab=membership"))).toBe(true);
    expect(needsNewParts(url("?tab=membership"), url("?tab=home"))).toBe(true);
    expect(needsNewParts(url("?tab=home"), url(""))).toBe(true);
  });
});
