import { createEmployee, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import { awaitFreshStep, currentStep, totp } from "../support/totp";
import { chooseFromProfileMenu, expectToast, signInThroughForm } from "./auth-helpers";

test.describe("Profile Settings on the employee dashboard", () => {
  test("the empty home text, creating a home address, and Cancel", async ({ page }) => {
    const employee = await createEmployee({ firstName: "Morgan", lastName: "Staff" });
    await signIn(page, employee);
    await page.goto("/employee");
    await chooseFromProfileMenu(page, "Profile");
    const dialog = page.getByRole("dialog", { name: "Profile Settings" });
    await expect(
      dialog.getByText("No home address provided. Click edit to add your address."),
    ).toBeVisible();
    await expect(dialog.getByText("Not provided")).toBeVisible();

    await dialog.getByRole("button", { name: "Edit Home Address" }).click();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("Street address is required")).toBeVisible();
    await dialog.getByLabel("Street Address").fill("9 Office Park");
    await dialog.getByLabel("City").fill("Marietta");
    // A list of states that starts on Georgia.
    await expect(dialog.getByLabel("State")).toHaveValue("GA");
    await dialog.getByLabel("ZIP Code").fill("30060");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Home address created successfully");
    await expect(dialog.getByText("Marietta, GA 30060")).toBeVisible();

    // Cancel leaves the profile as it was.
    await dialog.getByRole("button", { name: "Edit Profile Information" }).click();
    await dialog.getByLabel("First Name").fill("Changed");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog.getByText("Morgan Staff")).toBeVisible();
  });
});

test.describe("two-factor authentication in Profile Settings (an employee's)", () => {
  test("enrol with the QR code's key, get backup codes, sign in with a code, turn it off @phone", async ({
    page,
  }) => {
    // Waits on the authenticator's 30-second steps and signs in three times: under CI's load it
    // needs more than the default budget.
    test.slow();
    const employee = await createEmployee({ firstName: "Ari" });
    await signIn(page, employee);
    await page.goto("/employee");
    await chooseFromProfileMenu(page, "Profile");
    const dialog = page.getByRole("dialog", { name: "Profile Settings" });
    const card = dialog
      .getByRole("heading", { name: "Two-Factor Authentication" })
      .locator("..")
      .locator("..");

    // A wrong password is refused.
    await dialog.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await dialog.getByLabel("Confirm your password").fill("Not-My-Pass-1!");
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expectToast(page, "Error", "Incorrect password");

    await dialog.getByLabel("Confirm your password").fill(employee.password);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect(
      dialog.getByRole("img", { name: "QR code to add this account to your authenticator app" }),
    ).toBeVisible();
    const key = (await dialog.getByTestId("totp-secret").textContent())!.trim();
    expect(key).toMatch(/^[A-Z2-7]+$/);
    await expectNoAxeViolations(page);

    await awaitFreshStep(8_000);
    const step = currentStep();
    await dialog
      .getByLabel("6-digit code")
      .fill("123456" === totp(key, step) ? "654321" : "123456");
    await dialog.getByRole("button", { name: "Verify and turn on" }).click();
    await expectToast(page, "Error", "Invalid code");
    await dialog.getByLabel("6-digit code").fill(totp(key, step));
    await dialog.getByRole("button", { name: "Verify and turn on" }).click();
    await expectToast(page, "Two-factor authentication is on");
    const codes = dialog.getByRole("list", { name: "Backup codes" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    const backupCode = (await codes.first().textContent())!.trim();
    await dialog.getByRole("button", { name: "I have saved them" }).click();
    await expect(card.getByText(/^On: signing in asks for a code/)).toBeVisible();
    await page.keyboard.press("Escape");

    // Sign out; signing in now asks for the code (the next step's: the enrolment used this one).
    await chooseFromProfileMenu(page, "Sign Out");
    await expect(page).toHaveURL(/\/auth$/);
    await signInThroughForm(page, employee);
    await expect(page).toHaveURL(/step=two-factor/);
    await page.getByLabel("Authentication code").fill(totp(key, step + 1));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/employee$/);

    // Turning it off needs the password; then sign-in no longer asks for a code.
    await chooseFromProfileMenu(page, "Profile");
    await dialog.getByLabel("Your password").fill(employee.password);
    await dialog.getByRole("button", { name: "Turn off two-factor authentication" }).click();
    await expectToast(page, "Two-factor authentication is off");
    await expect(
      dialog.getByRole("button", { name: "Set up two-factor authentication" }),
    ).toBeVisible();
    await page.keyboard.press("Escape");
    await chooseFromProfileMenu(page, "Sign Out");
    await signInThroughForm(page, employee);
    await expect(page).toHaveURL(/\/employee$/);
    expect(backupCode).toMatch(/^\w{5}-\w{5}$/);
  });
});
