import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { requestPhotos, serviceRequests } from "~/db/schema";
import { MAX_PHOTO_UPLOADS_PER_HOUR, MAX_PHOTOS_PER_REQUEST } from "~/features/photos/limits";
import { receiveRequestPhotos, requestPhotoFolder } from "~/features/photos/request-photos.server";
import { limitPhotoUpload } from "~/features/photos/upload-limits.server";
import { MAX_REQUESTS_PER_HOUR } from "~/features/service-requests/limits.server";
import { createLocalStorage, setStorage, type StorageDriver } from "~/lib/storage.server";
import { action as createAction } from "~/routes/dashboard.requests";
import { action as photosAction } from "~/routes/dashboard.requests.$requestId.photos";
import { createHome, createServiceRequest, createUser } from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * The upload and request limits under concurrency (ADR 022), on the test database of the run:
 * PGlite by default, PostgreSQL with TEST_DB=postgres.
 */

const session = vi.hoisted(() => ({ customerId: "" }));
vi.mock("~/lib/session.server", async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  requireCustomerForAction: async () => ({ id: session.customerId, isEmployee: false }),
}));

let database: TestDatabase;
let store: StorageDriver;
let root: string;
let jpeg: Buffer;

beforeAll(async () => {
  database = await useTestDatabase();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "handyman-photo-limits-"));
  store = createLocalStorage(root);
  setStorage(store);
  jpeg = await sharp({
    create: { width: 96, height: 64, channels: 3, background: { r: 30, g: 120, b: 200 } },
  })
    .jpeg()
    .toBuffer();
});

afterAll(async () => {
  setStorage(undefined);
  await database?.drop();
  fs.rmSync(root, { recursive: true, force: true });
});

let people = 0;
async function customerWithRequest() {
  const user = await createUser(database.db, {
    email: `limits-${++people}@example.com`,
    password: "Sturdy-Pass-2026!",
    firstName: "Lim",
    lastName: "Its",
  });
  const home = await createHome(database.db, user.id);
  const request = await createServiceRequest(database.db, home, { title: "Porch steps" });
  return { customerId: user.id, requestId: request.id };
}

function onePhoto(
  url = "http://localhost/dashboard/requests/x/photos",
  accept = "application/json",
) {
  const body = new FormData();
  body.append("photo", new File([new Uint8Array(jpeg)], "step.jpg", { type: "image/jpeg" }));
  return new Request(url, { method: "POST", body, headers: { accept } });
}

async function photoCount(requestId: string) {
  const [{ photos }] = await database.db
    .select({ photos: count() })
    .from(requestPhotos)
    .where(eq(requestPhotos.requestId, requestId));
  return photos;
}

describe("the photo cap of a request holds under concurrency", () => {
  it("12 parallel uploads to a request with 15 photos end with exactly 20", async () => {
    const { customerId, requestId } = await customerWithRequest();
    await database.db.insert(requestPhotos).values(
      Array.from({ length: 15 }, (_, i) => ({
        requestId,
        filePath: `${requestPhotoFolder(requestId)}earlier-${i}.jpg`,
        fileName: `earlier-${i}.jpg`,
        fileSize: 1,
        contentType: "image/jpeg",
      })),
    );

    const results = await Promise.all(
      Array.from({ length: 12 }, () => receiveRequestPhotos(onePhoto(), requestId, customerId)),
    );

    expect(await photoCount(requestId)).toBe(MAX_PHOTOS_PER_REQUEST);
    expect(results.flatMap((r) => r.saved)).toHaveLength(5);
    expect(results.flatMap((r) => r.skipped)).toEqual(
      Array.from({ length: 7 }, () => ({ filename: "step.jpg", reason: "too-large" })),
    );
    // The refused photos' files are gone: only the five stored photos and their thumbnails.
    expect(await store.list(requestPhotoFolder(requestId))).toHaveLength(10);
  });
});

describe("per-customer hourly limits", () => {
  it(`refuses photos past ${MAX_PHOTO_UPLOADS_PER_HOUR} an hour with 'photos-limited', for that customer only`, async () => {
    const spender = await customerWithRequest();
    const other = await customerWithRequest();
    for (let i = 0; i < MAX_PHOTO_UPLOADS_PER_HOUR; i++) {
      expect((await limitPhotoUpload(spender.customerId)).allowed).toBe(true);
    }

    session.customerId = spender.customerId;
    const url = `http://localhost/dashboard/requests/${spender.requestId}/photos`;
    const refused = (await photosAction({
      request: onePhoto(url),
      params: { requestId: spender.requestId },
      context: {},
    } as never)) as Response;
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      ok: false,
      saved: [],
      skipped: [{ filename: "step.jpg", reason: "rate-limited" }],
      notice: "photos-limited",
    });
    expect(await photoCount(spender.requestId)).toBe(0);
    expect(await store.list(requestPhotoFolder(spender.requestId))).toEqual([]);

    // Without JavaScript the dashboard shows the same notice.
    const document = (await photosAction({
      request: onePhoto(url, "text/html"),
      params: { requestId: spender.requestId },
      context: {},
    } as never)) as Response;
    expect(document.headers.get("location")).toBe("/dashboard?notice=photos-limited");

    session.customerId = other.customerId;
    const accepted = (await photosAction({
      request: onePhoto(`http://localhost/dashboard/requests/${other.requestId}/photos`),
      params: { requestId: other.requestId },
      context: {},
    } as never)) as Response;
    expect(accepted.status).toBe(200);
    expect(await photoCount(other.requestId)).toBe(1);
  });

  it(`refuses new requests past ${MAX_REQUESTS_PER_HOUR} an hour with 'create-limited'`, async () => {
    const { customerId } = await customerWithRequest();
    session.customerId = customerId;
    const create = (title: string) =>
      createAction({
        request: new Request("http://localhost/dashboard/requests", {
          method: "POST",
          body: new URLSearchParams({ title, priority: "later" }),
          headers: { accept: "application/json" },
        }),
        params: {},
        context: {},
      } as never) as Promise<Response>;

    for (let i = 0; i < MAX_REQUESTS_PER_HOUR; i++) {
      expect((await create(`Job ${i}`)).status).toBe(201);
    }
    const refused = await create("One too many");
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      ok: false,
      message: "You have created many requests in the last hour. Please try again later.",
      notice: "create-limited",
    });
    const [{ requests }] = await database.db
      .select({ requests: count() })
      .from(serviceRequests)
      .where(eq(serviceRequests.customerId, customerId));
    expect(requests).toBe(MAX_REQUESTS_PER_HOUR + 1); // the factory's one plus the 20 created
  });
});
