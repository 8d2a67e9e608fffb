import { eq } from "drizzle-orm";
import { profiles, user } from "~/db/schema";
import { PASSWORD, createCustomer, e2eDb, expect, test, uniqueEmail } from "./fixtures";
import { expectToast, fillSignUp, signInThroughForm } from "./auth-helpers";

/*
 * Every validation message of SPEC section 5 for the /auth forms, as the toasts a person sees
 * (title and text) and the message under the field.
 */

const valid = {
  firstName: "Jordan",
  lastName: "Rivers",
  email: "valid@example.com",
  password: PASSWORD,
};

test.describe("sign-up validation", () => {
  const cases: Array<[string, Partial<typeof valid>, string, string]> = [
    ["empty first name", { firstName: "" }, "Invalid first name", "Name is required"],
    ["one letter", { firstName: "J" }, "Invalid first name", "Name must be at least 2 characters"],
    [
      "51 characters",
      { firstName: "A".repeat(51) },
      "Invalid first name",
      "Name must be less than 50 characters",
    ],
    ["digits", { firstName: "R2D2" }, "Invalid first name", "Name contains invalid characters"],
    [
      "markup",
      { firstName: "<b>Jo</b>" },
      "Invalid first name",
      "Name contains invalid characters",
    ],
    ["only spaces", { firstName: "   " }, "Invalid first name", "Name is required"],
    [
      "only punctuation",
      { firstName: "'.-" },
      "Invalid first name",
      "Name contains invalid characters",
    ],
    ["empty last name", { lastName: "" }, "Invalid last name", "Name is required"],
    [
      "short last name",
      { lastName: "R" },
      "Invalid last name",
      "Name must be at least 2 characters",
    ],
    [
      "long last name",
      { lastName: "B".repeat(51) },
      "Invalid last name",
      "Name must be less than 50 characters",
    ],
    [
      "odd last name",
      { lastName: "Rivers_1" },
      "Invalid last name",
      "Name contains invalid characters",
    ],
    [
      "bad email",
      { email: "jordan@example" },
      "Invalid email",
      "Please enter a valid email address",
    ],
    ["empty email", { email: "" }, "Invalid email", "Please enter a valid email address"],
    [
      "overlong email",
      { email: `${"a".repeat(250)}@example.com` },
      "Invalid email",
      "Please enter a valid email address",
    ],
    ["empty password", { password: "" }, "Invalid password", "Password is required"],
    [
      "short password",
      { password: "Ab1!xyz" },
      "Invalid password",
      "Password must be at least 8 characters",
    ],
    [
      "129-character password",
      { password: `Aa1!${"x".repeat(125)}` },
      "Invalid password",
      "Password must be less than 128 characters",
    ],
    [
      "no special character",
      { password: "Abcdefg1" },
      "Invalid password",
      "Password must contain uppercase, lowercase, number, and special character",
    ],
    [
      "no uppercase",
      { password: "abcdefg1!" },
      "Invalid password",
      "Password must contain uppercase, lowercase, number, and special character",
    ],
  ];

  for (const [name, change, title, message] of cases) {
    test(`${name}: '${title}' / '${message}'`, async ({ page }) => {
      await page.goto("/auth?mode=sign-up");
      await fillSignUp(page, { ...valid, ...change });
      await page.getByRole("button", { name: "Create Account" }).click();
      await expectToast(page, title, message);
      // The message also sits under the field, tied to it for screen readers.
      await expect(page.locator("form").getByText(message, { exact: true })).toBeVisible();
      await expect(page).toHaveURL(/mode=sign-up/);
    });
  }

  test("the first problem is toasted first, in form order", async ({ page }) => {
    await page.goto("/auth?mode=sign-up");
    await fillSignUp(page, { firstName: "", lastName: "", email: "x", password: "" });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Invalid first name", "Name is required");
  });

  test("names keep what people write, spaces collapse; 50 characters pass", async ({ page }) => {
    const email = uniqueEmail("clean");
    const fifty = "M".repeat(50);
    await page.goto("/auth?mode=sign-up");
    await fillSignUp(page, {
      firstName: "  Mary  Ann  ",
      lastName: fifty,
      email,
      password: PASSWORD,
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Success", "Please check your email for the confirmation link.");
    const [row] = await e2eDb()
      .select({ first: profiles.firstName, last: profiles.lastName })
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(eq(user.email, email));
    expect(row).toEqual({ first: "Mary Ann", last: fifty });
  });
});

test.describe("sign-in validation", () => {
  test("an empty password: 'Password required' / 'Please enter your password'", async ({
    page,
  }) => {
    await page.goto("/auth");
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expectToast(page, "Password required", "Please enter your password");
  });

  test("a malformed e-mail: 'Invalid email'", async ({ page }) => {
    await page.goto("/auth");
    await page.getByLabel("Email").fill("someone at example.com");
    await page.getByLabel("Password", { exact: true }).fill("anything");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    await expectToast(page, "Invalid email", "Please enter a valid email address");
  });

  test("sign-in never applies the sign-up password rules", async ({ page }) => {
    await page.goto("/auth");
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByLabel("Password", { exact: true }).fill("x");
    await page.getByRole("button", { name: "Sign In", exact: true }).click();
    // Reaches the backend, which answers under the title 'Error'.
    await expectToast(page, "Error", "Invalid email or password");
  });

  test("a wrong password gives the backend's message under 'Error', without saying which part was wrong", async ({
    page,
  }) => {
    const customer = await createCustomer();
    await signInThroughForm(page, { email: customer.email, password: "Not-The-Pass-1!" });
    await expectToast(page, "Error", "Invalid email or password");
    await signInThroughForm(page, { email: uniqueEmail("ghost"), password: "Not-The-Pass-1!" });
    await expectToast(page, "Error", "Invalid email or password");
  });

  test("the password visibility toggle shows and hides the password", async ({ page }) => {
    await page.goto("/auth");
    const password = page.getByLabel("Password", { exact: true });
    await password.fill("Secret-123!");
    await expect(password).toHaveAttribute("type", "password");
    // The toggle is named by its text, so the field's label finds the field alone.
    await expect(page.getByLabel("Password")).toHaveCount(1);
    const show = page.getByRole("button", { name: "Show password", exact: true });
    await expect(show).toHaveAttribute("type", "button");
    await expect(show).toHaveAttribute("aria-pressed", "false");
    await show.click();
    await expect(password).toHaveAttribute("type", "text");
    const hide = page.getByRole("button", { name: "Hide password", exact: true });
    await expect(hide).toHaveAttribute("aria-pressed", "true");
    await expect(hide).toBeFocused();
    await expect(page.getByLabel("Password")).toHaveCount(1);
    // Keyboard: Space on the focused toggle hides the password again.
    await page.keyboard.press("Space");
    await expect(password).toHaveAttribute("type", "password");
    await expect(show).toBeFocused();

    await page.getByRole("link", { name: "Sign up" }).click();
    await expect(page.getByLabel("Password")).toHaveCount(1);
    await page.getByRole("button", { name: "Show password", exact: true }).click();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
  });
});

test.describe("forgot-password validation", () => {
  test("no e-mail yet: 'Email required' / 'Please enter your email address first'", async ({
    page,
  }) => {
    await page.goto("/auth");
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await expectToast(page, "Email required", "Please enter your email address first");
  });

  test("a malformed e-mail: 'Invalid email'", async ({ page }) => {
    await page.goto("/auth");
    await page.getByLabel("Email").fill("not-an-address");
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await expectToast(page, "Invalid email", "Please enter a valid email address");
  });
});
