import type { Page } from "@playwright/test";
import { createCustomer, createEmployee, expect, signIn, test, TOAST } from "./fixtures";
import { chooseFromProfileMenu } from "./auth-helpers";
import { waitForEnhancements } from "./marketing-helpers";

/*
 * Toasts sit below the page's header, at every width: they never cover Book a Call, the phone
 * number, the menu or the profile menu.
 */

type Box = { x: number; y: number; width: number; height: number };

function intersects(a: Box, b: Box) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The toast showing `title` overlaps none of the header's visible controls. */
async function expectToastClearOfHeader(page: Page, title: string) {
  const toast = page.locator(TOAST).filter({ hasText: title }).first();
  await expect(toast).toBeVisible();
  // Let it finish sliding in.
  await expect(async () => {
    const before = await toast.boundingBox();
    await page.waitForTimeout(150);
    expect(await toast.boundingBox()).toEqual(before);
  }).toPass();
  const toastBox = (await toast.boundingBox())!;
  const controls = page.locator("header").first().locator("a, button, summary, [role=button]");
  let checked = 0;
  for (const control of await controls.all()) {
    if (!(await control.isVisible())) continue;
    const box = (await control.boundingBox())!;
    const name = (await control.getAttribute("aria-label")) ?? (await control.innerText());
    expect(intersects(toastBox, box), `the toast covers "${name.trim()}"`).toBe(false);
    checked++;
  }
  expect(checked).toBeGreaterThan(0);
  // And it is on screen, not pushed off it.
  expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(page.viewportSize()!.height);
}

test("on the home page the toast is below the header's Book a Call and phone @phone", async ({
  page,
}) => {
  await page.goto("/#contact");
  await waitForEnhancements(page);
  const form = page.locator("#contact form");
  await form.getByLabel("Name").fill("Robin Lee");
  await form.getByLabel("Zip Code").fill("303");
  await form.getByLabel("Email").fill("robin@example.com");
  await form.getByRole("button", { name: "Schedule Free Consultation" }).click();
  await expectToastClearOfHeader(page, "Invalid zip code");
  // Also when the page is scrolled back to the top.
  await page.evaluate(() => window.scrollTo(0, 0));
  await form.getByRole("button", { name: "Schedule Free Consultation" }).click();
  await expectToastClearOfHeader(page, "Invalid zip code");
});

test("on the dashboard the toast is below the header's profile menu @phone", async ({ page }) => {
  const customer = await createCustomer();
  await signIn(page, customer);
  await page.goto("/dashboard");
  await chooseFromProfileMenu(page, "Profile");
  const dialog = page.getByRole("dialog", { name: "Profile Settings" });
  await dialog.getByRole("button", { name: "Edit Profile Information" }).click();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expectToastClearOfHeader(page, "Profile updated successfully");
});

test("on the employee dashboard the toast is below the header's buttons @phone", async ({
  page,
}) => {
  await signIn(page, await createEmployee());
  await page.goto("/employee");
  await chooseFromProfileMenu(page, "Profile");
  const dialog = page.getByRole("dialog", { name: "Profile Settings" });
  await dialog.getByRole("button", { name: "Edit Profile Information" }).click();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expectToastClearOfHeader(page, "Profile updated successfully");
});
