import { eq } from "drizzle-orm";
import { homes, profiles } from "~/db/schema";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  expectNoAxeViolations,
  signIn,
  test,
} from "./fixtures";
import { chooseFromProfileMenu, expectToast } from "./auth-helpers";

test.describe("profile menu and Profile Settings", () => {
  test("edit the profile information @phone", async ({ page }) => {
    const customer = await createCustomer({ firstName: "Casey", lastName: "Member" });
    await signIn(page, customer);
    await page.goto("/dashboard");
    await chooseFromProfileMenu(page, "Profile");
    const dialog = page.getByRole("dialog", { name: "Profile Settings" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Manage your profile information and settings")).toBeVisible();
    await expectNoAxeViolations(page);

    // Read-only view: the phone is empty.
    await expect(dialog.getByText("Casey Member")).toBeVisible();
    await expect(dialog.getByText("Not provided")).toBeVisible();

    await dialog.getByRole("button", { name: "Edit Profile Information" }).click();
    await expect(dialog.getByLabel("Phone Number")).toHaveAttribute(
      "placeholder",
      "(555) 123-4567",
    );
    await dialog.getByLabel("First Name").fill("Cassie");
    await dialog.getByLabel("Phone Number").fill("(404) 555-0188");
    await dialog.getByRole("button", { name: "Save" }).first().click();
    await expectToast(page, "Profile updated successfully");
    await expect(dialog.getByText("Cassie Member")).toBeVisible();
    // One number (issue 40, item 8): Profile and Notifications show the same one.
    await expect(dialog.getByText("(404) 555-0188")).toHaveCount(2);

    const [row] = await e2eDb()
      .select({ first: profiles.firstName, phone: profiles.mobilePhone, emp: profiles.isEmployee })
      .from(profiles)
      .where(eq(profiles.userId, customer.id));
    // One number (issue 40, item 8): stored once, +1 and ten digits, the one texts go to.
    expect(row).toEqual({ first: "Cassie", phone: "+14045550188", emp: false });
  });

  test("update the home address", async ({ page }) => {
    const customer = await createCustomer();
    await signIn(page, customer);
    await page.goto("/dashboard");
    await chooseFromProfileMenu(page, "Profile");
    const dialog = page.getByRole("dialog", { name: "Profile Settings" });
    await expect(dialog.getByText("123 Peachtree St NE")).toBeVisible();
    await dialog.getByRole("button", { name: "Edit Home Address" }).click();
    await dialog.getByLabel("Street Address").fill("55 Ponce de Leon Ave");
    await dialog.getByLabel("Property Notes").fill("Park in the back");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expectToast(page, "Home address updated successfully");
    await expect(dialog.getByText("55 Ponce de Leon Ave")).toBeVisible();
    const [home] = await e2eDb()
      .select({ address: homes.address, notes: homes.propertyNotes })
      .from(homes)
      .where(eq(homes.customerId, customer.id));
    expect(home).toEqual({ address: "55 Ponce de Leon Ave", notes: "Park in the back" });
  });

  test("sign out @phone", async ({ page }) => {
    const customer = await createCustomer();
    await signIn(page, customer);
    await page.goto("/dashboard");
    await chooseFromProfileMenu(page, "Sign Out");
    await expectToast(page, "Signed out", "You have been successfully signed out.");
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe("signing out fails", () => {
  test("the profile menu says 'Failed to sign out. Please try again.' and keeps the session", async ({
    page,
  }) => {
    const employee = await createEmployee();
    await signIn(page, employee);
    await page.goto("/employee");
    await page.route("**/account", (route) => route.abort("internetdisconnected"));
    await chooseFromProfileMenu(page, "Sign Out");
    await expectToast(page, "Failed to sign out. Please try again.");
    await expect(page).toHaveURL(/\/employee$/);
    await page.unroute("**/account");
    await page.reload();
    await expect(page).toHaveURL(/\/employee$/);
  });

  test("the customer dashboard's menu says 'Failed to sign out'", async ({ page }) => {
    const customer = await createCustomer();
    await signIn(page, customer);
    await page.goto("/dashboard");
    await page.route("**/account", (route) => route.abort("internetdisconnected"));
    await chooseFromProfileMenu(page, "Sign Out");
    await expectToast(page, "Failed to sign out");
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
