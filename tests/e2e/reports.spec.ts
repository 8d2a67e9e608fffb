import fs from "node:fs";
import { createEmployee, expect, expectNoAxeViolations, signIn, test } from "./fixtures";

/*
 * The owner's numbers (issue 30) at phone and desktop width: open /employee/reports, change the
 * period with the plain GET form, download a table as CSV; the page ships no JavaScript at all
 * (its charts are SVG drawn on the server), and it passes axe.
 */

test("Reports: pick a period, read the charts' tables, download a CSV, no script @phone", async ({
  page,
}) => {
  await signIn(page, await createEmployee());
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });

  await page.goto("/employee/reports");
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  for (const name of ["Members", "Prepaid hours", "Handymen", "Sales", "Parts"]) {
    await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  }
  await expect(page.getByRole("img", { name: "New and canceled members per month" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Members per month" })).toBeVisible();

  // The period picker: a GET form that works without JavaScript.
  await page.getByRole("combobox", { name: "Period" }).selectOption("last-12-months");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/period=last-12-months/);
  await expect(
    page.getByRole("table", { name: "Members per month" }).locator("tbody tr"),
  ).toHaveCount(12);

  // No script of any kind: no file, no inline script, no chart code.
  expect(scripts).toEqual([]);
  expect(await page.locator("script").count()).toBe(0);
  await expect(page.locator("svg[role=img]").first()).toBeVisible();

  // Nothing wider than the screen.
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
  await expectNoAxeViolations(page);

  const link = page.getByRole("link", { name: "Download CSV: Members per month" });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const text = fs.readFileSync((await download.path())!, "utf8");
  const lines = text.trim().split("\r\n");
  expect(lines[0]).toBe("Month,Active at start,New,Canceled,Churn,Monthly recurring revenue");
  expect(lines).toHaveLength(13);
  expect(download.suggestedFilename()).toMatch(
    /^members-by-month-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/,
  );
});
