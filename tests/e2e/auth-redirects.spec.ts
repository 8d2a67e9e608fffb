import { createCustomer, createEmployee, expect, signIn, test } from "./fixtures";
import { BASE_URL } from "../support/ports";
import { expectToast, signInThroughForm } from "./auth-helpers";

/* SPEC section 2's redirect rules, for a visitor, a customer and an employee. */

test.describe("visitor", () => {
  for (const path of ["/dashboard", "/employee"]) {
    test(`${path} sends a visitor to /auth`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Sign in to /);
    });
  }

  test("account actions refuse a visitor", async ({ request }) => {
    const response = await request.post("/account", {
      form: { intent: "update-profile", firstName: "X" },
      headers: { origin: BASE_URL },
    });
    expect(response.status()).toBe(401);
  });
});

test.describe("customer", () => {
  test("with a home: sign-in leads to /dashboard, and /auth sends back there @phone", async ({
    page,
  }) => {
    const customer = await createCustomer({ firstName: "Robin" });
    await signInThroughForm(page, customer);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Welcome, Robin" })).toBeVisible();
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("on /employee: 'Access Denied' / 'You don't have employee access.', then /dashboard @phone", async ({
    page,
  }) => {
    const customer = await createCustomer();
    await signIn(page, customer);
    await page.goto("/employee");
    await expectToast(page, "Access Denied", "You don't have employee access.");
    await expect(page).toHaveURL(/\/dashboard/);
    await expect(page.getByText("Manage your service requests and appointments")).toBeVisible();
  });

  test("without a home: /dashboard sends to /auth, where the property dialog opens", async ({
    page,
  }) => {
    const customer = await createCustomer({ home: false });
    await signIn(page, customer);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
    await expect(
      page.getByRole("dialog", { name: "Welcome! Let's set up your property" }),
    ).toBeVisible();
  });
});

test.describe("employee", () => {
  test("sign-in leads to /employee; /dashboard and /auth send back there", async ({ page }) => {
    const employee = await createEmployee();
    await signInThroughForm(page, employee);
    await expect(page).toHaveURL(/\/employee$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/employee$/);
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/employee$/);
  });

  test("never sees the property dialog, though employees have no home", async ({ page }) => {
    const employee = await createEmployee();
    await signIn(page, employee);
    await page.goto("/auth");
    await expect(page).toHaveURL(/\/employee$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});

test.describe("leaving the property dialog", () => {
  test("'Not you? Sign out' ends the session", async ({ page }) => {
    const customer = await createCustomer({ home: false });
    await signIn(page, customer);
    await page.goto("/auth");
    const dialog = page.getByRole("dialog", { name: "Welcome! Let's set up your property" });
    await dialog.getByRole("button", { name: "Not you? Sign out" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Sign in to /);
    await expect(page.getByText("You have been successfully signed out.")).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});
