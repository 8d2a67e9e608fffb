import { describe, expect, it } from "vitest";
import { addDays, businessToday } from "~/lib/business-calendar";
import { applianceFlags } from "./lifespans";

/* Age and warranty flags (ADR 087), "today" from the clock (moved-clock safe). */
describe("an appliance's flags", () => {
  const today = businessToday();
  const year = Number(today.slice(0, 4));
  const base = { installedYear: null, installedOn: null, warrantyEndsOn: null };

  it("flags a warranty ending within 60 days, not one ending later or already ended", () => {
    const soon = applianceFlags(
      { ...base, type: "dishwasher", warrantyEndsOn: addDays(today, 60) },
      today,
    );
    expect(soon).toHaveLength(1);
    expect(soon[0]).toMatch(/^Warranty ends [A-Z][a-z]+ \d{1,2}, \d{4}$/);
    expect(
      applianceFlags({ ...base, type: "dishwasher", warrantyEndsOn: addDays(today, 61) }, today),
    ).toEqual([]);
    expect(
      applianceFlags({ ...base, type: "dishwasher", warrantyEndsOn: addDays(today, -1) }, today),
    ).toEqual([]);
  });

  it("flags an appliance at its type's usual lifespan", () => {
    expect(
      applianceFlags({ ...base, type: "water_heater", installedYear: year - 12 }, today),
    ).toEqual(["12 years old: water heaters usually last 10-12 years"]);
    expect(
      applianceFlags({ ...base, type: "water_heater", installedYear: year - 9 }, today),
    ).toEqual([]);
    expect(
      applianceFlags({ ...base, type: "furnace", installedOn: `${year - 16}-06-01` }, today),
    ).toHaveLength(1);
    expect(applianceFlags({ ...base, type: "other", installedYear: year - 40 }, today)).toEqual([]);
  });
});
