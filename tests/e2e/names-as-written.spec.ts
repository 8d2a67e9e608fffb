import { eq } from "drizzle-orm";
import { leadEntries, profiles, user } from "~/db/schema";
import { createServiceRequest } from "../../server/seed/factories";
import {
  PASSWORD,
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  sink,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";
import {
  chooseFromProfileMenu,
  completePropertySetup,
  expectToast,
  fillSignUp,
} from "./auth-helpers";
import { waitForEnhancements } from "./marketing-helpers";

/*
 * Names are kept as people write them (DESIGN decision 13, ADR 020): letters of any script,
 * spaces, hyphens, straight and curly apostrophes, periods. Markup is refused with the spec's
 * message, never silently removed, and whatever a person typed is shown as text.
 */

test.describe("names as written", () => {
  test("sign up as Siobhán O’Brien-Nuñez Jr.: stored, greeted and shown as written @phone", async ({
    page,
  }) => {
    const email = uniqueEmail("names");
    await page.goto("/auth?mode=sign-up");
    await fillSignUp(page, {
      firstName: "Siobhán",
      lastName: "O’Brien-Nuñez Jr.",
      email,
      password: PASSWORD,
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Success", "Please check your email for the confirmation link.");

    const [row] = await e2eDb()
      .select({ first: profiles.firstName, last: profiles.lastName, name: user.name })
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(eq(user.email, email));
    expect(row).toEqual({
      first: "Siobhán",
      last: "O’Brien-Nuñez Jr.",
      name: "Siobhán O’Brien-Nuñez Jr.",
    });

    const mail = await sink.waitForMail(email, /Confirm your/);
    await page.goto(sink.linkIn(mail, "/api/auth/verify-email"));
    await completePropertySetup(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Siobhán");
    await chooseFromProfileMenu(page, "Profile");
    const dialog = page.getByRole("dialog", { name: "Profile Settings" });
    await expect(dialog.getByText("Siobhán O’Brien-Nuñez Jr.", { exact: true })).toBeVisible();
  });

  test("a straight apostrophe, a period and another script pass; markup is refused, not stripped", async ({
    page,
  }) => {
    await page.goto("/auth?mode=sign-up");
    await fillSignUp(page, {
      firstName: "<b>Ann</b>",
      lastName: "D'Arcy",
      email: uniqueEmail("markup"),
      password: PASSWORD,
    });
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Invalid first name", "Name contains invalid characters");
    await expect(
      page.locator("form").getByText("Name contains invalid characters", { exact: true }),
    ).toBeVisible();
    // Nothing was removed from what was typed.
    await expect(page.getByLabel("First Name")).toHaveValue("<b>Ann</b>");

    const email = uniqueEmail("script");
    await page.getByLabel("First Name").fill("Ольга");
    await page.getByLabel("Last Name").fill("St. D'Arcy");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectToast(page, "Success");
    const [row] = await e2eDb()
      .select({ first: profiles.firstName, last: profiles.lastName })
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(eq(user.email, email));
    expect(row).toEqual({ first: "Ольга", last: "St. D'Arcy" });
  });

  test("the home page form keeps O'Brien's apostrophe", async ({ page }) => {
    const email = uniqueEmail("lead-name");
    await page.goto("/#contact");
    await waitForEnhancements(page);
    const form = page.locator("#contact form");
    await form.getByLabel("Name").fill("Seán O'Brien");
    await form.getByLabel("Zip Code").fill("30305");
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Schedule Free Consultation" }).click();
    await expectToast(page, "Thank you for your interest!");
    const [lead] = await e2eDb().select().from(leadEntries).where(eq(leadEntries.email, email));
    expect(lead.name).toBe("Seán O'Brien");
  });

  test("employees see the customer's name as written; markup in a profile shows as text", async ({
    page,
  }) => {
    const customer = await createCustomer({ firstName: "Zoë", lastName: "O'Brien" });
    const title = `Fix the gate ${Date.now()}`;
    await createServiceRequest(
      e2eDb(),
      { id: customer.homeId!, customerId: customer.id },
      { title },
    );
    // Profile edits are plain text (SPEC section 5): whatever is typed is shown, never run.
    const markup = '<img src=x onerror="document.body.dataset.pwned=1">';
    await e2eDb()
      .update(profiles)
      .set({ lastName: `O'Brien ${markup}` })
      .where(eq(profiles.userId, customer.id));

    await signIn(page, await createEmployee());
    await page.goto(`/employee?q=${encodeURIComponent(title)}`);
    const row = page.getByRole("region", { name: "All requests" }).getByRole("row").nth(1);
    await expect(row).toContainText(`Zoë O'Brien ${markup}`);
    await expect(row.locator("img")).toHaveCount(0);
    expect(await page.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
  });
});
