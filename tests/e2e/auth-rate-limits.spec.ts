import type { Page } from "@playwright/test";
import { PASSWORD, createCustomer, expect, test, uniqueEmail } from "./fixtures";
import { BASE_URL } from "../support/ports";
import { expectToast, fillSignUp, signInThroughForm } from "./auth-helpers";

/* SPEC section 5: 5 sign-in or sign-up attempts per 15 minutes, per e-mail and per address. */

const WAIT = /^Please wait ([1-9]|1[0-5]) minutes before trying again\.$/;

async function expectRateLimited(page: Page) {
  await expectToast(page, "Too many attempts");
  const toast = page
    .locator("[data-sonner-toast]")
    .filter({ hasText: "Too many attempts" })
    .first();
  await expect(toast.getByText(WAIT)).toBeVisible();
}

test("the sixth sign-in for one e-mail within 15 minutes is refused, even with the right password", async ({
  page,
}) => {
  const customer = await createCustomer();
  for (let i = 0; i < 5; i++) {
    await signInThroughForm(page, { email: customer.email, password: `Wrong-Pass-${i}!` });
    await expectToast(page, "Error", "Invalid email or password");
  }
  await signInThroughForm(page, customer);
  await expectRateLimited(page);
  await expect(page).toHaveURL(/\/auth$/);
});

test("the sixth attempt from one client address is refused whatever the e-mail", async ({
  page,
}) => {
  for (let i = 0; i < 3; i++) {
    await signInThroughForm(page, { email: uniqueEmail("probe"), password: "Whatever-1!" });
    await expectToast(page, "Error", "Invalid email or password");
  }
  for (let i = 0; i < 2; i++) {
    await page.goto("/auth?mode=sign-up");
    await fillSignUp(page, {
      firstName: "Probe",
      lastName: "Person",
      email: uniqueEmail("probe"),
      password: PASSWORD,
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Success");
  }
  await page.goto("/auth?mode=sign-up");
  await fillSignUp(page, {
    firstName: "Probe",
    lastName: "Person",
    email: uniqueEmail("probe"),
    password: PASSWORD,
  });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expectRateLimited(page);
});

test("the API answers 429 with the same words", async ({ request }) => {
  const email = uniqueEmail("api");
  const statuses: number[] = [];
  let last: unknown;
  for (let i = 0; i < 6; i++) {
    const response = await request.post("/api/auth/sign-in/email", {
      data: { email, password: "Wrong-Pass-1!" },
      headers: { origin: BASE_URL },
    });
    statuses.push(response.status());
    last = await response.json();
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  expect(last).toMatchObject({ title: "Too many attempts", message: expect.stringMatching(WAIT) });
});
