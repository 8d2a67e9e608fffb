import type { Page } from "@playwright/test";
import { BASE_URL } from "../support/ports";
import { createUser } from "../../server/seed/factories";
import { createCustomer, e2eDb, expect, PASSWORD, signIn, test, uniqueEmail } from "./fixtures";
import {
  chooseFromProfileMenu,
  completePropertySetup,
  enrolThroughApi,
  expectToast,
  signInThroughForm,
} from "./auth-helpers";

/*
 * A person's ordinary mistake is shown on the page, not logged as a failed request in the
 * browser's console: the page's own requests are answered 200 with the error in the body.
 */

/** Every answer to the page's own data requests (`*.data`) with a 4xx/5xx status. */
function failedDataRequests(page: Page) {
  const failed: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.endsWith(".data") && response.status() >= 400)
      failed.push(`${response.status()} ${response.url()}`);
  });
  return failed;
}

test("a wrong password at sign-in logs no console error", async ({ page, consoleErrors }) => {
  const failed = failedDataRequests(page);
  const customer = await createCustomer();
  await signInThroughForm(page, { email: customer.email, password: "Wrong-Pass-1!" });
  await expectToast(page, "Error", "Invalid email or password");
  expect(failed).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("signing in before confirming the address logs no console error (issue 32)", async ({
  page,
  consoleErrors,
}) => {
  const failed = failedDataRequests(page);
  const account = await createUser(e2eDb(), {
    email: uniqueEmail("unconfirmed"),
    password: PASSWORD,
    firstName: "Una",
    lastName: "Confirmed",
    emailVerified: false,
  });
  await signInThroughForm(page, account);
  await expectToast(
    page,
    "Please confirm your e-mail address",
    "We have just sent you a new link: open it, then sign in.",
  );
  await expect(page.getByRole("button", { name: "Resend confirmation e-mail" })).toBeVisible();
  expect(failed).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("a wrong two-factor code logs no console error", async ({ page, consoleErrors }) => {
  const customer = await createCustomer();
  await enrolThroughApi(page, customer);
  const failed = failedDataRequests(page);
  await signInThroughForm(page, customer);
  await expect(page).toHaveURL(/step=two-factor/);
  await page.getByLabel("Authentication code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expectToast(page, "Error", "Invalid code");
  await expect(page).toHaveURL(/step=two-factor/);
  expect(failed).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("a wrong password confirmation in Profile Settings logs no console error @phone", async ({
  page,
  consoleErrors,
}) => {
  const failed = failedDataRequests(page);
  const customer = await createCustomer();
  await signIn(page, customer);
  await page.goto("/dashboard");
  await chooseFromProfileMenu(page, "Profile");
  const dialog = page.getByRole("dialog", { name: "Profile Settings" });
  await dialog.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await dialog.getByLabel("Confirm your password").fill("Not-My-Pass-1!");
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expectToast(page, "Error", "Incorrect password");
  // The form stays for another try.
  await expect(dialog.getByLabel("Confirm your password")).toBeVisible();
  expect(failed).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a wrong password is still answered 400, shown in the page", async ({ page }) => {
    const customer = await createCustomer();
    await page.goto("/auth");
    await page.getByLabel("Email").fill(customer.email);
    await page.getByLabel("Password", { exact: true }).fill("Wrong-Pass-1!");
    const answer = page.waitForResponse(
      (response) => response.request().method() === "POST" && /\/auth/.test(response.url()),
    );
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    expect((await answer).status()).toBe(400);
    await expect(page.getByRole("alert")).toContainText("Invalid email or password");
  });
});

test("API clients keep the status codes", async ({ page, request }) => {
  const customer = await createCustomer();
  const refused = await request.post("/auth", {
    headers: { origin: BASE_URL },
    form: { intent: "sign-in", email: customer.email, password: "Wrong-Pass-1!" },
  });
  expect(refused.status()).toBe(400);
  const invalid = await request.post("/auth", {
    headers: { origin: BASE_URL },
    form: { intent: "sign-in", email: "not-an-address", password: "x" },
  });
  expect(invalid.status()).toBe(400);
  const visitor = await request.post("/account", {
    headers: { origin: BASE_URL },
    form: { intent: "two-factor-enable", password: "Wrong-Pass-1!" },
  });
  expect(visitor.status()).toBe(401);
  await signIn(page, customer);
  const wrongConfirmation = await page.request.post("/account", {
    headers: { origin: BASE_URL },
    form: { intent: "two-factor-enable", password: "Wrong-Pass-1!" },
  });
  expect(wrongConfirmation.status()).toBeGreaterThanOrEqual(400);
  expect(wrongConfirmation.status()).toBeLessThan(500);
});

test("saving a new customer's property moves on to the dashboard with no console error (no AbortError)", async ({
  page,
  consoleErrors,
}) => {
  const customer = await createCustomer({ firstName: "Pia", home: false });
  await signInThroughForm(page, customer);
  await completePropertySetup(page);
  await expectToast(page, "Welcome!", "Your property information has been saved.");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Welcome, Pia" })).toBeVisible();
  // Whatever the dashboard still loads after it showed: it finishes without an error.
  await page.waitForLoadState("networkidle");
  expect(consoleErrors).toEqual([]);
});
