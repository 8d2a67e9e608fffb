/**
 * The customer dashboard bench's data: the members, their requests and photos, and a 10 MB
 * photo.
 */
import crypto from "node:crypto";
import sharp from "sharp";
import { type DatabaseHandle } from "~/db/client.server";
import {
  appointments,
  appointmentTasks,
  homes,
  profiles,
  requestPhotos,
  serviceRequests,
  user,
} from "~/db/schema";
import { addDays, businessToday } from "~/lib/business-calendar";
import { createHome, createUser } from "../../../server/seed/factories";
import {
  MAX_UPLOAD_BYTES,
  OTHER_CUSTOMERS,
  OTHER_PHOTOS_EACH,
  OTHER_REQUESTS_EACH,
  PASSWORD,
  PHOTOS_PER_REQUEST,
  REQUESTS,
  SMALL_REQUESTS,
} from "./customer-dashboard-config";

function dayFromToday(days: number) {
  return addDays(businessToday(), days);
}

export const TITLES = [
  "Kitchen faucet drips",
  "Patch drywall in the guest room",
  "Hang gallery wall",
  "Replace porch light fixture",
  "Caulk the upstairs tub",
  "Fix sticking closet door",
  "Clean gutters",
  "Assemble bookshelf",
];

export async function seed(handle: DatabaseHandle) {
  const db = handle.db;
  const member = await createUser(db, {
    email: "bench-member@example.com",
    password: PASSWORD,
    firstName: "Bench",
    lastName: "Member",
  });
  const home = await createHome(db, member.id);
  const handyman = await createUser(db, {
    email: "bench-handyman@example.com",
    password: PASSWORD,
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
  });

  // Other members, written in bulk (no passwords: they never sign in).
  const others = Array.from({ length: OTHER_CUSTOMERS }, (_, i) => ({
    id: crypto.randomUUID(),
    name: `Other ${i}`,
    email: `other-${i}@example.com`,
    emailVerified: true,
  }));
  await db.insert(user).values(others);
  await db.insert(profiles).values(others.map((o) => ({ userId: o.id, firstName: o.name })));
  const otherHomes = await db
    .insert(homes)
    .values(
      others.map((o, i) => ({
        customerId: o.id,
        address: `${i} Main St`,
        city: "Atlanta",
        state: "GA",
        zipCode: "30303",
      })),
    )
    .returning({ id: homes.id, customerId: homes.customerId });

  const makeRequests = (h: { id: string; customerId: string }, count: number) =>
    Array.from({ length: count }, (_, i) => ({
      homeId: h.id,
      customerId: h.customerId,
      title: `${TITLES[i % TITLES.length]} #${i + 1}`,
      description: "Details a member would write: where it is, what happens, when it started.",
      priority: i % 5 === 0 ? ("next" as const) : ("later" as const),
      status: (["new", "reviewed", "scheduled", "complete", "complete"] as const)[i % 5],
      position: i,
      createdAt: new Date(Date.now() - (count - i) * 3_600_000),
    }));
  const makePhotos = (requestIds: string[], each: number) =>
    requestIds.flatMap((requestId) =>
      Array.from({ length: each }, (_, k) => {
        const name = crypto.randomBytes(16).toString("hex");
        return {
          requestId,
          filePath: `request-photos/${requestId}/${name}.jpg`,
          thumbnailPath: `request-photos/${requestId}/${name}-thumb.webp`,
          fileName: `IMG_${k}.jpg`,
          fileSize: 1_500_000,
          contentType: "image/jpeg",
          width: 2560,
          height: 1920,
        };
      }),
    );

  const mine = await db
    .insert(serviceRequests)
    .values(makeRequests(home, REQUESTS))
    .returning({ id: serviceRequests.id });
  const myPhotos = makePhotos(
    mine.map((r) => r.id),
    PHOTOS_PER_REQUEST,
  );
  for (let i = 0; i < myPhotos.length; i += 500) {
    await db.insert(requestPhotos).values(myPhotos.slice(i, i + 500));
  }
  for (const h of otherHomes) {
    const rows = await db
      .insert(serviceRequests)
      .values(makeRequests(h, OTHER_REQUESTS_EACH))
      .returning({ id: serviceRequests.id });
    await db.insert(requestPhotos).values(
      makePhotos(
        rows.map((r) => r.id),
        OTHER_PHOTOS_EACH,
      ),
    );
  }

  for (let i = 0; i < 10; i++) {
    const [appointment] = await db
      .insert(appointments)
      .values({
        customerId: member.id,
        homeId: home.id,
        assignedEmployeeId: handyman.id,
        scheduledDate: dayFromToday(i * 7 - 20),
        startTime: "09:00",
        endTime: "12:30",
        notes: "Gate code 2468",
        status: "booked",
      })
      .returning({ id: appointments.id });
    await db.insert(appointmentTasks).values(
      ["Fix the kitchen faucet", "Patch drywall", "Hang six prints"].map((task) => ({
        appointmentId: appointment.id,
        taskDescription: task,
      })),
    );
  }
  // A member with a tenth of the data, measured call for call in alternation with the big one.
  const small = await createUser(db, {
    email: "bench-small@example.com",
    password: PASSWORD,
    firstName: "Small",
    lastName: "Member",
  });
  const smallHome = await createHome(db, small.id);
  const smallRequests = await db
    .insert(serviceRequests)
    .values(makeRequests(smallHome, SMALL_REQUESTS))
    .returning({ id: serviceRequests.id });
  await db.insert(requestPhotos).values(
    makePhotos(
      smallRequests.map((r) => r.id),
      PHOTOS_PER_REQUEST,
    ),
  );
  return { member, small, home, requestIds: mine.map((r) => r.id) };
}

/** A camera-sized JPEG just under 10 MB (noise: the hardest case for the codec). */
export async function tenMegabyteJpeg() {
  const width = 4032;
  const height = 3024;
  const base = sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#887766",
      noise: { type: "gaussian", mean: 128, sigma: 48 },
    },
  });
  const pixels = await base.raw().toBuffer();
  let best: Buffer | null = null;
  for (const quality of [98, 97, 96, 95, 94, 93, 92, 90, 88, 85]) {
    const candidate = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "33/1 44/1 56/1" } })
      .toBuffer();
    if (candidate.length <= MAX_UPLOAD_BYTES) {
      best = candidate;
      break;
    }
  }
  if (!best) throw new Error("could not make a JPEG under 10 MB");
  return { data: best, width, height };
}
