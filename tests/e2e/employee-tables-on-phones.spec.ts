import type { Locator, Page } from "@playwright/test";
import { createServiceRequest } from "../../server/seed/factories";
import { createEmployee, e2eDb, expect, expectNoAxeViolations, signIn, test } from "./fixtures";
import { uniqueCustomer } from "./employee-support";

/*
 * The employee's tables at phone and desktop width: at phone width the rows are cards with every
 * field and action on screen; the headings say how much a search or filter shows.
 */

/** The element lies wholly inside the viewport's width (nothing cut off at the side). */
async function expectWithinWidth(page: Page, locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

/** Nothing in the table's container needs scrolling sideways. */
async function expectNoSidewaysScroll(region: Locator) {
  const overflow = await region.evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBe(0);
}

test.beforeEach(async ({ page }) => {
  await signIn(page, await createEmployee());
});

test("All Requests: every row's View is in reach; the heading counts what a search shows @phone", async ({
  page,
}) => {
  const customer = await uniqueCustomer();
  const home = { id: customer.homeId, customerId: customer.id };
  await createServiceRequest(e2eDb(), home, {
    title: "Replace the cracked bathroom tile near the tub",
    description: "Two tiles, grout too",
  });
  await createServiceRequest(e2eDb(), home, {
    title: "Rehang the porch swing",
    status: "reviewed",
  });

  await page.goto("/employee");
  await expect(page.getByRole("heading", { name: /^All Requests \([\d,]+\)$/ })).toBeVisible();
  await page.getByLabel("Search requests").fill(customer.fullName);
  await expect(
    page.getByRole("heading", { name: /^All Requests \(2 of [\d,]+ requests\)$/ }),
  ).toBeVisible();
  const table = page.getByRole("region", { name: "All requests" });
  await expect(table.getByRole("link", { name: /^View request / })).toHaveCount(2);
  await expectNoSidewaysScroll(table);

  // A filter on top of the search.
  await page.getByLabel("Show requests").selectOption("reviewed");
  await expect(
    page.getByRole("heading", { name: /^All Requests \(1 of [\d,]+ requests?\)$/ }),
  ).toBeVisible();
  const viewName = /^View request .*: Rehang the porch swing$/;
  const view = table.getByRole("link", { name: viewName });
  await expectWithinWidth(page, view);
  const row = table.getByRole("row").filter({ has: page.getByRole("link", { name: viewName }) });
  await expect(row.getByText(customer.fullName, { exact: false })).toBeVisible();
  await expect(row.getByText("Reviewed", { exact: true })).toBeVisible();
  await expectNoSidewaysScroll(table);
  await expectNoAxeViolations(page);

  await view.click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expect(page).toHaveURL(/[?&]request=[0-9a-f-]{36}/);
});

test("Customers: e-mail, phone and every other field are on screen; the heading counts the search @phone", async ({
  page,
}) => {
  const customer = await uniqueCustomer();
  await page.goto("/employee?tab=customers");
  await expect(page.getByRole("heading", { name: /^Customers \([\d,]+\)$/ })).toBeVisible();
  await page.getByLabel("Search by name, e-mail or phone").fill(customer.email);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(
    page.getByRole("heading", { name: /^Customers \(1 of [\d,]+ customers\)$/ }),
  ).toBeVisible();

  const table = page.getByRole("region", { name: "Customers" });
  const email = table.getByRole("link", { name: customer.email });
  const phone = table.getByRole("link", { name: "(404) 555-0199" });
  for (const field of [
    table.getByText(customer.fullName, { exact: true }),
    email,
    phone,
    table.getByText("Dunwoody, GA 30338"),
    table.getByText("None scheduled"),
  ]) {
    await expect(field).toBeVisible();
    await expectWithinWidth(page, field);
  }
  await expect(email).toHaveAttribute("href", `mailto:${customer.email}`);
  await expect(phone).toHaveAttribute("href", /^tel:/);
  await expectNoSidewaysScroll(table);

  const phoneWidth = page.viewportSize()!.width < 768;
  // At phone width each value carries its name; at desktop width the table's headers do.
  const emailCell = table
    .getByRole("cell")
    .filter({ has: page.getByRole("link", { name: customer.email }) });
  const nameShown = await emailCell.evaluate((cell) => getComputedStyle(cell, "::before").content);
  expect(nameShown).toBe(phoneWidth ? '"E-mail:"' : "none");
  await expect(table.getByRole("columnheader", { name: "E-mail" })).toBeAttached();
  const header = await table.locator("thead").boundingBox();
  // (Kept for screen readers at phone width, but one pixel: out of sight.)
  expect(header!.width > 1).toBe(!phoneWidth);
  await expectNoAxeViolations(page);
});
