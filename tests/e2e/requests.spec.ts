import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { homes, requestPhotos, serviceRequests } from "~/db/schema";
import { createServiceRequest } from "../../server/seed/factories";
import { E2E_PORT } from "../support/ports";
import {
  createCustomer,
  e2eDb,
  expect,
  expectNoAxeViolations,
  signIn,
  test,
  type TestAccount,
} from "./fixtures";
import type { Page } from "@playwright/test";

/**
 * A fresh browser context browsing from its own made-up address, like the test fixture's
 * page, so per-address sign-in limits count this context alone.
 */
function ownAddress() {
  const b = crypto.randomBytes(3);
  return { "x-forwarded-for": `10.${b[0]}.${b[1]}.${b[2] || 1}` };
}

/** Where the end-to-end server keeps uploads (DATA_DIR/uploads, see tests/support/e2e-server.ts). */
const UPLOADS = path.resolve(".tmp", `e2e-${E2E_PORT}`, "uploads");

/** A real JPEG of about `kilobytes` KB: noise compresses badly, so size follows pixels. */
async function photo(name: string, kilobytes = 60) {
  const side = Math.max(32, Math.round(Math.sqrt(kilobytes * 1024 * 0.9)));
  const pixels = Buffer.alloc(side * side * 3);
  let seed = name.length * 7919 + kilobytes;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    pixels[i] = seed >>> 24;
  }
  const buffer = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
  return { name, mimeType: "image/jpeg", buffer };
}

function homeOf(customer: TestAccount & { homeId?: string }) {
  return { id: customer.homeId!, customerId: customer.id };
}

