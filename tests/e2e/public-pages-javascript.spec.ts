import type { Page } from "@playwright/test";
import { CITY_PAGES } from "~/content/cities";
import { CITY_PATHS } from "~/content/city-paths";
import { BASE_URL } from "../support/ports";
import { expect, test } from "./fixtures";
import { PHONE, PHONE_HREF, waitForEnhancements } from "./marketing-helpers";

/*
 * The public pages run no React in the browser (ADR 030): no React Router scripts, no inline
 * script, only the site's small enhancement files, and everything works without them.
 */

/** The one enhancement file each public page loads (a page's own includes the site's). */
const PAGES: [path: string, script: string][] = [
  ["/", "lead-form"],
  ["/book-call", "booking"],
  ...CITY_PATHS.map((path): [string, string] => [
    `/${path}`,
    CITY_PAGES[path].layout === "lead" ? "lead-form" : "site",
  ]),
  ["/no-such-page", "site"],
];

/** At most this much JavaScript per page, as sent (gzip bodies). */
const BUDGET_BYTES = 15 * 1024;

function scriptsOf(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") urls.push(request.url());
  });
  return urls;
}

test("each public page loads its enhancement file and no other script", async ({
  page,
  consoleErrors,
}) => {
  const loaded = scriptsOf(page);
  for (const [path, expected] of PAGES) {
    loaded.length = 0;
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(path === "/no-such-page" ? 404 : 200);
    await waitForEnhancements(page);
    await page.waitForLoadState("networkidle");

    const names = loaded.map((url) => {
      const { origin, pathname } = new URL(url);
      expect(origin, path).toBe(new URL(BASE_URL).origin);
      // Hashed names under /assets/, cached for good.
      return /^\/assets\/([a-z-]+)-[\w-]{8}\.js$/.exec(pathname)?.[1] ?? pathname;
    });
    expect(names, path).toEqual([expected]);

    // Nothing else runs: no inline script (JSON-LD is data) and no React on the page.
    await expect(
      page.locator("script:not([src]):not([type='application/ld+json'])"),
      path,
    ).toHaveCount(0);
    await expect(page.locator("link[rel=modulepreload]"), path).toHaveCount(0);
    expect(
      await page.evaluate(() =>
        Object.keys(window).filter((key) => key.startsWith("__reactRouter")),
      ),
      path,
    ).toEqual([]);
    expect(
      await page
        .locator("main")
        .evaluate((main) => Object.keys(main).some((key) => key.startsWith("__react"))),
      path,
    ).toBe(false);

    // Within the budget, as the server sends it.
    let bytes = 0;
    for (const url of new Set(loaded)) {
      const file = await page.request.get(url, { headers: { "accept-encoding": "gzip" } });
      expect(file.status(), url).toBe(200);
      expect(file.headers()["content-encoding"], url).toBe("gzip");
      expect(file.headers()["cache-control"], url).toContain("immutable");
      bytes += Number(file.headers()["content-length"]);
    }
    expect(bytes, `${path}: ${bytes} bytes of JavaScript`).toBeLessThanOrEqual(BUDGET_BYTES);
  }
  // The not-found page's log line is the one error (SPEC.md section 2), beside the browser's
  // note of that page's own 404 status.
  expect(consoleErrors.filter((error) => !/status of 404/.test(error))).toEqual([
    "404 Error: User attempted to access non-existent route: /no-such-page",
  ]);
});

test("a link from a page React runs loads a public page as a document", async ({ page }) => {
  await page.goto("/auth");
  await page.waitForFunction(() => "__reactRouterDataRouter" in window);
  await page.getByRole("link", { name: /home$/i }).first().click();
  await expect(page).toHaveURL(/\/$/);
  await waitForEnhancements(page);
  expect(await page.evaluate(() => "__reactRouterDataRouter" in window)).toBe(false);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Your Dedicated Handyman, One Flat Monthly Price",
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("every public page is complete as plain HTML @phone", async ({ page }) => {
    for (const [path] of PAGES) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }), path).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" }), path).toBeVisible();
      await expect(page.getByRole("contentinfo"), path).toBeVisible();
      await expect(page.locator("html[data-enhanced]"), path).toHaveCount(0);
    }
  });

  test("the booking page offers the phone instead of the scheduler", async ({ page }) => {
    const response = await page.goto("/book-call");
    // The message is the page's <noscript>, which a browser without JavaScript shows.
    expect(await response!.text()).toContain(
      `<noscript><p>Our scheduler needs JavaScript. Call us at <a href="${PHONE_HREF}">${PHONE}</a> and we will book your intro call by phone.</p></noscript>`,
    );
    // The picker's parts stay hidden: no empty form, no spinner, no empty confirmation.
    const panel = page.locator("[data-scheduler]");
    await expect(panel.getByRole("heading", { name: "Choose a Time" })).toBeVisible();
    await expect(panel.getByLabel("Day")).toBeHidden();
    await expect(panel.getByRole("button", { name: "Book Intro Call" })).toBeHidden();
    await expect(panel.getByText("Loading available times...")).toBeHidden();
    await expect(panel.getByText("You're booked!")).toBeHidden();
  });
});
