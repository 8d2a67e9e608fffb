import { totp } from "../support/totp";
import { createCustomer, createEmployee, expect, expectNoAxeViolations, test } from "./fixtures";
import { enrolThroughApi, expectToast, signInThroughForm } from "./auth-helpers";

test("with two-factor on, sign-in asks for the 6-digit code before any session exists @phone", async ({
  page,
}) => {
  const customer = await createCustomer({ firstName: "Tess" });
  const { key } = await enrolThroughApi(page, customer);

  await signInThroughForm(page, customer);
  await expect(page).toHaveURL(/\/auth\?step=two-factor$/);
  await expect(
    page.getByRole("heading", { level: 1, name: "Two-step verification" }),
  ).toBeVisible();
  // Password alone is not a session: the dashboard still sends us to /auth.
  const peek = await page.request.get("/dashboard", { maxRedirects: 0 });
  expect(peek.status()).toBe(302);
  expect(peek.headers().location).toBe("/auth");
  await expectNoAxeViolations(page);

  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expectToast(page, "Error", "Invalid code");

  const code = totp(key);
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Welcome, Tess" })).toBeVisible();

  // The same code cannot be used again (replay), even within its 30 seconds.
  await page.context().clearCookies();
  await signInThroughForm(page, customer);
  await expect(page).toHaveURL(/step=two-factor/);
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expectToast(page, "Error", "This code has already been used.");
  await expect(page).toHaveURL(/step=two-factor/);
});

test("a backup code signs in once", async ({ page }) => {
  const customer = await createCustomer();
  const { backupCodes } = await enrolThroughApi(page, customer);

  await signInThroughForm(page, customer);
  await page.getByRole("link", { name: "Use a backup code instead" }).click();
  await page.getByLabel("Backup code").fill(backupCodes[0]);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.context().clearCookies();
  await signInThroughForm(page, customer);
  await page.getByRole("link", { name: "Use a backup code instead" }).click();
  await page.getByLabel("Backup code").fill(backupCodes[0]);
  await page.getByRole("button", { name: "Verify" }).click();
  await expectToast(page, "Error", "Invalid backup code");
});

test("an employee with two-factor lands on /employee after the code", async ({ page }) => {
  const employee = await createEmployee();
  const { key } = await enrolThroughApi(page, employee);
  await signInThroughForm(page, employee);
  await page.getByLabel("Authentication code").fill(totp(key));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/employee$/);
});

test("the code step without a pending sign-in starts over", async ({ page }) => {
  await page.goto("/auth?step=two-factor");
  await expectToast(page, "Error", "Your sign-in took too long. Please sign in again.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Sign in to /);
});

test("five wrong codes lock the account's code step for 15 minutes, whatever the password opened", async ({
  page,
}) => {
  const customer = await createCustomer();
  const { key } = await enrolThroughApi(page, customer);
  for (let i = 0; i < 5; i++) {
    // Signing in again (a right password is not counted) gives no fresh tries at the code.
    if (i % 2 === 0) {
      await page.context().clearCookies();
      await signInThroughForm(page, customer);
      await expect(page).toHaveURL(/step=two-factor/);
    }
    await page.getByLabel("Authentication code").fill(String(100000 + i));
    await page.getByRole("button", { name: "Verify" }).click();
    await expectToast(page, "Error", "Invalid code");
  }
  await page.getByLabel("Authentication code").fill(totp(key));
  await page.getByRole("button", { name: "Verify" }).click();
  await expectToast(page, "Too many attempts");
  await expect(
    page.getByText(/^Please wait ([1-9]|1[0-5]) minutes before trying again\.$/),
  ).toBeVisible();
  await expect(page).toHaveURL(/step=two-factor/);
  const peek = await page.request.get("/dashboard", { maxRedirects: 0 });
  expect(peek.status()).toBe(302);
});