async function openDashboard(page: Page, customer: TestAccount) {
  await signIn(page, customer);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

function group(page: Page, name: "Next" | "Later") {
  return page.getByRole("region", { name: new RegExp(`^${name} \\(\\d+\\)$`) });
}

function cardTitles(page: Page, name: "Next" | "Later") {
  return group(page, name).getByRole("article").getByRole("heading");
}

test.describe("creating a request", () => {
  test("from the empty state: a new request in Later, status New @phone", async ({ page }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const dialog = page.getByRole("dialog", { name: "How can we help" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Priority")).toHaveValue("later");
    await expectNoAxeViolations(page);
    await dialog.getByLabel("Title").fill("Kitchen faucet drips");
    await dialog.getByLabel(/Description/).fill("Drips all night, even when fully off.");
    await dialog.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByText("Service request created successfully")).toBeVisible();
    await expect(dialog).toBeHidden();

    await expect(page.getByRole("region", { name: "Later (1)" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Next (0)" })).toBeVisible();
    await expect(page.getByText("No urgent tasks yet")).toBeVisible();
    const card = group(page, "Later").getByRole("article", { name: "Kitchen faucet drips" });
    await expect(card.getByText("Drips all night, even when fully off.")).toBeVisible();
    await expect(card.getByText("New", { exact: true })).toBeVisible();
    await expect(card.getByText(/^Created [A-Z][a-z]{2} \d{1,2}, \d{4}$/)).toBeVisible();

    const [row] = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.customerId, customer.id));
    expect(row).toMatchObject({ title: "Kitchen faucet drips", status: "new", priority: "later" });
  });

  test("each group's plus button presets its priority", async ({ page }) => {
    const customer = await createCustomer();
    await createServiceRequest(e2eDb(), homeOf(customer), { title: "Existing", priority: "later" });
    await openDashboard(page, customer);
    await expect(page.getByText("No urgent tasks yet")).toBeVisible();
    await page.getByRole("button", { name: "Add to Next" }).click();
    const dialog = page.getByRole("dialog", { name: "How can we help" });
    await expect(dialog.getByLabel("Priority")).toHaveValue("next");
    await dialog.getByLabel("Title").fill("Smoke detector chirps");
    await dialog.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByText("Service request created successfully")).toBeVisible();
    await expect(cardTitles(page, "Next")).toHaveText(["Smoke detector chirps"]);

    await page.getByRole("button", { name: "Add to Later" }).click();
    await expect(dialog.getByLabel("Priority")).toHaveValue("later");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole("button", { name: "New Request", exact: true }).click();
    await expect(dialog.getByLabel("Priority")).toHaveValue("later");
  });

  test("the openers are buttons; with JavaScript they open the dialog without a page load @phone", async ({
    page,
  }) => {
    const customer = await createCustomer();
    const existing = await createServiceRequest(e2eDb(), homeOf(customer), { title: "Existing" });
    await openDashboard(page, customer);
    for (const name of ["New Request", "Add to Next", "Add to Later", "Edit Existing"]) {
      await expect(page.getByRole("button", { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: /New Request|Add to|Edit/ })).toHaveCount(0);
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));

    const addToNext = page.getByRole("button", { name: "Add to Next" });
    await addToNext.click();
    const create = page.getByRole("dialog", { name: "How can we help" });
    await expect(create.getByLabel("Priority")).toHaveValue("next");
    await expect(page).toHaveURL(/\/dashboard\?new=next$/);
    await page.keyboard.press("Escape");
    await expect(create).toBeHidden();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(addToNext).toBeFocused();

    // The keyboard opens the edit dialog of a card too.
    await page.getByRole("button", { name: "Edit Existing" }).focus();
    await page.keyboard.press("Enter");
    const edit = page.getByRole("dialog", { name: "Update Service Request" });
    await expect(edit.getByLabel("Title")).toHaveValue("Existing");
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?edit=${existing.id}$`));
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(
      true,
    );
  });

  test("without JavaScript the openers submit a GET form that opens the form on the page", async ({
    browser,
  }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: ownAddress(),
    });
    const page = await context.newPage();
    const customer = await createCustomer();
    const existing = await createServiceRequest(e2eDb(), homeOf(customer), { title: "Existing" });
    await openDashboard(page, customer);

    await page.getByRole("button", { name: "New Request", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\?new=later$/);
    const create = page.getByRole("region", { name: "How can we help" });
    await expect(create.getByLabel("Priority")).toHaveValue("later");

    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Add to Next" }).click();
    await expect(page).toHaveURL(/\/dashboard\?new=next$/);
    await expect(create.getByLabel("Priority")).toHaveValue("next");

    await page.goto("/dashboard");
    await page.getByRole("button", { name: "Edit Existing" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard\\?edit=${existing.id}$`));
    const edit = page.getByRole("region", { name: "Update Service Request" });
    await expect(edit.getByLabel("Title")).toHaveValue("Existing");
    await context.close();
  });

  test("the title is required; nothing is saved without it", async ({ page }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const dialog = page.getByRole("dialog", { name: "How can we help" });
    await dialog.getByLabel(/Description/).fill("No title here");
    await dialog.getByRole("button", { name: "Create Request" }).click();
    await expect(dialog.getByText("Title is required")).toBeVisible();
    await expect(dialog.getByLabel("Title")).toBeFocused();
    expect(
      await e2eDb()
        .select()
        .from(serviceRequests)
        .where(eq(serviceRequests.customerId, customer.id)),
    ).toHaveLength(0);
  });

  test("without a home: 'No property found. Please contact support.'", async ({ page }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    // The home disappears after the page was loaded (support removed it).
    await e2eDb().delete(homes).where(eq(homes.customerId, customer.id));
    const dialog = page.getByRole("dialog", { name: "How can we help" });
    await dialog.getByLabel("Title").fill("Anything");
    await dialog.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByText("No property found. Please contact support.")).toBeVisible();
    expect(
      await e2eDb()
        .select()
        .from(serviceRequests)
        .where(eq(serviceRequests.customerId, customer.id)),
    ).toHaveLength(0);
  });

  test("works without JavaScript, photos included", async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: ownAddress(),
    });
    const page = await context.newPage();
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const form = page.getByRole("region", { name: "How can we help" });
    await expect(form).toBeVisible();
    await form.getByLabel("Title").fill("Hang six prints");
    await form.getByLabel("Priority").selectOption("next");
    await form.getByLabel("Photos").setInputFiles([await photo("wall.jpg")]);
    await form.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByRole("status")).toHaveText("Service request created successfully");
    const card = group(page, "Next").getByRole("article", { name: "Hang six prints" });
    await expect(card.getByRole("img", { name: "Photo of Hang six prints" })).toHaveCount(1);
    await context.close();
  });
});

