import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { membershipParts } from "~/db/schema";
import { findViewableReceipt } from "~/features/memberships/index.server";
import { deleteStoredPhoto, readOnePhotoForm } from "~/features/photos/index.server";
import { addPartToOwnVisit } from "~/features/visits/today.server";
import { newActionKey } from "~/lib/action-keys.server";
import { createLocalStorage, readAll, setStorage, type StorageDriver } from "~/lib/storage.server";
import {
  createHome,
  createMembership,
  createMemberVisit,
  createUser,
} from "../../server/seed/factories";
import { testDatabaseKind, useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * 'Add part' with its receipt photo (issue 26 item 9): the photo goes through the photo pipeline
 * (re-encoded, EXIF gone, the size checked), is stored with the part, and is served only to office
 * staff, the visit's handyman and the member.
 */

let database: TestDatabase;
let store: StorageDriver;
let root: string;
beforeAll(async () => {
  database = await useTestDatabase();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "part-receipts-"));
  store = createLocalStorage(root);
  setStorage(store);
});
afterAll(async () => {
  setStorage(undefined);
  await database?.drop();
  fs.rmSync(root, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, action_keys cascade`);
  await store.deletePrefix("part-receipts/");
});

const dayBefore = "2026-11-20";

let n = 0;
async function world() {
  n++;
  const make = (name: string, extra: Record<string, unknown> = {}) =>
    createUser(database.db, {
      email: `${name}${n}@example.com`,
      password: "x",
      firstName: name,
      lastName: "Test",
      ...extra,
    });
  const dana = await make("dana", { isEmployee: true, staffRole: "handyman" });
  const lee = await make("lee", { isEmployee: true, staffRole: "handyman" });
  const office = await make("sam", { isEmployee: true });
  const member = await make("maria");
  const stranger = await make("olga");
  const home = await createHome(database.db, member.id);
  await createHome(database.db, stranger.id);
  await createMembership(database.db, member.id, {
    plan: "complete",
    billing: "annual",
    startDate: dayBefore,
    staffId: office.id,
    today: dayBefore,
  });
  const { appointment: visit } = await createMemberVisit(database.db, home, {
    today: dayBefore,
    scheduledDate: "2026-11-30",
    startTime: "09:00",
    endTime: "10:45",
    assignedEmployeeId: dana.id,
    tasks: ["Fix the gate"],
  });
  return { dana, lee, office, member, stranger, visit };
}

/** A receipt photographed on a phone: GPS and the camera in its EXIF. */
function receiptJpeg() {
  return sharp({
    create: { width: 400, height: 300, channels: 3, background: { r: 250, g: 250, b: 240 } },
  })
    .jpeg({ quality: 90 })
    .withExifMerge({
      IFD0: { Make: "PhoneCo", Model: "Snapper 9" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "33/1 44/1 56/1" },
    })
    .toBuffer();
}

function partForm(fields: Record<string, string>, file?: { name: string; data: Buffer }) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (file)
    body.append(
      "receipt",
      new File([new Uint8Array(file.data)], file.name, { type: "image/jpeg" }),
    );
  return new Request("http://localhost/employee/today?add=part", { method: "POST", body });
}

describe(`'Add part' with a receipt photo (${testDatabaseKind()})`, () => {
  it("stores the receipt re-encoded with the part, once per key, for the right people only", async () => {
    const { dana, lee, office, member, stranger, visit } = await world();
    const original = await receiptJpeg();
    expect((await sharp(original).metadata()).exif?.includes(Buffer.from("PhoneCo"))).toBe(true);
    const key = newActionKey();
    const fields = { appointmentId: visit.id, key, description: "Gate hinge", cost: "24.50" };
    let asked: Record<string, string> | null = null;
    const form = await readOnePhotoForm(partForm(fields, { name: "IMG_1.jpg", data: original }), {
      uploaderId: dana.id,
      folder: "part-receipts/",
      async accept(sent) {
        asked = sent;
        return true;
      },
    });
    // The fields come before the photo, so the check sees them all.
    expect(asked).toMatchObject(fields);
    expect(form.rejected).toBeNull();
    expect(form.photo!.filePath).toMatch(/^part-receipts\/[0-9a-f]{32}\.jpg$/);
    const stored = await readAll((await store.get(form.photo!.filePath))!);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes(Buffer.from("PhoneCo"))).toBe(false);

    const input = { appointmentId: visit.id, key, description: "Gate hinge", costCents: 2450 };
    const first = await addPartToOwnVisit({ id: dana.id }, { ...input, receipt: form.photo });
    const again = await addPartToOwnVisit({ id: dana.id }, { ...input, receipt: form.photo });
    expect([first.applied, again.applied]).toEqual([true, false]);
    const parts = await database.db.select().from(membershipParts);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({
      receiptPath: form.photo!.filePath,
      receiptThumbnailPath: form.photo!.thumbnailPath,
      // With its receipt the part was bought: charged at once (issue 39 item 6).
      status: "bought",
    });

    const partId = parts[0].id;
    const staff = (id: string, isHandyman: boolean) => ({ id, isEmployee: true, isHandyman });
    const customer = (id: string) => ({ id, isEmployee: false });
    expect(await findViewableReceipt(staff(office.id, false), partId)).not.toBeNull();
    expect(await findViewableReceipt(staff(dana.id, true), partId)).not.toBeNull();
    expect(await findViewableReceipt(customer(member.id), partId)).not.toBeNull();
    expect(await findViewableReceipt(staff(lee.id, true), partId)).toBeNull();
    expect(await findViewableReceipt(customer(stranger.id), partId)).toBeNull();
  });

  it("a part without a receipt has none to serve; a file that is no image is refused", async () => {
    const { dana, office, visit } = await world();
    const without = await readOnePhotoForm(
      partForm({ appointmentId: visit.id, key: newActionKey(), description: "Screws", cost: "4" }),
      { uploaderId: dana.id, folder: "part-receipts/", accept: async () => true },
    );
    expect(without).toMatchObject({ photo: null, rejected: null });
    const { part } = await addPartToOwnVisit(
      { id: dana.id },
      { appointmentId: visit.id, key: newActionKey(), description: "Screws", costCents: 400 },
    );
    expect(await findViewableReceipt({ id: office.id, isEmployee: true }, part!.id)).toBeNull();

    const text = await readOnePhotoForm(
      partForm(
        { appointmentId: visit.id, key: newActionKey(), description: "Nails", cost: "3" },
        { name: "receipt.jpg", data: Buffer.from("not a picture at all") },
      ),
      { uploaderId: dana.id, folder: "part-receipts/", accept: async () => true },
    );
    expect(text).toMatchObject({ photo: null, rejected: "not-an-image" });
    expect(await store.list("part-receipts/")).toHaveLength(0);
  });

  it("a repeated form keeps nothing of its photo, and a dropped one leaves no file", async () => {
    const { dana, visit } = await world();
    const repeated = await readOnePhotoForm(
      partForm(
        { appointmentId: visit.id, key: newActionKey(), description: "Hinge", cost: "9" },
        { name: "r.jpg", data: await receiptJpeg() },
      ),
      { uploaderId: dana.id, folder: "part-receipts/", accept: async () => false },
    );
    expect(repeated).toMatchObject({ photo: null, rejected: "refused" });
    const kept = await readOnePhotoForm(
      partForm(
        { appointmentId: visit.id, key: newActionKey(), description: "Hinge", cost: "9" },
        { name: "r.jpg", data: await receiptJpeg() },
      ),
      { uploaderId: dana.id, folder: "part-receipts/", accept: async () => true },
    );
    expect(await store.list("part-receipts/")).toHaveLength(2);
    await deleteStoredPhoto(kept.photo!);
    expect(await store.list("part-receipts/")).toHaveLength(0);
  });
});
