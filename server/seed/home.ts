import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { homeAppliances, homeHistory, homePlanTasks } from "~/db/schema";
import { addDays, type IsoDate } from "~/lib/business-calendar";
import { storage } from "~/lib/storage.server";
import { catalogTasksFor } from "~/features/home/catalog";
import { labelPhoto } from "./label-image";
import sharp from "sharp";

/** The water heater's label photo and its thumbnail, as Maria's record keeps them. */
export type DemoLabelPhotos = { photo: Buffer; thumbnail: Buffer };

/**
 * The label photo drawn and its thumbnail made, started now (sharp works on its own threads):
 * seedDemo's inputs, made while a first start's process waits for the database (ADR 105).
 */
export function demoLabelPhotos(): Promise<DemoLabelPhotos> {
  const photos = labelPhoto({
    brand: "RHEEM",
    model: "XE50T10HD50U1",
    serial: "Q051912345",
    extra: ["50 GAL  240V  4500W"],
  }).then(async (photo) => ({
    photo,
    thumbnail: await sharp(photo).resize(320).jpeg({ quality: 80 }).toBuffer(),
  }));
  // Awaited by seedHomeRecord; a failure is seen there, not as an unhandled rejection before.
  photos.catch(() => {});
  return photos;
}

/**
 * Maria's home record for the demo (ADR 087): a water heater with its label photo, a furnace,
 * an air conditioner and a dishwasher, and the plan drawn from them, some tasks due this month
 * (whatever month the demo is made in) and one overdue.
 */
export async function seedHomeRecord(
  tx: DbOrTx,
  input: {
    homeId: string;
    staff: { id: string; name: string };
    today: IsoDate;
    labelPhotos: Promise<DemoLabelPhotos>;
  },
) {
  const { homeId, today } = input;
  const { photo, thumbnail } = await input.labelPhotos;
  const name = crypto.randomBytes(16).toString("hex");
  const folder = `home-labels/${homeId}/`;
  const labelPhotoPath = `${folder}${name}.jpg`;
  const labelThumbnailPath = `${folder}${name}-thumb.jpg`;
  await storage().put(labelPhotoPath, photo, "image/jpeg");
  await storage().put(labelThumbnailPath, thumbnail, "image/jpeg");
  const year = Number(today.slice(0, 4));
  await tx.insert(homeAppliances).values([
    {
      homeId,
      type: "water_heater",
      brand: "Rheem",
      model: "XE50T10HD50U1",
      serialNumber: "Q051912345",
      installedYear: 2019,
      installedEstimated: true,
      location: "Garage, back left corner",
      notes: "50 gallon electric.",
      labelPhotoPath,
      labelThumbnailPath,
    },
    {
      homeId,
      type: "furnace",
      brand: "Carrier",
      model: "59SC5A060E17",
      installedYear: year - 9,
      location: "Attic",
      filterSize: "16x25x1",
    },
    {
      homeId,
      type: "air_conditioner",
      brand: "Carrier",
      model: "24ACC636A003",
      installedYear: year - 9,
      location: "Side yard",
      warrantyEndsOn: addDays(today, 40),
    },
    { homeId, type: "dishwasher", brand: "Bosch", model: "SHX78CM5N", installedYear: year - 3 },
  ]);
  const appliances = await tx
    .select({ id: homeAppliances.id, type: homeAppliances.type })
    .from(homeAppliances)
    .where(eq(homeAppliances.homeId, homeId));
  const month = Number(today.slice(5, 7));
  const tasks = catalogTasksFor(appliances.map((a) => a.type));
  await tx.insert(homePlanTasks).values([
    ...tasks.map((task) => ({
      homeId,
      catalogKey: task.key,
      title: task.title,
      months: task.months,
      estimatedMinutes: task.estimatedMinutes,
      applianceId: appliances.find((a) => a.type === task.appliance)?.id ?? null,
      // The filters were last changed five months ago: due again (overdue or this month).
      lastDoneOn: task.key === "hvac-filters" ? addDays(today, -150) : null,
    })),
    // The office's own tasks for Maria's home, due this month and six months on.
    {
      homeId,
      title: "Check the attic for leaks and pests",
      months: [month, ((month + 5) % 12) + 1],
      estimatedMinutes: 30,
    },
    {
      homeId,
      title: "Tighten the loose stair railing",
      months: [month],
      estimatedMinutes: 45,
    },
  ]);
  await tx.insert(homeHistory).values({
    homeId,
    actorId: input.staff.id,
    actorName: input.staff.name,
    summary: `Drew the maintenance plan: ${tasks.length + 2} tasks added`,
  });
}
