import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { homes, profiles, user } from "~/db/schema";
import {
  PASSWORD,
  createCustomer,
  e2eDb,
  expect,
  expectNoAxeViolations,
  sink,
  test,
  uniqueEmail,
} from "./fixtures";
import { e2eDatabaseUrl } from "../support/ports";
import { CLI_ENTRY } from "../support/processes";
import { completePropertySetup, expectToast, fillSignUp, signInThroughForm } from "./auth-helpers";

test.describe("sign-up to dashboard", () => {
  test("sign up, confirm by e-mail, set up the property, reach the dashboard @phone", async ({
    page,
  }) => {
    const email = uniqueEmail("signup");
    await page.goto("/auth");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Sign in to Peachtree Handyman Club",
    );
    await page.getByRole("link", { name: "Sign up" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Create your account" }),
    ).toBeVisible();
    // Sign-up mode has no 'Forgot your password?'.
    await expect(page.getByRole("button", { name: "Forgot your password?" })).toHaveCount(0);

    await fillSignUp(page, { firstName: "Dana", lastName: "O'Neil", email, password: PASSWORD });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Success", "Please check your email for the confirmation link.");

    // The profile row exists from the start, with the names as written (ADR 020) and no
    // employee access.
    const [row] = await e2eDb()
      .select({ first: profiles.firstName, last: profiles.lastName, emp: profiles.isEmployee })
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(eq(user.email, email));
    expect(row).toEqual({ first: "Dana", last: "O'Neil", emp: false });

    // Not confirmed yet: signing in is refused with the backend's message.
    const mail = await sink.waitForMail(email, /Confirm your/);
    expect(mail.raw).toContain("Content-Type: text/html");
    expect(mail.raw).toContain("Peachtree Handyman Club");

    await page.goto(sink.linkIn(mail, "/api/auth/verify-email"));
    // The link signs in and leads to /dashboard; with no home yet, the dialog at /auth.
    await expect(page).toHaveURL(/\/auth$/);
    const dialog = page.getByRole("dialog", { name: "Welcome! Let's set up your property" });
    await expect(dialog).toBeVisible();
    // Not dismissable: Escape leaves it open, and it has no close button.
    await page.keyboard.press("Escape");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Close" })).toHaveCount(0);

    // Required fields.
    await dialog.getByRole("button", { name: "Save and Continue" }).click();
    await expect(dialog.getByText("Street address is required")).toBeVisible();
    await expect(dialog.getByText("ZIP code is required")).toBeVisible();

    await completePropertySetup(page);
    await expectToast(page, "Welcome!", "Your property information has been saved.");
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Welcome, Dana" })).toBeVisible();

    const [home] = await e2eDb()
      .select({ address: homes.address, zip: homes.zipCode, notes: homes.propertyNotes })
      .from(homes)
      .innerJoin(user, eq(user.id, homes.customerId))
      .where(eq(user.email, email));
    expect(home).toEqual({
      address: "742 Evergreen Terrace NE",
      zip: "30306",
      notes: "Gate code 1234",
    });
  });

  test("an unconfirmed account cannot sign in, and gets a new confirmation e-mail", async ({
    page,
  }) => {
    const email = uniqueEmail("unconfirmed");
    await page.goto("/auth?mode=sign-up");
    await fillSignUp(page, { firstName: "Lee", lastName: "Park", email, password: PASSWORD });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Success");
    await sink.waitForMail(email, /Confirm your/);

    await signInThroughForm(page, { email, password: PASSWORD });
    await expectToast(
      page,
      "Please confirm your e-mail address",
      "We have just sent you a new link",
    );
    await expect(page).toHaveURL(/\/auth/);
    await expect.poll(async () => (await sink.mails(email)).length).toBe(2);
  });

  test("signing up with a known address answers the same and tells the owner by e-mail", async ({
    page,
  }) => {
    const existing = await createCustomer();
    await page.goto("/auth?mode=sign-up");
    await fillSignUp(page, {
      firstName: "Someone",
      lastName: "Else",
      email: existing.email,
      password: "Another-Pass-99!",
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Success", "Please check your email for the confirmation link.");
    const mail = await sink.waitForMail(existing.email, /Your Peachtree Handyman Club account/);
    expect(mail.text).toContain("already has one");
    // The account is untouched: the old password still works.
    await signInThroughForm(page, existing);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("the sign-in page passes axe in both modes", async ({ page }) => {
    await page.goto("/auth");
    await expectNoAxeViolations(page);
    await page.goto("/auth?mode=sign-up");
    await expectNoAxeViolations(page);
  });

  test("the property dialog passes axe", async ({ page }) => {
    const customer = await createCustomer({ home: false });
    await signInThroughForm(page, customer);
    await expect(
      page.getByRole("dialog", { name: "Welcome! Let's set up your property" }),
    ).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe("password reset", () => {
  test("forgot password, the e-mail, a new password, sign in @phone", async ({ page }) => {
    const customer = await createCustomer();
    await page.goto("/auth");
    await page.getByLabel("Email").fill(customer.email);
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await expectToast(
      page,
      "Reset link sent",
      "Please check your email for the password reset link.",
    );

    const mail = await sink.waitForMail(customer.email, /Reset your/);
    await page.goto(sink.linkIn(mail, "/api/auth/reset-password/"));
    await expect(page).toHaveURL(/\/auth\?token=/);
    await expect(page.getByRole("heading", { level: 1, name: "Set a new password" })).toBeVisible();

    // The sign-up password rules apply.
    await page.getByLabel("New Password").fill("weakpass");
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expectToast(
      page,
      "Invalid password",
      "Password must contain uppercase, lowercase, number, and special character",
    );

    const newPassword = "Brand-New-Pass-7?";
    await page.getByLabel("New Password").fill(newPassword);
    // The visibility toggle is a button of its own, not a second "New Password".
    await expect(page.getByLabel("New Password")).toHaveCount(1);
    await page.getByRole("button", { name: "Show password", exact: true }).click();
    await expect(page.getByLabel("New Password")).toHaveAttribute("type", "text");
    await expect(page.getByLabel("New Password")).toHaveValue(newPassword);
    await page.getByRole("button", { name: "Set New Password" }).click();
    await expectToast(page, "Password updated");
    await expect(page).toHaveURL(/\/auth$/);

    // The old password no longer works; the new one does.
    await signInThroughForm(page, customer);
    await expectToast(page, "Error", "Invalid email or password");
    await signInThroughForm(page, { email: customer.email, password: newPassword });
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("an unknown address gets the same answer and no e-mail", async ({ page }) => {
    const email = uniqueEmail("nobody");
    await page.goto("/auth");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Forgot your password?" }).click();
    await expectToast(
      page,
      "Reset link sent",
      "Please check your email for the password reset link.",
    );
    await page.waitForTimeout(1500);
    expect(await sink.mails(email)).toEqual([]);
  });

  test("a used or made-up reset link is refused", async ({ page }) => {
    await page.goto("/api/auth/reset-password/not-a-real-token?callbackURL=%2Fauth");
    await expectToast(page, "Error", "This password reset link is invalid or has expired.");
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe("admin CLI", () => {
  test("an employee made with employee:create signs in at /auth and lands on /employee", async ({
    page,
  }) => {
    const email = uniqueEmail("hired");
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        CLI_ENTRY,
        "employee:create",
        "--email",
        email,
        "--password",
        PASSWORD,
        "--first-name",
        "Hana",
        "--last-name",
        "Hired",
      ],
      { env: { ...process.env, DATABASE_URL: e2eDatabaseUrl() }, timeout: 60_000 },
    );
    expect(stdout).toContain(`Employee Hana Hired <${email}> created`);
    await signInThroughForm(page, { email, password: PASSWORD });
    await expect(page).toHaveURL(/\/employee$/);
  });

  test("employee:grant moves a customer from /dashboard to /employee", async ({ page }) => {
    const customer = await createCustomer();
    await promisify(execFile)(
      process.execPath,
      [CLI_ENTRY, "employee:grant", "--email", customer.email],
      { env: { ...process.env, DATABASE_URL: e2eDatabaseUrl() }, timeout: 60_000 },
    );
    await signInThroughForm(page, customer);
    await expect(page).toHaveURL(/\/employee$/);
  });
});
