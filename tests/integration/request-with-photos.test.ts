import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requestPhotos, serviceRequests } from "~/db/schema";
import { requestPhotoFolder } from "~/features/photos/request-photos.server";
import {
  createRequestWithPhotos,
  updateRequestWithPhotos,
} from "~/features/service-requests/with-photos.server";
import { createLocalStorage, setStorage, type StorageDriver } from "~/lib/storage.server";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * A request's form posted without JavaScript: one multipart body, its fields first, then its
 * photos. The request is created (or updated) from the fields before the first photo is stored,
 * a refused form stores nothing, and a body cut short after a photo keeps the request.
 */

let database: TestDatabase;
let store: StorageDriver;
let root: string;
let customerId: string;
let jpeg: Buffer;

beforeAll(async () => {
  database = await useTestDatabase();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-request-photos-"));
  store = createLocalStorage(root);
  setStorage(store);
  const user = await createUser(database.db, {
    email: "multipart@example.com",
    password: "Sturdy-Pass-2026!",
    firstName: "Multi",
    lastName: "Part",
  });
  customerId = user.id;
  await createHome(database.db, user.id);
  // Bigger than the shared samplePhoto(): cutShort cuts 400 bytes into the second photo.
  jpeg = await sharp({
    create: { width: 320, height: 240, channels: 3, background: { r: 40, g: 120, b: 90 } },
  })
    .jpeg()
    .toBuffer();
});

afterAll(async () => {
  setStorage(undefined);
  await database?.drop();
  fs.rmSync(root, { recursive: true, force: true });
});

function form(fields: Record<string, string>, photos: number) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (let i = 0; i < photos; i++)
    body.append(
      "photos",
      new File([new Uint8Array(jpeg)], `step-${i}.jpg`, { type: "image/jpeg" }),
    );
  return body;
}

function post(url: string, body: FormData) {
  return new Request(url, { method: "POST", body });
}

/** The same multipart body cut short in its second photo. */
async function cutShort(url: string, body: FormData) {
  const whole = new Request(url, { method: "POST", body });
  const bytes = Buffer.from(await whole.arrayBuffer());
  const secondPhoto = bytes.indexOf("filename=", bytes.indexOf("filename=") + 1);
  return new Request(url, {
    method: "POST",
    body: new Uint8Array(bytes.subarray(0, secondPhoto + 400)),
    headers: { "content-type": whole.headers.get("content-type")! },
  });
}

async function photosOf(requestId: string) {
  return database.db.select().from(requestPhotos).where(eq(requestPhotos.requestId, requestId));
}

describe("a request with its photos in one multipart post", () => {
  it("creates the request from the fields, then stores each photo into it", async () => {
    const outcome = await createRequestWithPhotos(
      post(
        "http://localhost/dashboard/requests",
        form({ title: "Porch rail", priority: "next" }, 2),
      ),
      customerId,
    );
    expect(outcome).toMatchObject({ notice: "created", status: 201 });
    const [row] = await database.db
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, outcome.requestId!));
    expect(row).toMatchObject({ title: "Porch rail", customerId });
    expect(await photosOf(row.id)).toHaveLength(2);
    expect(await store.list(requestPhotoFolder(row.id))).toHaveLength(4);
  });

  it("a refused form stores nothing: no request, no photo, the messages by field", async () => {
    const before = await database.db.select().from(serviceRequests);
    const outcome = await createRequestWithPhotos(
      post("http://localhost/dashboard/requests", form({ title: " ", priority: "next" }, 1)),
      customerId,
    );
    expect(outcome).toMatchObject({
      notice: "create-failed",
      status: 400,
      result: { error: { title: ["Title is required"] } },
    });
    expect(await database.db.select().from(serviceRequests)).toHaveLength(before.length);
    expect(await database.db.select().from(requestPhotos)).toHaveLength(2); // the first test's
  });

  it("a body cut short after its first photo keeps the request and that photo", async () => {
    const request = await cutShort(
      "http://localhost/dashboard/requests",
      form({ title: "Cut short", priority: "later" }, 2),
    );
    const outcome = await createRequestWithPhotos(request, customerId);
    expect(outcome).toMatchObject({ notice: "created" });
    // The answer does not wait for the photo being stored when the body broke (readMultipart).
    await expect.poll(async () => (await photosOf(outcome.requestId!)).length).toBe(1);
  });

  it("a body that cannot be read is refused with its status and creates nothing", async () => {
    const before = await database.db.select().from(serviceRequests);
    const outcome = await createRequestWithPhotos(
      new Request("http://localhost/dashboard/requests", {
        method: "POST",
        body: "--x\r\nnot a part",
        headers: { "content-type": "multipart/form-data; boundary=x" },
      }),
      customerId,
    );
    expect(outcome).toMatchObject({ notice: "create-failed" });
    expect([400, 413, 415]).toContain(outcome.status);
    expect(await database.db.select().from(serviceRequests)).toHaveLength(before.length);
  });

  it("updates the request from the fields and adds the new photos; another's is not found", async () => {
    const home = await database.db.query.homes.findFirst();
    const existing = await createServiceRequest(database.db, home!, { title: "Old title" });
    const url = `http://localhost/dashboard/requests/${existing.id}`;
    const outcome = await updateRequestWithPhotos(
      post(url, form({ intent: "update", title: "New title", priority: "later" }, 1)),
      customerId,
      existing.id,
    );
    expect(outcome).toMatchObject({ notice: "updated", requestId: existing.id });
    const [row] = await database.db
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, existing.id));
    expect(row.title).toBe("New title");
    expect(await photosOf(existing.id)).toHaveLength(1);

    const stranger = await createUser(database.db, {
      email: "stranger-multipart@example.com",
      password: "Sturdy-Pass-2026!",
      firstName: "Stran",
      lastName: "Ger",
    });
    const refused = await updateRequestWithPhotos(
      post(url, form({ intent: "update", title: "Hijacked", priority: "next" }, 1)),
      stranger.id,
      existing.id,
    );
    expect(refused).toMatchObject({ notice: "update-failed", status: 404 });
    expect(await photosOf(existing.id)).toHaveLength(1);
    const [after] = await database.db
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, existing.id));
    expect(after.title).toBe("New title");
  });
});
