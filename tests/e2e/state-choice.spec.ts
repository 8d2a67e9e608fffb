import { eq } from "drizzle-orm";
import { homes } from "~/db/schema";
import { BASE_URL } from "../support/ports";
import { createCustomer, e2eDb, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import { chooseFromProfileMenu, expectToast } from "./auth-helpers";

/*
 * State holds Georgia to start and offers the US states as a list, in the property setup
 * dialog and in the Home Address card: leaving it as it is saves GA, never 'State is required'.
 * It stays a text input, so a code or a name can be typed too; the server keeps the code.
 */

test("property setup: State offers the states and holds Georgia; left alone it saves GA @phone", async ({
  page,
}) => {
  const customer = await createCustomer({ home: false });
  await signIn(page, customer);
  await page.goto("/auth");
  const dialog = page.getByRole("dialog", { name: "Welcome! Let's set up your property" });
  const state = dialog.getByRole("combobox", { name: "State" });
  await expect(state).toHaveValue("GA");
  const list = page.locator(`datalist#${await state.getAttribute("list")}`);
  await expect(list.locator("option")).toHaveCount(51);
  await expect(list.locator("option").first()).toHaveText("Alabama");
  await expect(list.locator('option[value="GA"]')).toHaveText("Georgia");
  await expectNoAxeViolations(page);

  // Not a state: told so, nothing saved.
  await state.fill("Atlantis");
  await dialog.getByRole("button", { name: "Save and Continue" }).click();
  await expect(dialog.getByText("Enter a US state, such as GA or Georgia")).toBeVisible();
  await expect(state).toHaveAttribute("aria-invalid", "true");
  await state.fill("GA");

  await dialog.getByLabel("Street Address").fill("12 Magnolia Ct");
  await dialog.getByLabel("City").fill("Decatur");
  await dialog.getByLabel("ZIP Code").fill("30030");
  await dialog.getByRole("button", { name: "Save and Continue" }).click();
  await expectToast(page, "Welcome!", "Your property information has been saved.");
  await expect(page).toHaveURL(/\/dashboard$/);
  const [home] = await e2eDb().select().from(homes).where(eq(homes.customerId, customer.id));
  expect(home).toMatchObject({ address: "12 Magnolia Ct", city: "Decatur", state: "GA" });
});

test("Home Address card: the saved state is shown as its code, another can be chosen @phone", async ({
  page,
}) => {
  // Saved before State was a list: written out in full.
  const customer = await createCustomer({
    home: { address: "5 Riverside Dr", city: "Roswell", state: "Georgia", zipCode: "30075" },
  });
  await signIn(page, customer);
  await page.goto("/dashboard");
  await chooseFromProfileMenu(page, "Profile");
  const dialog = page.getByRole("dialog", { name: "Profile Settings" });
  await dialog.getByRole("button", { name: "Edit Home Address" }).click();
  const state = dialog.getByRole("combobox", { name: "State" });
  await expect(state).toHaveValue("GA");
  await state.fill("South Carolina");
  await dialog.getByLabel("City").fill("Greenville");
  await dialog.getByLabel("ZIP Code").fill("29601");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expectToast(page, "Home address updated successfully");
  await expect(dialog.getByText("Greenville, SC 29601")).toBeVisible();
  const [home] = await e2eDb().select().from(homes).where(eq(homes.customerId, customer.id));
  expect(home.state).toBe("SC");

  // Cancel after choosing another state leaves the saved one.
  await dialog.getByRole("button", { name: "Edit Home Address" }).click();
  await expect(state).toHaveValue("SC");
  await state.fill("GA");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog.getByText("Greenville, SC 29601")).toBeVisible();
});

test("the server takes only a state of the list", async ({ page }) => {
  const customer = await createCustomer({ home: false });
  await signIn(page, customer);
  const post = (state: string) =>
    page.request.post("/account", {
      headers: { origin: BASE_URL },
      form: {
        intent: "save-home",
        address: "1 Main St",
        city: "Decatur",
        state,
        zipCode: "30030",
      },
    });
  const refused = await post("Atlantis");
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("Enter a US state, such as GA or Georgia");
  expect(await e2eDb().select().from(homes).where(eq(homes.customerId, customer.id))).toEqual([]);
  expect((await post("georgia")).ok()).toBe(true);
  const [home] = await e2eDb().select().from(homes).where(eq(homes.customerId, customer.id));
  expect(home.state).toBe("GA");
});
