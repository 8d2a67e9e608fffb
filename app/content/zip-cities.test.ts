import { describe, expect, it } from "vitest";
import { SERVED_PLACES } from "./service-area";
import { cityOfZip, ZIP_CITIES, zipAndCity } from "./zip-cities";

describe("a lead's city from its ZIP code", () => {
  it("names the metro Atlanta place of a known ZIP code", () => {
    expect(cityOfZip("30306")).toBe("Atlanta");
    expect(cityOfZip("30075")).toBe("Roswell");
    expect(cityOfZip("30097-1234")).toBe("Johns Creek");
    expect(zipAndCity("30306", null)).toBe("30306 Atlanta");
    expect(zipAndCity("30319", "")).toBe("30319 Brookhaven");
  });

  it("shows an unknown ZIP code alone, keeps a city the lead's page gave, and says nothing for nothing", () => {
    expect(cityOfZip("90210")).toBeNull();
    expect(zipAndCity("90210", null)).toBe("90210");
    expect(zipAndCity(null, "Decatur")).toBe("Decatur");
    expect(zipAndCity("30306", "Decatur")).toBe("30306 Decatur");
    expect(zipAndCity(null, null)).toBeNull();
  });

  it("names only places the business serves, each with at least one ZIP code", () => {
    const places = new Set(Object.values(ZIP_CITIES));
    for (const place of places) expect(SERVED_PLACES).toContain(place);
    for (const place of SERVED_PLACES) expect(places.has(place)).toBe(true);
  });
});
