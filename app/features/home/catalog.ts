import type { ApplianceType } from "~/db/appliance-types";

/*
 * The maintenance tasks a plan is drawn from, for metro Atlanta's climate (ADR 087): hot humid
 * summers (air conditioning from April to October, crawlspace moisture), mild winters with a
 * first freeze around mid-November, leaves down in November and pollen and storms in spring.
 * `months` are the months of the year a task is due; every home gets the tasks with no
 * `appliance`, and each appliance on record brings its own.
 *
 * Sources for the intervals: the U.S. Department of Energy (HVAC filters every 1-3 months,
 * water heater flush yearly), the NFPA (test smoke alarms monthly, replace at 10 years; twice a
 * year is the visit's share), the U.S. Fire Administration (clean the dryer vent yearly), the
 * University of Georgia Extension (crawlspace moisture, hose bibs before the first freeze,
 * gutters after leaf fall and in spring), and the makers' manuals for the rest.
 */
export type CatalogTask = {
  key: string;
  title: string;
  months: number[];
  estimatedMinutes: number;
  appliance?: ApplianceType;
};

export const PLAN_CATALOG: CatalogTask[] = [
  // Every home.
  {
    key: "hvac-filters",
    title: "Replace the HVAC air filters",
    months: [1, 4, 7, 10],
    estimatedMinutes: 15,
  },
  {
    key: "gutters",
    title: "Clean the gutters and downspouts",
    months: [4, 11],
    estimatedMinutes: 90,
  },
  {
    key: "smoke-co-test",
    title: "Test the smoke and CO detectors",
    months: [3, 9],
    estimatedMinutes: 20,
  },
  {
    key: "caulk-grout",
    title: "Check the caulk and grout in the kitchen and baths",
    months: [5],
    estimatedMinutes: 45,
  },
  {
    key: "crawlspace",
    title: "Check the crawlspace for moisture and the vapor barrier",
    months: [6, 9],
    estimatedMinutes: 30,
  },
  {
    key: "hose-bibs",
    title: "Drain and cover the exterior hose bibs before the first freeze",
    months: [11],
    estimatedMinutes: 20,
  },
  { key: "dryer-vent", title: "Clean the dryer vent duct", months: [10], estimatedMinutes: 45 },
  { key: "gfci", title: "Test the GFCI outlets", months: [3], estimatedMinutes: 15 },
  {
    key: "weatherstripping",
    title: "Check the weatherstripping and door sweeps",
    months: [10],
    estimatedMinutes: 30,
  },
  {
    key: "exterior-wood",
    title: "Look over the exterior trim and siding for rot and gaps",
    months: [5],
    estimatedMinutes: 45,
  },
  {
    key: "roof-flashing",
    title: "Look over the roof, flashing and vents from the ground",
    months: [3],
    estimatedMinutes: 20,
  },
  // Brought by the appliances on record.
  {
    key: "water-heater-flush",
    title: "Flush the water heater and test its relief valve",
    months: [2],
    estimatedMinutes: 60,
    appliance: "water_heater",
  },
  {
    key: "furnace-check",
    title: "Check the furnace before the heating season",
    months: [10],
    estimatedMinutes: 45,
    appliance: "furnace",
  },
  {
    key: "ac-condenser",
    title: "Clean the AC condenser coils and clear the drain line",
    months: [4],
    estimatedMinutes: 45,
    appliance: "air_conditioner",
  },
  {
    key: "dishwasher-filter",
    title: "Clean the dishwasher filter and check the hose",
    months: [1, 7],
    estimatedMinutes: 20,
    appliance: "dishwasher",
  },
  {
    key: "fridge-coils",
    title: "Vacuum the refrigerator coils",
    months: [6],
    estimatedMinutes: 20,
    appliance: "refrigerator",
  },
  {
    key: "washer-hoses",
    title: "Inspect the washer hoses for bulges and leaks",
    months: [6],
    estimatedMinutes: 15,
    appliance: "washer",
  },
  {
    key: "disposal",
    title: "Clean the garbage disposal and check under the sink for leaks",
    months: [1, 7],
    estimatedMinutes: 20,
    appliance: "garbage_disposal",
  },
  {
    key: "sump-pump",
    title: "Test the sump pump before the rainy seasons",
    months: [2, 8],
    estimatedMinutes: 20,
    appliance: "sump_pump",
  },
  {
    key: "softener-salt",
    title: "Check the water softener's salt and clean the brine tank",
    months: [1, 5, 9],
    estimatedMinutes: 20,
    appliance: "water_softener",
  },
  {
    key: "detectors-replace",
    title: "Check the detectors' dates and replace the batteries",
    months: [11],
    estimatedMinutes: 30,
    appliance: "smoke_co_detectors",
  },
];

/** The catalog's tasks for a home with these appliances (each type brings its tasks once). */
export function catalogTasksFor(types: Iterable<ApplianceType>): CatalogTask[] {
  const present = new Set(types);
  return PLAN_CATALOG.filter((task) => !task.appliance || present.has(task.appliance));
}

/** What makes a plan: at least this many tasks and this many appliances documented. */
export const PLAN_MIN_TASKS = 10;
export const PLAN_MIN_APPLIANCES = 1;
/** The promise: a plan within this many days of the membership's start. */
export const PLAN_DAYS = 60;
/** The office's 'Plans due' list shows plans due within this many days (or overdue). */
export const PLANS_DUE_WINDOW_DAYS = 14;
