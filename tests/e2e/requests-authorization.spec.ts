import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import type { APIRequestContext, Browser } from "@playwright/test";
import { requestPhotos, serviceRequests } from "~/db/schema";
import { createAppointment, createServiceRequest } from "../../server/seed/factories";
import { BASE_URL, E2E_PORT } from "../support/ports";
import { createCustomer, createEmployee, e2eDb, expect, signIn, test } from "./fixtures";

/**
 * A fresh browser context browsing from its own made-up address, like the test fixture's
 * page, so per-address sign-in limits count this context alone.
 */
function ownAddress() {
  const b = crypto.randomBytes(3);
  return { "x-forwarded-for": `10.${b[0]}.${b[1]}.${b[2] || 1}` };
}

/*
 * Row access (docs/design.md decision 3) and hostile uploads, through the real routes: a second
 * customer can neither see, edit, delete, reorder nor fetch the photos of the first one's
 * requests, whether through the page or by posting and fetching directly.
 */

const UPLOADS = path.resolve(".tmp", `e2e-${E2E_PORT}`, "uploads");
const JSON_HEADERS = { origin: BASE_URL, accept: "application/json" };

async function jpeg(width = 64, height = 48) {
  return sharp({ create: { width, height, channels: 3, background: { r: 180, g: 80, b: 30 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: "PhoneCo" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "33/1 44/1 56/1" },
    })
    .toBuffer();
}

/** A signed-in browser context for a person; its `request` carries their session cookie. */
async function sessionFor(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL: BASE_URL, extraHTTPHeaders: ownAddress() });
  const page = await context.newPage();
  await signIn(page, account);
  return { context, page, request: page.request };
}

async function photosOf(requestId: string) {
  return e2eDb().select().from(requestPhotos).where(eq(requestPhotos.requestId, requestId));
}

function filesIn(requestId: string) {
  const folder = path.join(UPLOADS, "request-photos", requestId);
  return fs.existsSync(folder)
    ? fs.readdirSync(folder).filter((f) => !f.endsWith(".meta.json"))
    : [];
}

async function uploadAs(
  request: APIRequestContext,
  requestId: string,
  file: {
    name: string;
    mimeType: string;
    buffer: Buffer;
  },
) {
  return request.post(`/dashboard/requests/${requestId}/photos`, {
    headers: JSON_HEADERS,
    multipart: { photo: file },
  });
}

