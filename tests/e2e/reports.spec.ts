import fs from "node:fs";
import type { Page } from "@playwright/test";
import { createEmployee, expect, expectNoAxeViolations, signIn, test } from "./fixtures";

/*
 * The owner's numbers (issue 30) at phone and desktop width: open /employee/reports, change the
 * period with the plain GET form, download a table as CSV; the page ships no JavaScript at all
 * (its charts are SVG drawn on the server), and it passes axe.
 */

test("Reports: pick a period, read the charts' tables, download a CSV, no script @phone", async ({
  page,
}) => {
  // axe over the whole reports page takes long on a loaded machine (52 s seen beside other work).
  test.setTimeout(90_000);
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
  // Below 640 px a wide table is a list of cards, one per row (issue 40, item 12).
  const narrow = page.viewportSize()!.width < 640;
  const membersPerMonth = narrow
    ? page.getByRole("list", { name: "Members per month" }).getByRole("listitem")
    : page.getByRole("table", { name: "Members per month" }).locator("tbody tr");
  await expect(membersPerMonth.first()).toBeVisible();

  // The period picker: a GET form that works without JavaScript.
  await page.getByRole("combobox", { name: "Period" }).selectOption("last-12-months");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/period=last-12-months/);
  await expect(membersPerMonth).toHaveCount(12);

  // No script of any kind: no file, no inline script, no chart code.
  expect(scripts).toEqual([]);
  expect(await page.locator("script").count()).toBe(0);
  await expect(page.locator("svg[role=img]:visible").first()).toBeVisible();

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

/** Every chart label's size as rendered: its font size times the drawing's scale, in CSS px. */
async function chartLabelSizes(page: Page) {
  return page.locator("svg[role=img]:visible text").evaluateAll((texts) =>
    texts.map((t) => {
      const size = parseFloat(getComputedStyle(t).fontSize);
      const scale = (t as SVGTextElement).getScreenCTM()!.a;
      return { text: t.textContent ?? "", px: size * scale };
    }),
  );
}

/** Visible things that are wider than their box or than the screen. */
async function overflowing(page: Page) {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) found.push("the page");
    for (const el of document.querySelectorAll<HTMLElement>(
      "main [role=region], main ul, main table",
    )) {
      if (!el.offsetParent) continue;
      const box = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1 || box.right > width + 0.5)
        found.push(el.getAttribute("aria-label") ?? el.tagName);
    }
    return found;
  });
}

test("Reports on a 390 px phone: labels of 12 px, a one-month chart labeled, tables that fit @phone-only", async ({
  page,
}) => {
  // Two pages measured label by label, and axe on the longer one: more than the default 45 s.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, await createEmployee());

  // This month: one category. Each series is a bar with its name and value written out, not a dot.
  await page.goto("/employee/reports?period=this-month");
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  const mrr = page.getByRole("img", { name: "Monthly recurring revenue at each month's end" });
  await expect(mrr).toBeVisible();
  await expect(mrr.locator("circle")).toHaveCount(0);
  await expect(mrr.locator("rect").first()).toBeAttached();
  await expect(mrr.locator("text", { hasText: "Monthly recurring revenue" })).toHaveCount(1);
  await expect(mrr.locator("text", { hasText: /^-?\$[\d,.]+[kM]?$/ })).toHaveCount(1);
  const funnel = page.getByRole("img", { name: /^Leads, intro calls/ });
  for (const name of ["Leads", "Intro calls", "Walk-thrus", "Offers", "New members"]) {
    await expect(funnel.locator("text", { hasText: new RegExp(`^${name}$`) })).toHaveCount(1);
  }
  for (const { text, px } of await chartLabelSizes(page)) {
    expect(px, `"${text}" renders at ${px.toFixed(1)} px`).toBeGreaterThanOrEqual(12);
  }
  expect(await overflowing(page)).toEqual([]);
  // No table of more than three columns is shown: those are cards.
  const wideTables = await page
    .locator("table:visible")
    .evaluateAll(
      (tables) => tables.filter((t) => t.querySelectorAll("thead th").length > 3).length,
    );
  expect(wideTables).toBe(0);
  const revenue = page.getByRole("list", { name: "Revenue, payments and refunds per month" });
  await expect(revenue.getByRole("listitem")).toHaveCount(2);
  await expect(revenue.getByRole("listitem").last()).toContainText("Period");
  await expect(revenue.getByRole("listitem").first()).toContainText("Refunds");

  // Twelve months: axes with every label at 12 px or more, and still nothing sideways.
  await page.goto("/employee/reports?period=last-12-months");
  const labels = await chartLabelSizes(page);
  expect(labels.length).toBeGreaterThan(40);
  for (const { text, px } of labels) {
    expect(px, `"${text}" renders at ${px.toFixed(1)} px`).toBeGreaterThanOrEqual(12);
  }
  expect(await overflowing(page)).toEqual([]);
  await expectNoAxeViolations(page);
});