test.describe("photos", () => {
  test("upload with a progress bar per photo; thumbnails in the card, full size on click", async ({
    page,
    context,
  }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const dialog = page.getByRole("dialog", { name: "How can we help" });
    await dialog.getByLabel("Title").fill("Cracked tile");
    const files = [await photo("tile-1.jpg", 400), await photo("tile-2.jpg", 400)];
    await dialog.getByLabel("Photos").setInputFiles(files);
    const list = dialog
      .getByRole("region", { name: "Files to upload" })
      .getByRole("list", { name: "Files to upload" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(list.getByRole("img", { name: "Preview of tile-1.jpg" })).toBeVisible();
    const bar = dialog.getByRole("progressbar", { name: "Upload progress for tile-1.jpg" });
    await expect(bar).toBeVisible();
    await expect(
      dialog.getByRole("progressbar", { name: "Upload progress for tile-2.jpg" }),
    ).toBeVisible();

    // Slow the upload down so its progress can be watched on the way.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 150 * 1024,
    });
    const seen = new Set<number>();
    const watcher = (async () => {
      for (let i = 0; i < 200; i++) {
        const value = Number((await bar.getAttribute("aria-valuenow").catch(() => null)) ?? NaN);
        if (Number.isFinite(value)) seen.add(value);
        if (value >= 100) return;
        await page.waitForTimeout(50);
      }
    })();
    await dialog.getByRole("button", { name: "Create Request" }).click();
    await expect(dialog.getByRole("button", { name: "Creating..." })).toBeVisible();
    await watcher;
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    expect([...seen].some((value) => value > 0 && value < 100)).toBe(true);
    expect(seen.has(100)).toBe(true);

    await expect(page.getByText("Service request created successfully")).toBeVisible();
    const card = page.getByRole("article", { name: "Cracked tile" });
    const thumbs = card.getByRole("list", { name: "Images of Cracked tile" }).getByRole("img");
    await expect(thumbs).toHaveCount(2);
    await expect(card.getByRole("img")).toHaveCount(2);
    await expect(thumbs.nth(0)).toHaveAccessibleName("Photo of Cracked tile, 1 of 2");
    await expect(thumbs.nth(1)).toHaveAccessibleName("Photo of Cracked tile, 2 of 2");
    for (const thumb of await thumbs.all()) {
      await expect
        .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    }

    const rows = await e2eDb()
      .select()
      .from(requestPhotos)
      .innerJoin(serviceRequests, eq(serviceRequests.id, requestPhotos.requestId))
      .where(eq(serviceRequests.customerId, customer.id));
    expect(rows).toHaveLength(2);
    for (const { request_photos: row } of rows) {
      expect(fs.existsSync(path.join(UPLOADS, row.filePath))).toBe(true);
      expect(row.filePath).not.toContain("tile");
    }

    const popupPromise = page.waitForEvent("popup");
    await card
      .getByRole("link", {
        name: /^Photo of Cracked tile, 1 of 2 \(opens full size in a new tab\)$/,
      })
      .click();
    const popup = await popupPromise;
    await popup.waitForLoadState();
    expect(popup.url()).toMatch(/\/request-photos\/[0-9a-f-]{36}$/);
    const full = await page.request.get(popup.url());
    expect(full.status()).toBe(200);
    expect(full.headers()["content-type"]).toBe("image/jpeg");
    expect(full.headers()["cache-control"]).toBe("private, max-age=3600");
    expect(full.headers()["x-content-type-options"]).toBe("nosniff");
    const size = await sharp(await full.body()).metadata();
    expect(size.width).toBeGreaterThan(320);
  });

  test("a file over 10 MB is dropped in the browser with the spec's notice", async ({ page }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const dialog = page.getByRole("dialog", { name: "How can we help" });
    await dialog
      .getByLabel("Photos")
      .setInputFiles([
        { name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 1) },
        await photo("small.jpg"),
      ]);
    await expect(page.getByText("File size limit")).toBeVisible();
    await expect(page.getByText("Some files were too large (max 10MB per file)")).toBeVisible();
    const list = dialog
      .getByRole("region", { name: "Files to upload" })
      .getByRole("list", { name: "Files to upload" });
    await expect(list.getByRole("listitem")).toHaveCount(1);
    await expect(list.getByText("small.jpg")).toBeVisible();
    await expect(list.getByText("huge.jpg")).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Remove small.jpg" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe("reordering", () => {
  test("moves within a group, never past the ends, and survives a reload and another device", async ({
    page,
    browser,
  }) => {
    const customer = await createCustomer();
    const home = homeOf(customer);
    for (const [position, title] of ["Alpha", "Bravo", "Charlie"].entries()) {
      await createServiceRequest(e2eDb(), home, { title, priority: "later", position });
    }
    await createServiceRequest(e2eDb(), home, { title: "Urgent one", priority: "next" });
    await openDashboard(page, customer);
    await expect(cardTitles(page, "Later")).toHaveText(["Alpha", "Bravo", "Charlie"]);
    await expect(page.getByRole("button", { name: "Move Alpha up" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Move Charlie down" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Move Urgent one up" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "Move Urgent one down" })).toBeDisabled();

    await page.getByRole("button", { name: "Move Charlie up" }).click();
    await expect(page.getByText("Request order updated successfully")).toBeVisible();
    await expect(cardTitles(page, "Later")).toHaveText(["Alpha", "Charlie", "Bravo"]);
    const saved = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().includes("/requests/"),
    );
    await page.getByRole("button", { name: "Move Alpha down" }).click();
    // The new order shows at once, before the server has answered.
    await expect(cardTitles(page, "Later")).toHaveText(["Charlie", "Alpha", "Bravo"]);
    expect((await saved).status()).toBe(200);
    await expect(page.getByRole("button", { name: "Move Charlie up" })).toBeDisabled();
    await expect(cardTitles(page, "Next")).toHaveText(["Urgent one"]);

    await page.reload();
    await expect(cardTitles(page, "Later")).toHaveText(["Charlie", "Alpha", "Bravo"]);

    const otherDevice = await browser.newContext({ extraHTTPHeaders: ownAddress() });
    const otherPage = await otherDevice.newPage();
    await openDashboard(otherPage, customer);
    await expect(cardTitles(otherPage, "Later")).toHaveText(["Charlie", "Alpha", "Bravo"]);
    await otherDevice.close();
  });

  test("a failed move says so and reloads the list", async ({ page }) => {
    const customer = await createCustomer();
    const home = homeOf(customer);
    await createServiceRequest(e2eDb(), home, { title: "Keep me", position: 0 });
    const gone = await createServiceRequest(e2eDb(), home, {
      title: "Deleted elsewhere",
      position: 1,
    });
    await openDashboard(page, customer);
    await expect(cardTitles(page, "Later")).toHaveText(["Keep me", "Deleted elsewhere"]);
    await e2eDb().delete(serviceRequests).where(eq(serviceRequests.id, gone.id));
    await page.getByRole("button", { name: "Move Deleted elsewhere up" }).click();
    await expect(page.getByText("Failed to update request order")).toBeVisible();
    await expect(cardTitles(page, "Later")).toHaveText(["Keep me"]);
  });

  test("works without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: ownAddress(),
    });
    const page = await context.newPage();
    const customer = await createCustomer();
    const home = homeOf(customer);
    await createServiceRequest(e2eDb(), home, { title: "First", position: 0 });
    await createServiceRequest(e2eDb(), home, { title: "Second", position: 1 });
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Move Second up" }).click();
    await expect(page.getByRole("status")).toHaveText("Request order updated successfully");
    await expect(cardTitles(page, "Later")).toHaveText(["Second", "First"]);
    await context.close();
  });
});

