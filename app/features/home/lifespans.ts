import type { ApplianceType } from "~/db/appliance-types";
import { daysBetween, type IsoDate, plainDate } from "~/lib/business-calendar";

/*
 * How long each kind of appliance usually lasts, in years (ADR 087). Sources: the National
 * Association of Home Builders' "Study of Life Expectancy of Home Components" (2007), InterNACHI's
 * "Estimated Life Expectancy Chart", and for detectors the NFPA 72 rule (smoke alarms replaced
 * at 10 years) and the makers' 7-10 years for CO alarms. An appliance at or past the low end is
 * flagged, with the range, for the member and the office to plan its replacement.
 */
export const LIFESPANS: Record<Exclude<ApplianceType, "other">, { low: number; high: number }> = {
  water_heater: { low: 10, high: 12 },
  furnace: { low: 15, high: 20 },
  air_conditioner: { low: 10, high: 15 },
  dishwasher: { low: 9, high: 10 },
  refrigerator: { low: 10, high: 13 },
  washer: { low: 10, high: 13 },
  dryer: { low: 10, high: 13 },
  garbage_disposal: { low: 10, high: 12 },
  smoke_co_detectors: { low: 7, high: 10 },
  sump_pump: { low: 7, high: 10 },
  water_softener: { low: 10, high: 15 },
};

const PLURAL: Record<Exclude<ApplianceType, "other">, string> = {
  water_heater: "Water heaters",
  furnace: "Furnaces",
  air_conditioner: "Air conditioners and heat pumps",
  dishwasher: "Dishwashers",
  refrigerator: "Refrigerators",
  washer: "Washers",
  dryer: "Dryers",
  garbage_disposal: "Garbage disposals",
  smoke_co_detectors: "Smoke and CO detectors",
  sump_pump: "Sump pumps",
  water_softener: "Water softeners",
};

/** A warranty ending within this many days is flagged. */
export const WARRANTY_NOTICE_DAYS = 60;

/** Why an appliance needs a look: its warranty ends soon, or it has reached its usual age. */
export function applianceFlags(
  appliance: {
    type: ApplianceType;
    installedYear: number | null;
    installedOn: IsoDate | null;
    warrantyEndsOn: IsoDate | null;
  },
  today: IsoDate,
): string[] {
  const flags: string[] = [];
  if (appliance.warrantyEndsOn) {
    const days = daysBetween(today, appliance.warrantyEndsOn);
    if (days >= 0 && days <= WARRANTY_NOTICE_DAYS)
      flags.push(`Warranty ends ${plainDate(appliance.warrantyEndsOn)}`);
  }
  const year = appliance.installedOn
    ? Number(appliance.installedOn.slice(0, 4))
    : appliance.installedYear;
  if (year && appliance.type !== "other") {
    const age = Number(today.slice(0, 4)) - year;
    const span = LIFESPANS[appliance.type];
    if (age >= span.low)
      flags.push(
        `${age} years old: ${PLURAL[appliance.type].toLowerCase()} usually last ${span.low}-${span.high} years`,
      );
  }
  return flags;
}
