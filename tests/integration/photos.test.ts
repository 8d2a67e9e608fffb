import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { requestPhotos } from "~/db/schema";
import { MAX_PHOTO_BYTES } from "~/features/photos/limits";
import { MultipartError, readMultipart } from "~/features/photos/multipart.server";
import {
  findViewablePhoto,
  receiveRequestPhotos,
  removeRequestPhoto,
  requestPhotoFolder,
} from "~/features/photos/request-photos.server";
import { createLocalStorage, readAll, setStorage, type StorageDriver } from "~/lib/storage.server";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The photo pipeline against hostile files (ADR 009): each one is rejected or
 * cleaned, and none is stored as it was sent. Real database, real disk, real sharp.
 */

let database: TestDatabase;
let store: StorageDriver;
let root: string;
let owner: { id: string };
let stranger: { id: string };
let employee: { id: string };
let requestId: string;

beforeAll(async () => {
  database = await useTestDatabase();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-photos-"));
  store = createLocalStorage(root);
  setStorage(store);
  const make = (email: string, isEmployee = false) =>
    createUser(database.db, {
      email,
      password: "Sturdy-Pass-2026!",
      firstName: "Test",
      lastName: "Person",
      isEmployee,
    });
  owner = await make("owner@example.com");
  stranger = await make("stranger@example.com");
  employee = await make("staff@example.com", true);
  const home = await createHome(database.db, owner.id);
  requestId = (await createServiceRequest(database.db, home, { title: "Leaky faucet" })).id;
});

afterAll(async () => {
  setStorage(undefined);
  await database?.drop();
  fs.rmSync(root, { recursive: true, force: true });
});

function upload(files: { name: string; type: string; data: Buffer | string }[]) {
  const body = new FormData();
  for (const file of files)
    body.append(
      "photo",
      new File([typeof file.data === "string" ? file.data : new Uint8Array(file.data)], file.name, {
        type: file.type,
      }),
    );
  return new Request("http://localhost/dashboard/requests/x/photos", { method: "POST", body });
}

async function storedKeys() {
  return store.list(requestPhotoFolder(requestId));
}

/** A photo with GPS coordinates and a camera make in its EXIF, rotated by its orientation tag. */
async function jpegWithGps(width = 640, height = 480) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 40 } } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: "PhoneCo", Model: "Snapper 9" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "33/1 44/1 56/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "84/1 23/1 17/1",
      },
    })
    .toBuffer();
}

