import type { ApplianceType } from "~/db/appliance-types";
import type { IsoDate } from "~/lib/business-calendar";

/** Filled in with the lifespans table (item 4). */
export function applianceFlags(
  _appliance: {
    type: ApplianceType;
    installedYear: number | null;
    installedOn: IsoDate | null;
    warrantyEndsOn: IsoDate | null;
  },
  _today: IsoDate,
): string[] {
  return [];
}