test.describe("a second customer", () => {
  test("cannot see, edit, delete, reorder or fetch the photos of the first one's requests", async ({
    browser,
  }) => {
    const owner = await createCustomer({ firstName: "Owner" });
    const other = await createCustomer({ firstName: "Other" });
    const ownerHome = { id: owner.homeId!, customerId: owner.id };
    const first = await createServiceRequest(e2eDb(), ownerHome, {
      title: "Owner first",
      position: 0,
    });
    const second = await createServiceRequest(e2eDb(), ownerHome, {
      title: "Owner private job",
      description: "Alarm code 1234",
      position: 1,
    });
    const appointment = await createAppointment(e2eDb(), ownerHome, {
      scheduledDate: "2099-01-15",
      startTime: "09:00",
      endTime: "10:00",
      tasks: ["Private task"],
    });

    const ownerSession = await sessionFor(browser, owner);
    const upload = await uploadAs(ownerSession.request, second.id, {
      name: "hall.jpg",
      mimeType: "image/jpeg",
      buffer: await jpeg(),
    });
    expect(upload.status()).toBe(200);
    const [photo] = await photosOf(second.id);
    expect(photo).toBeDefined();

    const otherSession = await sessionFor(browser, other);
    const { page, request } = otherSession;

    // Through the page: nothing of the owner's shows, not even by guessing the edit URL.
    await page.goto(`/dashboard?edit=${second.id}`);
    await expect(page.getByRole("heading", { name: "No Service Requests" })).toBeVisible();
    await expect(page.getByText("Owner private job")).toHaveCount(0);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByText("Alarm code 1234")).toHaveCount(0);

    // By posting directly: every action answers 404 and changes nothing.
    const post = (url: string, form: Record<string, string>) =>
      request.post(url, { headers: JSON_HEADERS, form });
    const update = await post(`/dashboard/requests/${second.id}`, {
      intent: "update",
      title: "Hijacked",
      priority: "next",
    });
    expect(update.status()).toBe(404);
    expect(await update.json()).toMatchObject({ ok: false, notice: "update-failed" });
    const multipartUpdate = await request.post(`/dashboard/requests/${second.id}`, {
      headers: JSON_HEADERS,
      multipart: { intent: "update", title: "Hijacked", priority: "next" },
    });
    expect(multipartUpdate.status()).toBe(404);
    expect((await post(`/dashboard/requests/${second.id}`, { intent: "delete" })).status()).toBe(
      404,
    );
    expect((await post(`/dashboard/requests/${second.id}`, { intent: "move-up" })).status()).toBe(
      404,
    );
    expect((await post(`/dashboard/requests/${first.id}`, { intent: "move-down" })).status()).toBe(
      404,
    );
    const foreignUpload = await uploadAs(request, second.id, {
      name: "mine.jpg",
      mimeType: "image/jpeg",
      buffer: await jpeg(),
    });
    expect(foreignUpload.status()).toBe(404);
    expect(
      (
        await post(`/dashboard/requests/${second.id}/photos/${photo.id}`, { intent: "remove" })
      ).status(),
    ).toBe(404);

    const rows = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.customerId, owner.id))
      .orderBy(serviceRequests.position);
    expect(rows.map((row) => [row.title, row.position, row.priority])).toEqual([
      ["Owner first", 0, "later"],
      ["Owner private job", 1, "later"],
    ]);
    expect(await photosOf(second.id)).toHaveLength(1);
    expect(filesIn(second.id)).toHaveLength(2);

    // Fetching the photo URLs and the calendar file directly.
    for (const url of [`/request-photos/${photo.id}`, `/request-photos/${photo.id}/thumbnail`]) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(404);
      expect((await response.body()).includes(Buffer.from([0xff, 0xd8]))).toBe(false);
    }
    expect((await request.get(`/dashboard/appointments/${appointment.id}/calendar`)).status()).toBe(
      404,
    );

    // The owner still gets everything.
    const own = await ownerSession.request.get(`/request-photos/${photo.id}`);
    expect(own.status()).toBe(200);
    expect(own.headers()["content-type"]).toBe("image/jpeg");
    expect(own.headers()["cache-control"]).toBe("private, max-age=3600");
    expect(own.headers()["x-content-type-options"]).toBe("nosniff");
    expect(
      (
        await ownerSession.request.get(`/dashboard/appointments/${appointment.id}/calendar`)
      ).status(),
    ).toBe(200);

    await ownerSession.context.close();
    await otherSession.context.close();
  });

  test("visitors get 401, employees see photos but cannot act as customers", async ({
    browser,
    playwright,
  }) => {
    const owner = await createCustomer();
    const request = await createServiceRequest(
      e2eDb(),
      { id: owner.homeId!, customerId: owner.id },
      { title: "Photo job" },
    );
    const ownerSession = await sessionFor(browser, owner);
    const upload = await uploadAs(ownerSession.request, request.id, {
      name: "a.jpg",
      mimeType: "image/jpeg",
      buffer: await jpeg(),
    });
    expect(upload.status(), await upload.text()).toBe(200);
    const [photo] = await photosOf(request.id);

    const visitor = await playwright.request.newContext({
      baseURL: BASE_URL,
      extraHTTPHeaders: ownAddress(),
    });
    expect((await visitor.get(`/request-photos/${photo.id}`)).status()).toBe(401);
    expect(
      (
        await visitor.post(`/dashboard/requests/${request.id}`, {
          headers: JSON_HEADERS,
          form: { intent: "delete" },
        })
      ).status(),
    ).toBe(401);
    // A post from another site is refused before anything else.
    expect(
      (
        await visitor.post(`/dashboard/requests/${request.id}`, {
          headers: { origin: "https://evil.example" },
          form: { intent: "delete" },
        })
      ).status(),
    ).toBe(403);
    await visitor.dispose();

    const staff = await sessionFor(browser, await createEmployee());
    const seen = await staff.request.get(`/request-photos/${photo.id}/thumbnail`);
    expect(seen.status()).toBe(200);
    expect(seen.headers()["content-type"]).toBe("image/webp");
    expect(
      (
        await staff.request.post(`/dashboard/requests/${request.id}`, {
          headers: JSON_HEADERS,
          form: { intent: "delete" },
        })
      ).status(),
    ).toBe(403);
    expect(await photosOf(request.id)).toHaveLength(1);

    // Nonsense ids are simply not found.
    expect((await staff.request.get("/request-photos/not-a-uuid")).status()).toBe(404);
    expect((await staff.request.get(`/request-photos/${photo.id}/original`)).status()).toBe(404);
    await staff.context.close();
    await ownerSession.context.close();
  });
});

test.describe("hostile uploads through the upload route", () => {
  test("each is rejected or cleaned; none is stored as sent", async ({ browser }) => {
    const owner = await createCustomer();
    const request = await createServiceRequest(
      e2eDb(),
      { id: owner.homeId!, customerId: owner.id },
      { title: "Upload target" },
    );
    const session = await sessionFor(browser, owner);
    const send = (name: string, mimeType: string, buffer: Buffer) =>
      uploadAs(session.request, request.id, { name, mimeType, buffer });

    const html = await send(
      "kitchen.jpg",
      "image/jpeg",
      Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>"),
    );
    expect(html.status()).toBe(422);
    const svg = await send(
      "garage.jpg",
      "image/jpeg",
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
    );
    expect(svg.status()).toBe(422);
    const big = await sharp({
      create: {
        width: 900,
        height: 700,
        channels: 3,
        background: "#345",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    const truncated = await send("porch.jpg", "image/jpeg", big.subarray(0, big.length >> 1));
    expect(truncated.status()).toBe(422);
    const oversize = Buffer.alloc(10 * 1024 * 1024 + 1, 0);
    big.copy(oversize, 0, 0, 2048);
    const tooBig = await send("huge.jpg", "image/jpeg", oversize);
    expect(tooBig.status()).toBe(413);
    expect(await photosOf(request.id)).toHaveLength(0);
    expect(filesIn(request.id)).toEqual([]);

    // A real photo with GPS tags, sent with a spoofed Content-Type: kept, but cleaned.
    const original = await jpeg(80, 60);
    const spoofed = await send("photo.html", "text/html", original);
    expect(spoofed.status()).toBe(200);
    const [photo] = await photosOf(request.id);
    expect(photo.contentType).toBe("image/jpeg");
    expect(photo.filePath).toMatch(new RegExp(`^request-photos/${request.id}/[0-9a-f]{32}\\.jpg$`));
    const served = await session.request.get(`/request-photos/${photo.id}`);
    expect(served.headers()["content-type"]).toBe("image/jpeg");
    const bytes = await served.body();
    expect(bytes.equals(original)).toBe(false);
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([60, 80]);
    expect(bytes.includes(Buffer.from("PhoneCo"))).toBe(false);
    await session.context.close();
  });
});
