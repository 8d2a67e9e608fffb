import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { homeAppliances, homeLabelReads } from "~/db/schema";
import { businessToday } from "~/lib/business-calendar";
import { logger } from "~/lib/logger.server";
import { storage } from "~/lib/storage.server";
import type { HomeAccess } from "./access.server";
import { parseLabel } from "./label-parse";
import { readText } from "./ocr.server";

/** Where a home's label photos are stored (a random name each, under the home). */
export function labelFolder(homeId: string) {
  return `home-labels/${homeId}/`;
}

/**
 * A label photo, stored: its text read by OCR and the brand, model, serial number and the
 * serial's year kept as a reading for the person to check (ADR 087). A read that fails keeps
 * the photo with nothing read: the form opens with the photo and empty fields.
 */
export async function readLabelPhoto(
  access: HomeAccess,
  photo: { filePath: string; thumbnailPath: string },
  now = new Date(),
) {
  let text = "";
  try {
    const object = await storage().get(photo.filePath);
    if (object) {
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      text = await readText(Buffer.concat(chunks));
    }
  } catch (error) {
    logger.warn({ err: (error as Error).message }, "a label photo could not be read");
  }
  const reading = parseLabel(text, Number(businessToday(now).slice(0, 4)));
  const [row] = await db()
    .insert(homeLabelReads)
    .values({
      homeId: access.homeId,
      createdBy: access.actor.id,
      photoPath: photo.filePath,
      thumbnailPath: photo.thumbnailPath,
      brand: reading.brand,
      model: reading.model,
      serialNumber: reading.serialNumber,
      installedYear: reading.year,
      text: text.slice(0, 4000),
    })
    .returning({ id: homeLabelReads.id });
  return row!.id;
}

/** The stored label photo of an appliance of the home `access` opens. */
export async function applianceLabelPhoto(access: HomeAccess, applianceId: string) {
  const [row] = await db()
    .select({
      filePath: homeAppliances.labelPhotoPath,
      thumbnailPath: homeAppliances.labelThumbnailPath,
    })
    .from(homeAppliances)
    .where(and(eq(homeAppliances.id, applianceId), eq(homeAppliances.homeId, access.homeId)));
  return row?.filePath ? row : null;
}
