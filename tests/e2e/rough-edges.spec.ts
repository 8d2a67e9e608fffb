import { leads } from "~/db/schema";
import { expectToast } from "./auth-helpers";
import { createEmployee, e2eDb, expect, signIn, test, uniqueEmail } from "./fixtures";

/*
 * The rough edges a walk through the product found: what only a browser shows.
 */

test("'Save lead' says the lead was saved, and the lead's ZIP code names its city", async ({
  page,
}) => {
  const [lead] = await e2eDb()
    .insert(leads)
    .values({ email: uniqueEmail("zip"), name: "Zoe Zip", source: "home", zipCode: "30306" })
    .returning();
  await signIn(page, await createEmployee());
  await page.goto(`/employee/leads/${lead.id}`);
  await expect(page.getByText("30306 Atlanta", { exact: true })).toBeVisible();
  await page.getByLabel("Notes").fill("Called, call back Tuesday");
  await page.getByRole("button", { name: "Save lead" }).click();
  await expectToast(page, "Lead saved.");
  await expect(page.getByLabel("Notes")).toHaveValue("Called, call back Tuesday");
});
