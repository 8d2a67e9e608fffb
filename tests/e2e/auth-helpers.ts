import type { Page } from "@playwright/test";
import { BASE_URL } from "../support/ports";
import { awaitFreshStep, currentStep, secretOf, totp } from "../support/totp";
import { expect, signIn, TOAST, TOASTER } from "./fixtures";

/** The toast region: toasts are checked there, not elsewhere on the page. */
export function toasts(page: Page) {
  return page.locator(TOASTER);
}

/** Waits for a toast with this title (and description, when given). */
export async function expectToast(page: Page, title: string, description?: string) {
  const toast = toasts(page)
    .locator(TOAST)
    .filter({ has: page.getByText(title, { exact: true }) });
  await expect(toast.first()).toBeVisible();
  if (description) await expect(toast.first()).toContainText(description);
}

export async function fillSignUp(
  page: Page,
  values: { firstName: string; lastName: string; email: string; password: string },
) {
  await page.getByLabel("First Name").fill(values.firstName);
  await page.getByLabel("Last Name").fill(values.lastName);
  await page.getByLabel("Email").fill(values.email);
  await page.getByLabel("Password", { exact: true }).fill(values.password);
}

export async function signInThroughForm(page: Page, account: { email: string; password: string }) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
}

/** Fills and saves the property setup dialog. */
export async function completePropertySetup(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Welcome! Let's set up your property" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Street Address").fill("742 Evergreen Terrace NE");
  await dialog.getByLabel("City").fill("Atlanta");
  await dialog.getByLabel("State").fill("GA");
  await dialog.getByLabel("ZIP Code").fill("30306");
  await dialog.getByLabel("Property Notes (optional)").fill("Gate code 1234");
  await dialog.getByRole("button", { name: "Save and Continue" }).click();
  // Saved once the dialog is gone: a navigation before that would cancel the save, and the
  // next page would open the dialog again over everything else.
  await expect(dialog).toBeHidden();
}

/**
 * Opens the header's profile menu and picks an item. Retries the click: a click that lands
 * before hydration opens nothing.
 */
export async function chooseFromProfileMenu(page: Page, item: "Profile" | "Sign Out") {
  const menuItem = page.getByRole("menuitem", { name: item, exact: true });
  await expect(async () => {
    if (!(await menuItem.isVisible())) {
      await page.getByRole("button", { name: /^Profile menu/ }).click();
    }
    await expect(menuItem).toBeVisible({ timeout: 1000 });
  }).toPass();
  await menuItem.click();
}

/** Turns two-factor on through the auth API (the Profile Settings journey has its own test). */
export async function enrolThroughApi(page: Page, account: { email: string; password: string }) {
  await signIn(page, account);
  const enable = await page.request.post("/api/auth/two-factor/enable", {
    data: { password: account.password },
    headers: { origin: BASE_URL },
  });
  expect(enable.ok(), await enable.text()).toBeTruthy();
  const { totpURI, backupCodes } = (await enable.json()) as {
    totpURI: string;
    backupCodes: string[];
  };
  const key = secretOf(totpURI);
  await awaitFreshStep(10_000);
  // The previous step's code, so the current one is still unused when the test signs in.
  const verify = await page.request.post("/api/auth/two-factor/verify-totp", {
    data: { code: totp(key, currentStep() - 1) },
    headers: { origin: BASE_URL },
  });
  expect(verify.ok(), await verify.text()).toBeTruthy();
  await page.context().clearCookies();
  return { key, backupCodes };
}