/** Random pixels compress badly: a big, realistic JPEG to cut short. */
async function noisyJpeg(width: number, height: number, quality = 90) {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

describe("accepted photos are re-encoded", () => {
  it("removes EXIF and GPS, applies the orientation, and stores under a random key", async () => {
    const original = await jpegWithGps();
    const originalMeta = await sharp(original).metadata();
    expect(originalMeta.exif?.includes(Buffer.from("PhoneCo"))).toBe(true);
    expect(originalMeta.orientation).toBe(6);

    const result = await receiveRequestPhotos(
      upload([{ name: "IMG_0001 our house.jpg", type: "image/jpeg", data: original }]),
      requestId,
      owner.id,
    );
    expect(result.skipped).toEqual([]);
    expect(result.saved).toHaveLength(1);
    const photo = result.saved[0];

    expect(photo.filePath).toMatch(new RegExp(`^request-photos/${requestId}/[0-9a-f]{32}\\.jpg$`));
    expect(photo.thumbnailPath).toMatch(/-thumb\.webp$/);
    expect(photo.filePath).not.toContain("IMG_0001");
    expect(photo.fileName).toBe("IMG_0001 our house.jpg");
    expect(photo.contentType).toBe("image/jpeg");
    // Orientation 6 means "rotate 90°": the stored picture stands upright.
    expect([photo.width, photo.height]).toEqual([480, 640]);

    const stored = await readAll((await store.get(photo.filePath))!);
    expect(stored.equals(original)).toBe(false);
    const storedMeta = await sharp(stored).metadata();
    expect(storedMeta.exif).toBeUndefined();
    expect(storedMeta.orientation ?? 1).toBe(1);
    expect(stored.includes(Buffer.from("PhoneCo"))).toBe(false);

    const thumb = await store.get(photo.thumbnailPath!);
    expect(thumb!.contentType).toBe("image/webp");
    const thumbMeta = await sharp(await readAll(thumb!)).metadata();
    expect(thumbMeta.width).toBeLessThanOrEqual(320);
    expect(thumbMeta.exif).toBeUndefined();
  });

  it("keeps transparency as WebP", async () => {
    const png = await sharp({
      create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const { saved } = await receiveRequestPhotos(
      upload([{ name: "sketch.png", type: "image/png", data: png }]),
      requestId,
      owner.id,
    );
    expect(saved[0].contentType).toBe("image/webp");
    expect(saved[0].filePath).toMatch(/\.webp$/);
  });

  it("accepts AVIF and stores it as JPEG", async () => {
    const avif = await sharp({
      create: { width: 48, height: 32, channels: 3, background: "#246" },
    })
      .avif()
      .toBuffer();
    const { saved, skipped } = await receiveRequestPhotos(
      upload([{ name: "phone.avif", type: "image/avif", data: avif }]),
      requestId,
      owner.id,
    );
    expect(skipped).toEqual([]);
    expect(saved[0]).toMatchObject({ contentType: "image/jpeg", width: 48, height: 32 });
  });

  it("decides the type by the bytes: a PNG sent as image/jpeg, a JPEG sent as text/html", async () => {
    const png = await sharp({
      create: { width: 20, height: 20, channels: 3, background: "#0a0" },
    })
      .png()
      .toBuffer();
    const jpeg = await jpegWithGps(30, 20);
    const { saved, skipped } = await receiveRequestPhotos(
      upload([
        { name: "really-a-png.jpg", type: "image/jpeg", data: png },
        { name: "photo.html", type: "text/html", data: jpeg },
      ]),
      requestId,
      owner.id,
    );
    expect(skipped).toEqual([]);
    expect(saved.map((photo) => photo.contentType)).toEqual(["image/jpeg", "image/jpeg"]);
    for (const photo of saved) {
      const object = await store.get(photo.filePath);
      expect(object!.contentType).toBe("image/jpeg");
      const bytes = await readAll(object!);
      expect(bytes.equals(png) || bytes.equals(jpeg)).toBe(false);
    }
  });
});

describe("hostile files are rejected and leave nothing behind", () => {
  it("refuses HTML and SVG renamed .jpg, a truncated JPEG, and 10 MB + 1 byte", async () => {
    const before = await storedKeys();
    const [{ rows: beforeRows }] = [{ rows: await database.db.select().from(requestPhotos) }];
    const html = "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>";
    const svg =
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>';
    const big = await noisyJpeg(800, 600);
    const truncated = big.subarray(0, Math.floor(big.length / 2));
    const oversize = Buffer.alloc(MAX_PHOTO_BYTES + 1, 0xff);
    // A real JPEG header, so only the size can be the reason.
    big.copy(oversize, 0, 0, 1024);

    const { saved, skipped } = await receiveRequestPhotos(
      upload([
        { name: "kitchen.jpg", type: "image/jpeg", data: html },
        { name: "garage.jpg", type: "image/jpeg", data: svg },
        { name: "porch.jpg", type: "image/jpeg", data: truncated },
        { name: "huge.jpg", type: "image/jpeg", data: oversize },
      ]),
      requestId,
      owner.id,
    );
    expect(saved).toEqual([]);
    expect(skipped).toEqual([
      { filename: "kitchen.jpg", reason: "not-an-image" },
      { filename: "garage.jpg", reason: "unsupported-type" },
      { filename: "porch.jpg", reason: "undecodable" },
      { filename: "huge.jpg", reason: "too-large" },
    ]);
    expect(await storedKeys()).toEqual(before);
    expect(await database.db.select().from(requestPhotos)).toHaveLength(beforeRows.length);
  });

  it("refuses formats outside the list even when they are images (GIF, TIFF)", async () => {
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#f00" } })
      .gif()
      .toBuffer();
    const tiff = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#f00" } })
      .tiff()
      .toBuffer();
    const { saved, skipped } = await receiveRequestPhotos(
      upload([
        { name: "a.gif", type: "image/gif", data: gif },
        { name: "b.jpg", type: "image/jpeg", data: tiff },
      ]),
      requestId,
      owner.id,
    );
    expect(saved).toEqual([]);
    expect(skipped.map((s) => s.reason)).toEqual(["unsupported-type", "unsupported-type"]);
  });

  it("keeps the good photo when a bad one is sent with it", async () => {
    const { saved, skipped } = await receiveRequestPhotos(
      upload([
        { name: "bad.jpg", type: "image/jpeg", data: "not an image" },
        { name: "good.jpg", type: "image/jpeg", data: await jpegWithGps(50, 40) },
      ]),
      requestId,
      owner.id,
    );
    expect(saved).toHaveLength(1);
    expect(skipped).toEqual([{ filename: "bad.jpg", reason: "not-an-image" }]);
  });
});

describe("the multipart reader", () => {
  it("stops reading a body past its total limit", async () => {
    const body = new FormData();
    for (let i = 0; i < 10; i++) body.append("photo", new File([Buffer.alloc(900, 1)], `${i}.jpg`));
    // Sent as bytes, as the server's own request body arrives: a Request streaming a FormData
    // keeps writing after the reader stops it (undici in Node 24 then rejects, unhandled).
    const encoded = new Response(body);
    const request = new Request("http://localhost/upload", {
      method: "POST",
      headers: { "content-type": encoded.headers.get("content-type")! },
      body: Buffer.from(await encoded.arrayBuffer()),
    });
    const seen: string[] = [];
    await expect(
      readMultipart(request, {
        maxFileBytes: 1000,
        maxFiles: 20,
        maxTotalBytes: 5000,
        async onFile(file) {
          seen.push(file.filename);
        },
      }),
    ).rejects.toThrow(MultipartError);
    expect(seen.length).toBeLessThan(10);
  });

  it("refuses a body whose declared length is over the limit before reading it", async () => {
    const request = new Request("http://localhost/upload", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x", "content-length": "999999" },
      body: "--x--",
    });
    await expect(
      readMultipart(request, {
        maxFileBytes: 1000,
        maxFiles: 1,
        maxTotalBytes: 5000,
        onFile: async () => {},
      }),
    ).rejects.toMatchObject({ status: 413 });
  });

  it("a body that breaks while a file waits its turn is refused, never an uncaught error", async () => {
    const body = new FormData();
    for (let i = 0; i < 2; i++) body.append("photo", new File([Buffer.alloc(4000, i)], `${i}.jpg`));
    const encoded = new Response(body);
    const bytes = Buffer.from(await encoded.arrayBuffer());
    // Cut inside the second file, while the first is still being handled.
    const second = bytes.indexOf("filename=", bytes.indexOf("filename=") + 1);
    const request = new Request("http://localhost/upload", {
      method: "POST",
      headers: { "content-type": encoded.headers.get("content-type")! },
      body: bytes.subarray(0, second + 200),
    });
    await expect(
      readMultipart(request, {
        maxFileBytes: 10_000,
        maxFiles: 5,
        maxTotalBytes: 100_000,
        onFile: () => new Promise((resolve) => setTimeout(resolve, 200)),
      }),
    ).rejects.toThrow(MultipartError);
    // An error of the waiting file's stream, had nobody listened, would surface here.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it("refuses what is not multipart", async () => {
    const request = new Request("http://localhost/upload", { method: "POST", body: "a=b" });
    await expect(
      readMultipart(request, {
        maxFileBytes: 1000,
        maxFiles: 1,
        maxTotalBytes: 5000,
        onFile: async () => {},
      }),
    ).rejects.toMatchObject({ status: 415 });
  });
});

describe("who may see and remove photos", () => {
  it("serves a photo to its owner and to employees, never to another customer", async () => {
    const [photo] = await database.db
      .select()
      .from(requestPhotos)
      .where(eq(requestPhotos.requestId, requestId))
      .limit(1);
    expect(await findViewablePhoto({ id: owner.id, isEmployee: false }, photo.id)).not.toBeNull();
    expect(await findViewablePhoto({ id: employee.id, isEmployee: true }, photo.id)).not.toBeNull();
    expect(await findViewablePhoto({ id: stranger.id, isEmployee: false }, photo.id)).toBeNull();
  });

  it("lets only the owner remove a photo, and removes its files", async () => {
    const [photo] = await database.db
      .select()
      .from(requestPhotos)
      .where(eq(requestPhotos.requestId, requestId))
      .limit(1);
    expect(await removeRequestPhoto(stranger.id, requestId, photo.id)).toBe(false);
    expect(await store.get(photo.filePath)).not.toBeNull();
    expect(await removeRequestPhoto(owner.id, requestId, photo.id)).toBe(true);
    expect(await store.get(photo.filePath)).toBeNull();
    expect(await store.get(photo.thumbnailPath!)).toBeNull();
    expect(await removeRequestPhoto(owner.id, requestId, photo.id)).toBe(false);
  });
});
