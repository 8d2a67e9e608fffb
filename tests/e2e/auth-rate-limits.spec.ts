import type { Page } from "@playwright/test";
import { PASSWORD, createCustomer, expect, test, uniqueEmail } from "./fixtures";
import { BASE_URL } from "../support/ports";
import { AUTH_ADDRESS_LIMIT, AUTH_ATTEMPT_LIMIT } from "~/features/accounts/rate-limit.server";
import { expectToast, fillSignUp, signInThroughForm } from "./auth-helpers";

/*
 * SPEC section 5: 5 sign-in or sign-up attempts per 15 minutes per e-mail and client address; a
 * client address gets AUTH_ADDRESS_LIMIT; a successful attempt is taken back (ADR 010, ADR 021).
 */

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

test("the owner signs in with the right password while a stranger at another address is locked out of her e-mail", async ({
  page,
  playwright,
}) => {
  const customer = await createCustomer();
  const stranger = await playwright.request.newContext({
    baseURL: BASE_URL,
    extraHTTPHeaders: { "x-forwarded-for": "10.203.7.7", origin: BASE_URL },
  });
  const statuses: number[] = [];
  for (let i = 0; i < AUTH_ATTEMPT_LIMIT + 2; i++) {
    const response = await stranger.post("/api/auth/sign-in/email", {
      data: { email: customer.email, password: `Wrong-Pass-${i}!` },
    });
    statuses.push(response.status());
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  // The stranger is told the true wait: the whole window, from the first of five failures.
  const refused = await stranger.post("/api/auth/sign-in/email", {
    data: { email: customer.email, password: customer.password },
  });
  expect(await refused.json()).toMatchObject({
    message: "Please wait 15 minutes before trying again.",
  });
  await stranger.dispose();
  // The owner, at her own address (this test's), with the right password: in.
  await signInThroughForm(page, customer);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("one client address gets AUTH_ADDRESS_LIMIT failed attempts, then even a sign-up is refused", async ({
  page,
  request,
}) => {
  // The page and the API requests come from the same client address (this test's own).
  for (let i = 0; i < AUTH_ADDRESS_LIMIT - 1; i++) {
    const response = await request.post("/api/auth/sign-in/email", {
      data: { email: uniqueEmail("probe"), password: "Whatever-1!" },
      headers: { origin: BASE_URL },
    });
    expect(response.status()).toBe(401);
  }
  await signInThroughForm(page, { email: uniqueEmail("probe"), password: "Whatever-1!" });
  await expectToast(page, "Error", "Invalid email or password");
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

test("a right password does not count: one member signs in again and again, and a family signs up from one address", async ({
  page,
  request,
}) => {
  const customer = await createCustomer();
  // Four wrong tries, then more correct sign-ins than the limit: each goes through.
  for (let i = 0; i < AUTH_ATTEMPT_LIMIT - 1; i++) {
    const response = await request.post("/api/auth/sign-in/email", {
      data: { email: customer.email, password: `Wrong-Pass-${i}!` },
      headers: { origin: BASE_URL },
    });
    expect(response.status()).toBe(401);
  }
  for (let i = 0; i < AUTH_ATTEMPT_LIMIT + 2; i++) {
    const response = await request.post("/api/auth/sign-in/email", {
      data: { email: customer.email, password: customer.password },
      headers: { origin: BASE_URL },
    });
    expect(response.status()).toBe(200);
  }
  await signInThroughForm(page, customer);
  await expect(page).toHaveURL(/\/dashboard$/);
  // The fifth wrong one still counts, and then the e-mail is locked, right password or not.
  await page.context().clearCookies();
  await signInThroughForm(page, { email: customer.email, password: "Wrong-Pass-9!" });
  await expectToast(page, "Error", "Invalid email or password");
  await signInThroughForm(page, customer);
  await expectRateLimited(page);

  // Accounts created one after another from one address: more than 5, none refused.
  for (let i = 0; i < AUTH_ATTEMPT_LIMIT + 2; i++) {
    const response = await request.post("/api/auth/sign-up/email", {
      data: {
        firstName: "Family",
        lastName: `Member${"abcdefg"[i]}`,
        email: uniqueEmail("family"),
        password: PASSWORD,
      },
      headers: { origin: BASE_URL },
    });
    expect(response.status()).toBe(200);
  }
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
