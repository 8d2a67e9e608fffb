import { createUser } from "../../server/seed/factories";
import { chooseFromProfileMenu } from "./auth-helpers";
import {
  createCustomer,
  createEmployee,
  e2eDb,
  expect,
  PASSWORD,
  signIn,
  test,
  uniqueEmail,
} from "./fixtures";

/*
 * Issue 40, item 5, on a phone: every page is reachable. The office finds 'Reports' in its
 * navigation, and the reports page (which runs no JavaScript) has the profile menu with
 * 'Profile' and 'Sign Out'; a handyman finds 'My hours' on 'Today'; a member's booking pages
 * have the profile menu too.
 */

test.use({ viewport: { width: 390, height: 844 } });

test("the office reaches the reports from its navigation and signs out from them @phone-only", async ({
  page,
}) => {
  const office = await createEmployee();
  await signIn(page, office);
  await page.goto("/employee");
  await page.getByRole("link", { name: "Reports", exact: true }).first().click();
  await expect(page).toHaveURL(/\/employee\/reports$/);
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();

  // The profile menu of a page without JavaScript: 'Profile' opens Profile Settings on the
  // dashboard, 'Sign Out' signs out.
  await page.getByLabel(/^Profile menu/).click();
  await page.getByRole("link", { name: "Profile", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Profile Settings" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Profile Settings" })).toBeHidden();
  await expect(page).not.toHaveURL(/profile=open/);

  // 'Handymen' and 'Specialists' (issue 41) are one tap from every office page too.
  for (const name of ["Handymen", "Specialists"]) {
    await page.getByRole("link", { name, exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`/employee/${name.toLowerCase()}$`));
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  }

  await page.goto("/employee/reports");
  await page.getByLabel(/^Profile menu/).click();
  await page.getByRole("button", { name: "Sign Out", exact: true }).click();
  await expect(page).toHaveURL(/\/auth/);
  await page.goto("/employee/reports");
  await expect(page).toHaveURL(/\/auth/);
});

test("a handyman reaches his hours from 'Today' and a member's booking page has the profile menu @phone-only", async ({
  page,
}) => {
  const dana = await createUser(e2eDb(), {
    email: uniqueEmail("dana"),
    password: PASSWORD,
    firstName: "Dana",
    lastName: "Whitfield",
    isEmployee: true,
    staffRole: "handyman",
  });
  await signIn(page, { email: dana.email, password: PASSWORD });
  await page.goto("/employee/today");
  // No reports for a handyman.
  await expect(page.getByRole("link", { name: "Reports", exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: "My hours" }).click();
  await expect(page).toHaveURL(/\/employee\/availability$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: /Working hours/i }).first()).toBeVisible();
  await chooseFromProfileMenu(page, "Sign Out");
  await expect(page).toHaveURL(/\/auth/);

  const member = await createCustomer();
  await signIn(page, member);
  for (const path of ["/dashboard/book", "/dashboard/walk-thru"]) {
    await page.goto(path);
    await expect(page.getByRole("button", { name: /^Profile menu/ }), path).toBeVisible();
  }
  await chooseFromProfileMenu(page, "Sign Out");
  await expect(page).toHaveURL(/\/auth/);
});
