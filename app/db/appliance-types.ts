/*
 * The kinds of appliance and system a home's record holds (issue: the home the membership cares
 * for). The CHECK on home_appliances.type (migration 0024) lists the same keys; kept apart from
 * schema.ts so that the browser can read it without loading Drizzle.
 */
export const APPLIANCE_TYPES = [
  "water_heater",
  "furnace",
  "air_conditioner",
  "dishwasher",
  "refrigerator",
  "washer",
  "dryer",
  "garbage_disposal",
  "smoke_co_detectors",
  "sump_pump",
  "water_softener",
  "other",
] as const;
export type ApplianceType = (typeof APPLIANCE_TYPES)[number];

export const APPLIANCE_TYPE_LABELS: Record<ApplianceType, string> = {
  water_heater: "Water heater",
  furnace: "Furnace",
  air_conditioner: "Air conditioner or heat pump",
  dishwasher: "Dishwasher",
  refrigerator: "Refrigerator",
  washer: "Washer",
  dryer: "Dryer",
  garbage_disposal: "Garbage disposal",
  smoke_co_detectors: "Smoke and CO detectors",
  sump_pump: "Sump pump",
  water_softener: "Water softener",
  other: "Other",
};

export function isApplianceType(value: unknown): value is ApplianceType {
  return typeof value === "string" && (APPLIANCE_TYPES as readonly string[]).includes(value);
}
