import type { Page } from "@playwright/test";
import { DEMO_LOGINS } from "../../server/seed/demo";
import { expect, signIn, test } from "./fixtures";

/*
 * Every page is drawn whole on the server with React's string renderer (ADR 111) and then
 * hydrated in the browser: the browser's first render must match the server's markup, or React
 * throws the page away and draws it again (logging a recoverable error). Each page here is a
 * fresh page load that hydrates with no error in the console, for each kind of person.
 * (app/lib/render-document.test.tsx compares the markup with React Router's own renderer's.)
 */

const [office, maria, , dana] = DEMO_LOGINS;

/** Loads the page and waits for React Router to have hydrated it. */
async function loadAndHydrate(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBe(200);
  await page.waitForFunction(
    () =>
      (window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } })
        .__reactRouterDataRouter?.state.initialized === true,
  );
  await page.waitForLoadState("networkidle");
}

test("a member's pages hydrate without a mismatch", async ({ page, consoleErrors }) => {
  await signIn(page, maria);
  for (const tab of ["", "?tab=appointments", "?tab=schedule", "?tab=completed"])
    await loadAndHydrate(page, `/dashboard${tab}`);
  await loadAndHydrate(page, "/dashboard?tab=membership");
  await expect(page.getByRole("table").first()).toBeVisible();
  await loadAndHydrate(page, "/dashboard?tab=home");
  await expect(page.getByRole("heading", { name: "Maintenance plan" })).toBeVisible();
  await loadAndHydrate(page, "/dashboard/book");
  // Ids drawn by useId are the browser's too: an attribute that differs is not reported (React
  // keeps the server's), but the menu would then name a trigger id no element has.
  await page.getByRole("button", { name: /^Profile menu/ }).click();
  await expect(page.getByRole("menu", { name: /^Profile menu/ })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("the office's and the handyman's pages hydrate without a mismatch", async ({
  page,
  consoleErrors,
}) => {
  await signIn(page, office);
  for (const path of [
    "/employee",
    "/employee?tab=appointments",
    "/employee?tab=customers",
    "/employee/schedule",
  ])
    await loadAndHydrate(page, path);
  // The reports are drawn on the server only (they do not hydrate).
  expect((await page.goto("/employee/reports"))?.status()).toBe(200);
  await page.goto(`/employee?tab=customers&cq=${encodeURIComponent(maria.email)}`);
  const membership = await page
    .locator('a[href^="/employee/customers/"][href$="/membership"]')
    .first()
    .getAttribute("href");
  await loadAndHydrate(page, membership!);
  await signIn(page, dana);
  await loadAndHydrate(page, "/employee/today");
  expect(consoleErrors).toEqual([]);
});

test("the sign-in page hydrates without a mismatch", async ({ page, consoleErrors }) => {
  await loadAndHydrate(page, "/auth");
  expect(consoleErrors).toEqual([]);
});