test.describe("editing and deleting", () => {
  test("'Update Service Request' changes title, description and priority", async ({ page }) => {
    const customer = await createCustomer();
    const request = await createServiceRequest(e2eDb(), homeOf(customer), {
      title: "Paint fence",
      description: "White",
      priority: "later",
    });
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Edit Paint fence" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Service Request" });
    await expect(dialog.getByLabel("Title")).toHaveValue("Paint fence");
    await expect(dialog.getByLabel(/Description/)).toHaveValue("White");
    await expectNoAxeViolations(page);
    await dialog.getByLabel("Title").fill("Paint the back fence");
    await dialog.getByLabel(/Description/).fill("Sage green, two coats");
    await dialog.getByLabel("Priority").selectOption("next");
    await dialog.getByRole("button", { name: "Update Request" }).click();
    await expect(page.getByText("Service request updated successfully")).toBeVisible();
    await expect(dialog).toBeHidden();
    const card = group(page, "Next").getByRole("article", { name: "Paint the back fence" });
    await expect(card.getByText("Sage green, two coats")).toBeVisible();
    const [row] = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, request.id));
    expect(row).toMatchObject({ title: "Paint the back fence", priority: "next" });
  });

  test("completed requests have no edit control", async ({ page }) => {
    const customer = await createCustomer();
    await createServiceRequest(e2eDb(), homeOf(customer), {
      title: "Done job",
      status: "complete",
    });
    await createServiceRequest(e2eDb(), homeOf(customer), { title: "Open job" });
    await openDashboard(page, customer);
    await expect(page.getByRole("button", { name: "Edit Open job" })).toBeVisible();
    // Completed work is listed under Completed only (tests/e2e/completed-leaves-to-do.spec.ts).
    await page.getByRole("tab", { name: "Completed" }).click();
    await expect(page.getByRole("article", { name: "Done job" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Edit Done job" })).toHaveCount(0);
  });

  test("an update of a request that is gone fails with the spec's notice", async ({ page }) => {
    const customer = await createCustomer();
    const request = await createServiceRequest(e2eDb(), homeOf(customer), { title: "Vanishing" });
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Edit Vanishing" }).click();
    await e2eDb().delete(serviceRequests).where(eq(serviceRequests.id, request.id));
    const dialog = page.getByRole("dialog", { name: "Update Service Request" });
    await dialog.getByLabel("Title").fill("Still here?");
    await dialog.getByRole("button", { name: "Update Request" }).click();
    await expect(page.getByText("Failed to update service request")).toBeVisible();
  });

  test("a photo marked for removal goes only with 'Update Request'; Cancel keeps it", async ({
    page,
  }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const create = page.getByRole("dialog", { name: "How can we help" });
    await create.getByLabel("Title").fill("Loose railing");
    await create
      .getByLabel("Photos")
      .setInputFiles([await photo("rail-1.jpg"), await photo("rail-2.jpg")]);
    await create.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByText("Service request created successfully")).toBeVisible();
    const card = page.getByRole("article", { name: "Loose railing" });
    await expect(card.getByRole("img")).toHaveCount(2);
    const photos = await e2eDb()
      .select()
      .from(requestPhotos)
      .innerJoin(serviceRequests, eq(serviceRequests.id, requestPhotos.requestId))
      .where(eq(serviceRequests.customerId, customer.id))
      .orderBy(requestPhotos.uploadedAt);
    const first = photos[0].request_photos;
    const stored = () => fs.existsSync(path.join(UPLOADS, first.filePath));

    // Marking a photo removes nothing yet, and Cancel brings it back.
    await page.getByRole("button", { name: "Edit Loose railing" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Service Request" });
    await expect(
      dialog.getByRole("img", { name: /^Photo of Loose railing, \d of 2$/ }),
    ).toHaveCount(2);
    await dialog.getByRole("checkbox", { name: "Remove photo 1" }).check();
    const marked = dialog.getByText("Will be removed").locator("visible=true");
    await expect(marked).toHaveCount(1);
    expect(stored()).toBe(true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole("img")).toHaveCount(2);
    expect(stored()).toBe(true);

    await page.getByRole("button", { name: "Edit Loose railing" }).click();
    await expect(dialog.getByRole("checkbox", { name: "Remove photo 1" })).not.toBeChecked();
    await expect(marked).toHaveCount(0);
    // A mark can be taken back before saving.
    await dialog.getByRole("checkbox", { name: "Remove photo 2" }).check();
    await dialog.getByRole("checkbox", { name: "Remove photo 2" }).uncheck();
    await dialog.getByRole("checkbox", { name: "Remove photo 1" }).check();
    await dialog.getByRole("button", { name: "Update Request" }).click();
    await expect(page.getByText("Service request updated successfully")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole("img")).toHaveCount(1);
    expect(stored()).toBe(false);
    expect(fs.existsSync(path.join(UPLOADS, first.thumbnailPath!))).toBe(false);
    expect(fs.existsSync(path.join(UPLOADS, photos[1].request_photos.filePath))).toBe(true);

    // Removed meanwhile on another device: the update still goes through.
    await page.getByRole("button", { name: "Edit Loose railing" }).click();
    await e2eDb().delete(requestPhotos).where(eq(requestPhotos.id, photos[1].request_photos.id));
    await dialog.getByRole("checkbox", { name: "Remove photo 1" }).check();
    await dialog.getByLabel("Title").fill("Loose railing, front steps");
    await dialog.getByRole("button", { name: "Update Request" }).click();
    // (The first update's toast may still be showing.)
    await expect(page.getByText("Service request updated successfully").last()).toBeVisible();
    await expect(page.getByRole("article", { name: "Loose railing, front steps" })).toBeVisible();
  });

  test("without JavaScript, marked photos go with 'Update Request' and Cancel keeps them", async ({
    browser,
  }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: ownAddress(),
    });
    const page = await context.newPage();
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const create = page.getByRole("region", { name: "How can we help" });
    await create.getByLabel("Title").fill("Porch light");
    await create
      .getByLabel("Photos")
      .setInputFiles([await photo("porch-1.jpg"), await photo("porch-2.jpg")]);
    await create.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByRole("status")).toHaveText("Service request created successfully");
    const card = page.getByRole("article", { name: "Porch light" });
    await expect(card.getByRole("img")).toHaveCount(2);

    await card.getByRole("button", { name: "Edit Porch light" }).click();
    const form = page.getByRole("region", { name: "Update Service Request" });
    await form.getByRole("checkbox", { name: "Remove photo 2" }).check();
    await form.getByRole("link", { name: "Cancel" }).click();
    await expect(card.getByRole("img")).toHaveCount(2);

    await card.getByRole("button", { name: "Edit Porch light" }).click();
    await form.getByRole("checkbox", { name: "Remove photo 2" }).check();
    await form.getByLabel("Add photos").setInputFiles([await photo("porch-3.jpg")]);
    await form.getByRole("button", { name: "Update Request" }).click();
    await expect(page.getByRole("status")).toHaveText("Service request updated successfully");
    await expect(card.getByRole("img")).toHaveCount(2);
    const rows = await e2eDb()
      .select()
      .from(requestPhotos)
      .innerJoin(serviceRequests, eq(serviceRequests.id, requestPhotos.requestId))
      .where(eq(serviceRequests.customerId, customer.id));
    expect(rows.map((row) => row.request_photos.fileName).sort()).toEqual([
      "porch-1.jpg",
      "porch-3.jpg",
    ]);
    await context.close();
  });

  test("marking a photo keeps the unsaved edits, and 'Update Request' saves them all @phone", async ({
    page,
  }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const create = page.getByRole("dialog", { name: "How can we help" });
    await create.getByLabel("Title").fill("Faucet");
    await create.getByLabel(/Description/).fill("Drips");
    await create.getByLabel("Priority").selectOption("next");
    await create
      .getByLabel("Photos")
      .setInputFiles([await photo("faucet-1.jpg"), await photo("faucet-2.jpg")]);
    await create.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByText("Service request created successfully")).toBeVisible();
    await expect(create).toBeHidden();
    const [request] = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.customerId, customer.id));
    const before = await e2eDb()
      .select()
      .from(requestPhotos)
      .where(eq(requestPhotos.requestId, request.id))
      .orderBy(requestPhotos.uploadedAt);
    expect(before).toHaveLength(2);

    // A fresh page load, as a member would start.
    await page.reload();
    await page.getByRole("button", { name: "Edit Faucet" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Service Request" });
    await expect(dialog.getByLabel("Title")).toHaveValue("Faucet");
    await dialog.getByLabel("Title").fill("Faucet v3");
    await dialog.getByLabel(/Description/).fill("Drips at night");
    await dialog.getByLabel("Priority").selectOption("later");
    await dialog.getByLabel("Add photos").setInputFiles([await photo("faucet-new.jpg")]);
    await expect(dialog.getByRole("img", { name: "Preview of faucet-new.jpg" })).toBeVisible();

    await dialog.getByRole("checkbox", { name: "Remove photo 1" }).check();
    await expect(dialog.getByText("Will be removed").locator("visible=true")).toHaveCount(1);
    // Nothing typed or chosen is lost.
    await expect(dialog.getByLabel("Title")).toHaveValue("Faucet v3");
    await expect(dialog.getByLabel(/Description/)).toHaveValue("Drips at night");
    await expect(dialog.getByLabel("Priority")).toHaveValue("later");
    await expect(dialog.getByRole("img", { name: "Preview of faucet-new.jpg" })).toBeVisible();

    await dialog.getByRole("button", { name: "Update Request" }).click();
    await expect(page.getByText("Service request updated successfully")).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.reload();
    await expect(cardTitles(page, "Next")).toHaveCount(0);
    const card = group(page, "Later").getByRole("article", { name: "Faucet v3" });
    await expect(card.getByText("Drips at night")).toBeVisible();
    await expect(card.getByRole("img")).toHaveCount(2);
    const [row] = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.id, request.id));
    expect(row).toMatchObject({
      title: "Faucet v3",
      description: "Drips at night",
      priority: "later",
    });
    const after = await e2eDb()
      .select()
      .from(requestPhotos)
      .where(eq(requestPhotos.requestId, request.id));
    expect(after.map((item) => item.id)).not.toContain(before[0].id);
    expect(after.map((item) => item.fileName).sort()).toEqual(["faucet-2.jpg", "faucet-new.jpg"]);
    expect(fs.existsSync(path.join(UPLOADS, before[0].filePath))).toBe(false);
  });

  test("removing a chosen photo in the create dialog keeps what was typed @phone", async ({
    page,
  }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const dialog = page.getByRole("dialog", { name: "How can we help" });
    await dialog.getByLabel("Title").fill("Gutter");
    await dialog.getByLabel(/Description/).fill("Overflows at the corner");
    await dialog.getByLabel("Priority").selectOption("next");
    await dialog
      .getByLabel("Photos")
      .setInputFiles([await photo("gutter-1.jpg"), await photo("gutter-2.jpg")]);
    await dialog.getByRole("button", { name: "Remove gutter-1.jpg" }).click();
    await expect(dialog.getByRole("img", { name: "Preview of gutter-1.jpg" })).toHaveCount(0);
    await expect(dialog.getByRole("img", { name: "Preview of gutter-2.jpg" })).toBeVisible();
    await expect(dialog.getByLabel("Title")).toHaveValue("Gutter");
    await expect(dialog.getByLabel(/Description/)).toHaveValue("Overflows at the corner");
    await expect(dialog.getByLabel("Priority")).toHaveValue("next");
    await dialog.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByText("Service request created successfully")).toBeVisible();
    await expect(dialog).toBeHidden();

    await page.reload();
    const card = group(page, "Next").getByRole("article", { name: "Gutter" });
    await expect(card.getByText("Overflows at the corner")).toBeVisible();
    await expect(card.getByRole("img")).toHaveCount(1);
    const rows = await e2eDb()
      .select()
      .from(requestPhotos)
      .innerJoin(serviceRequests, eq(serviceRequests.id, requestPhotos.requestId))
      .where(eq(serviceRequests.customerId, customer.id));
    expect(rows.map((item) => item.request_photos.fileName)).toEqual(["gutter-2.jpg"]);
    expect(rows[0].service_requests).toMatchObject({
      title: "Gutter",
      description: "Overflows at the corner",
      priority: "next",
    });
  });

  test("Delete asks first, then removes the request and every photo file @phone", async ({
    page,
  }) => {
    const customer = await createCustomer();
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Create First Request" }).click();
    const create = page.getByRole("dialog", { name: "How can we help" });
    await create.getByLabel("Title").fill("Broken blinds");
    await create.getByLabel("Photos").setInputFiles([await photo("blinds.jpg")]);
    await create.getByRole("button", { name: "Create Request" }).click();
    await expect(page.getByText("Service request created successfully")).toBeVisible();
    await expect(page.getByRole("article", { name: "Broken blinds" }).getByRole("img")).toHaveCount(
      1,
    );
    const [request] = await e2eDb()
      .select()
      .from(serviceRequests)
      .where(eq(serviceRequests.customerId, customer.id));
    const folder = path.join(UPLOADS, "request-photos", request.id);
    expect(fs.readdirSync(folder).filter((f) => !f.endsWith(".meta.json"))).toHaveLength(2);

    await page.getByRole("button", { name: "Edit Broken blinds" }).click();
    const dialog = page.getByRole("dialog", { name: "Update Service Request" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete Service Request" });
    await expect(
      confirm.getByText(
        "Are you sure you want to delete this service request? This action cannot be undone and will permanently remove the request and all associated photos.",
      ),
    ).toBeVisible();
    await expectNoAxeViolations(page);
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(confirm).toBeHidden();
    await dialog.getByRole("button", { name: "Delete" }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Service request deleted successfully")).toBeVisible();
    await expect(page.getByRole("heading", { name: "No Service Requests" })).toBeVisible();
    expect(
      await e2eDb().select().from(serviceRequests).where(eq(serviceRequests.id, request.id)),
    ).toHaveLength(0);
    expect(fs.existsSync(folder)).toBe(false);
  });

  test("a failed delete says so", async ({ page }) => {
    const customer = await createCustomer();
    const request = await createServiceRequest(e2eDb(), homeOf(customer), { title: "Twice gone" });
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Edit Twice gone" }).click();
    await e2eDb().delete(serviceRequests).where(eq(serviceRequests.id, request.id));
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Failed to delete service request")).toBeVisible();
  });

  test("edit and delete work without JavaScript", async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      extraHTTPHeaders: ownAddress(),
    });
    const page = await context.newPage();
    const customer = await createCustomer();
    const request = await createServiceRequest(e2eDb(), homeOf(customer), { title: "Old name" });
    await openDashboard(page, customer);
    await page.getByRole("button", { name: "Edit Old name" }).click();
    const form = page.getByRole("region", { name: "Update Service Request" });
    await form.getByLabel("Title").fill("New name");
    await form.getByRole("button", { name: "Update Request" }).click();
    await expect(page.getByRole("status")).toHaveText("Service request updated successfully");
    await page.getByRole("button", { name: "Edit New name" }).click();
    await page.getByRole("link", { name: "Delete" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete Service Request" });
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("status")).toHaveText("Service request deleted successfully");
    expect(
      await e2eDb().select().from(serviceRequests).where(eq(serviceRequests.id, request.id)),
    ).toHaveLength(0);
    await context.close();
  });
});
