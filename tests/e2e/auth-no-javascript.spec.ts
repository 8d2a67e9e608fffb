import { eq } from "drizzle-orm";
import { homes } from "~/db/schema";
import { PASSWORD, createCustomer, e2eDb, expect, sink, test, uniqueEmail } from "./fixtures";
import { fillSignUp } from "./auth-helpers";

/* The /auth forms are plain HTML forms with server actions: they work with JavaScript off. */

test.use({ javaScriptEnabled: false });

test("sign in without JavaScript", async ({ page }) => {
  const customer = await createCustomer({ firstName: "Noel" });
  await page.goto("/auth");
  await page.getByLabel("Email").fill(customer.email);
  await page.getByLabel("Password", { exact: true }).fill(customer.password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Welcome, Noel" })).toBeVisible();
});

test("a wrong password is reported in the page under 'Error'", async ({ page }) => {
  const customer = await createCustomer();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(customer.email);
  await page.getByLabel("Password", { exact: true }).fill("Wrong-Pass-1!");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  const alert = page.getByRole("alert");
  await expect(alert).toContainText("Error");
  await expect(alert).toContainText("Invalid email or password");
  // What was typed stays, except the password.
  await expect(page.getByLabel("Email")).toHaveValue(customer.email);
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
});

test("the server checks the sign-up rules itself", async ({ page }) => {
  await page.goto("/auth?mode=sign-up");
  await fillSignUp(page, { firstName: "J", lastName: "Doe9", email: "bad", password: "short" });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("alert")).toContainText("Invalid first name");
  const form = page.locator("form");
  await expect(form.getByText("Name must be at least 2 characters")).toBeVisible();
  await expect(form.getByText("Name contains invalid characters")).toBeVisible();
  await expect(form.getByText("Please enter a valid email address")).toBeVisible();
  await expect(form.getByText("Password must be at least 8 characters")).toBeVisible();
  await expect(page.getByLabel("First Name")).toHaveAttribute("aria-invalid", "true");
});

test("sign up, confirm and set up the property without JavaScript", async ({ page }) => {
  const email = uniqueEmail("nojs");
  await page.goto("/auth");
  await page.getByRole("link", { name: "Sign up" }).click();
  await fillSignUp(page, { firstName: "Quinn", lastName: "Static", email, password: PASSWORD });
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("status")).toContainText(
    "Please check your email for the confirmation link.",
  );
  const mail = await sink.waitForMail(email, /Confirm your/);
  await page.goto(sink.linkIn(mail, "/api/auth/verify-email"));
  const dialog = page.getByRole("dialog", { name: "Welcome! Let's set up your property" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Street Address").fill("10 Static Way");
  await dialog.getByLabel("City").fill("Roswell");
  // A list of states that starts on Georgia.
  await expect(dialog.getByLabel("State")).toHaveValue("GA");
  await dialog.getByLabel("ZIP Code").fill("30075");
  await dialog.getByRole("button", { name: "Save and Continue" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const rows = await e2eDb().select().from(homes).where(eq(homes.city, "Roswell"));
  expect(rows.some((home) => home.address === "10 Static Way")).toBe(true);
});

test("forgot password without JavaScript", async ({ page }) => {
  const customer = await createCustomer();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(customer.email);
  await page.getByRole("button", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("status")).toContainText("Reset link sent");
  await sink.waitForMail(customer.email, /Reset your/);
});
