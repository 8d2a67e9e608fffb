import { DEMO_LOGINS } from "../../server/seed/demo";
import { businessToday, closedDays, isBusinessDay } from "~/lib/business-calendar";
import { expect, signIn, test } from "./fixtures";

/*
 * Issue 40, item 14, on a phone: a newcomer's first start shows a working day. Dana (the demo's
 * handyman) finds a booked visit on 'Today' when the demo was made on a business day (on a
 * closed day, on the days ahead); the office finds leads in every state on the Leads tab and
 * the funnel at work. The e2e server seeds the demo at its start.
 */

test.use({ viewport: { width: 390, height: 844 } });

const [office, , , dana] = DEMO_LOGINS;

test("Dana's first start shows a visit to do, and the office's Leads tab and funnel are at work @phone-only", async ({
  page,
}) => {
  await signIn(page, dana);
  await page.goto("/employee/today");
  if (isBusinessDay(businessToday(), closedDays())) {
    await expect(page.getByText("No visits.")).toHaveCount(0);
    await expect(page.getByText("Maria Alvarez").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "On my way" }).first()).toBeVisible();
  } else {
    await page.getByRole("link", { name: "This week" }).click();
    await expect(page.getByText("Maria Alvarez").first()).toBeVisible();
  }

  // The week shows the lead's walk-thru (Grace Park) with Dana: no tasks, no parts on it.
  await page.goto("/employee/today?view=week");
  const walkThru = page.getByRole("article", { name: /Walk-thru, Grace Park/ });
  await expect(walkThru).toBeVisible();
  await expect(walkThru.getByRole("heading", { name: "Tasks" })).toHaveCount(0);
  await expect(walkThru.getByText("Add part")).toHaveCount(0);

  await signIn(page, office);
  await page.goto("/employee?tab=leads");
  for (const [status, name] of [
    ["new", "Olivia Chen"],
    ["contacted", "Marcus Reed"],
    ["walk_thru_booked", "Grace Park"],
    ["member", "Maria Alvarez"],
    ["lost", "Tom Baker"],
  ] as const) {
    await page.goto(`/employee?tab=leads&lstatus=${status}&lq=${encodeURIComponent(name)}`);
    await expect(page.getByRole("link", { name }).first(), status).toBeVisible();
  }
  await page.goto("/employee?tab=leads");
  await expect(page.getByRole("heading", { name: "Funnel" })).toBeVisible();
  // This month's or the last 12 months' counts are not all zero.
  const counts = await page.locator("[data-funnel]").allInnerTexts();
  expect(counts.length).toBeGreaterThan(0);
  await expect(page.getByRole("region", { name: "Last 12 months" })).toContainText(/[1-9]/);
});
