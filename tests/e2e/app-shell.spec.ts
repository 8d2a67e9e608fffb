import type { Page } from "@playwright/test";
import {
  createCustomer,
  createEmployee,
  expect,
  expectNoAxeViolations,
  signIn,
  test,
} from "./fixtures";

/*
 * One app shell: the sign-in page and every signed-in area carry the same header, with the logo
 * home and the business's phone; every page carries a favicon and the icons a phone uses when
 * the site is saved to its home screen.
 */

async function expectAppHeader(page: Page) {
  const banner = page.getByRole("banner");
  await expect(banner).toHaveCount(1);
  const home = banner.getByRole("link", { name: "Peachtree Handyman Club home" });
  await expect(home).toBeVisible();
  await expect(home).toHaveAttribute("href", "/");
  const phone = banner.getByRole("link", { name: "(404) 555-0142", exact: true });
  await expect(phone).toBeVisible();
  await expect(phone).toHaveAttribute("href", "tel:+14045550142");
  // Nothing in the header runs off the screen (phone width included).
  const width = page.viewportSize()!.width;
  for (const control of await banner.locator("a, button").all()) {
    if (!(await control.isVisible())) continue;
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
  }
}

test("the sign-in page has the app header; its logo leads home @phone", async ({ page }) => {
  await page.goto("/auth");
  await expectAppHeader(page);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("banner").getByRole("link", { name: /home$/ }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the customer dashboard has the app header with the profile menu @phone", async ({ page }) => {
  await signIn(page, await createCustomer());
  await page.goto("/dashboard");
  await expectAppHeader(page);
  await expect(page.getByRole("banner").getByRole("button", { name: /profile/i })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("the employee dashboard and its pages have the app header @phone", async ({ page }) => {
  await signIn(page, await createEmployee());
  await page.goto("/employee");
  await expectAppHeader(page);
  await expect(page.getByRole("heading", { name: "Employee Dashboard" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create Appointment" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign Out" })).toBeVisible();
  await expectNoAxeViolations(page);
  for (const path of ["/employee/availability", "/employee/schedule"]) {
    await page.goto(path);
    await expectAppHeader(page);
  }
});

test("favicon, touch icon and web app manifest", async ({ page, request }) => {
  const ico = await request.get("/favicon.ico");
  expect(ico.status()).toBe(200);
  expect(ico.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  const bytes = await ico.body();
  // An ICO header: reserved 0, type 1, at least one image.
  expect(bytes.readUInt16LE(0)).toBe(0);
  expect(bytes.readUInt16LE(2)).toBe(1);
  expect(bytes.readUInt16LE(4)).toBeGreaterThan(0);

  await page.goto("/");
  const touch = await page.locator('link[rel="apple-touch-icon"]').getAttribute("href");
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(touch).toBeTruthy();
  expect(manifestHref).toBeTruthy();
  const touchIcon = await request.get(touch!);
  expect(touchIcon.status()).toBe(200);
  expect(touchIcon.headers()["content-type"]).toBe("image/png");

  const manifest = await request.get(manifestHref!);
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()["content-type"]).toContain("application/manifest+json");
  const body = (await manifest.json()) as {
    name: string;
    icons: { src: string; sizes: string }[];
  };
  expect(body.name).toBe("Peachtree Handyman Club");
  expect(body.icons.map((icon) => icon.sizes)).toEqual(["192x192", "512x512"]);
  for (const icon of body.icons) {
    const file = await request.get(icon.src);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toBe("image/png");
  }
  // The signed-in pages carry the same icons.
  await page.goto("/auth");
  await expect(page.locator('link[rel="icon"][href="/favicon.ico"]')).toHaveCount(1);
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveCount(1);
});
