import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { APPLIANCE_TYPE_LABELS } from "~/db/appliance-types";
import { homeAppliances, homeLabelReads } from "~/db/schema";
import { claimActionKey } from "~/lib/action-keys.server";
import type { HomeAccess } from "./access.server";
import { recordHistory } from "./history.server";
import type { ApplianceInput } from "./schema";

/*
 * The home's appliances and systems (ADR 087): added, edited and removed by the member, the
 * office or the day's handyman, each change a line of the home's history. A form carries its
 * key (ADR 048): sent twice, applied once.
 */

export class HomeRejectedError extends Error {}

function columns(input: ApplianceInput) {
  const year = input.installed ? Number(input.installed.slice(0, 4)) : null;
  return {
    type: input.type,
    brand: input.brand,
    model: input.model,
    serialNumber: input.serialNumber,
    installedYear: year,
    installedOn: input.installed && input.installed.length === 10 ? input.installed : null,
    installedEstimated: Boolean(year && input.installedEstimated),
    warrantyEndsOn: input.warrantyEndsOn,
    location: input.location,
    filterSize: input.filterSize,
    notes: input.notes,
  };
}

function named(a: { type: keyof typeof APPLIANCE_TYPE_LABELS; brand: string | null }) {
  const type = APPLIANCE_TYPE_LABELS[a.type] ?? "Appliance";
  return a.brand ? `${type} (${a.brand})` : type;
}

/** Adds an appliance; false when the key was already applied. */
export async function addAppliance(access: HomeAccess, input: ApplianceInput, key: string) {
  return db().transaction(async (tx) => {
    if (!(await claimActionKey(tx, { key, actorId: access.actor.id, action: "add-appliance" })))
      return false;
    let photo: { labelPhotoPath: string; labelThumbnailPath: string } | null = null;
    if (input.labelReadId) {
      const [read] = await tx
        .select()
        .from(homeLabelReads)
        .where(
          and(eq(homeLabelReads.id, input.labelReadId), eq(homeLabelReads.homeId, access.homeId)),
        );
      if (read) photo = { labelPhotoPath: read.photoPath, labelThumbnailPath: read.thumbnailPath };
    }
    const [row] = await tx
      .insert(homeAppliances)
      .values({ homeId: access.homeId, ...columns(input), ...photo })
      .returning();
    await recordHistory(tx, access, `Added ${named(row!)}`, {
      applianceId: row!.id,
      ...columns(input),
    });
    return true;
  });
}

export async function editAppliance(
  access: HomeAccess,
  applianceId: string,
  input: ApplianceInput,
  key: string,
) {
  return db().transaction(async (tx) => {
    if (!(await claimActionKey(tx, { key, actorId: access.actor.id, action: "edit-appliance" })))
      return false;
    const where = and(eq(homeAppliances.id, applianceId), eq(homeAppliances.homeId, access.homeId));
    const [before] = await tx.select().from(homeAppliances).where(where).for("update");
    if (!before) throw new HomeRejectedError("This appliance is no longer on record.");
    const after = columns(input);
    await tx.update(homeAppliances).set(after).where(where);
    const changed = Object.fromEntries(
      Object.entries(after)
        .filter(([name, value]) => before[name as keyof typeof before] !== value)
        .map(([name, value]) => [name, { from: before[name as keyof typeof before], to: value }]),
    );
    await recordHistory(tx, access, `Edited ${named({ ...before, ...after })}`, {
      applianceId,
      changed,
    });
    return true;
  });
}

export async function removeAppliance(access: HomeAccess, applianceId: string, key: string) {
  return db().transaction(async (tx) => {
    if (!(await claimActionKey(tx, { key, actorId: access.actor.id, action: "remove-appliance" })))
      return false;
    const [gone] = await tx
      .delete(homeAppliances)
      .where(and(eq(homeAppliances.id, applianceId), eq(homeAppliances.homeId, access.homeId)))
      .returning();
    if (!gone) throw new HomeRejectedError("This appliance is no longer on record.");
    // The photo stays stored: the history keeps the whole record as it was.
    await recordHistory(tx, access, `Removed ${named(gone)}`, { removed: gone });
    return true;
  });
}
