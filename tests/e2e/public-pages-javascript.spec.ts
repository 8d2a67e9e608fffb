import path from "node:path";
import zlib from "node:zlib";
import { CITY_PAGES } from "~/content/cities";
import { CITY_PATHS } from "~/content/city-paths";
import { bundlePageScript } from "../../scripts/build/page-scripts";
import { expect, test } from "./fixtures";
import { PHONE, PHONE_HREF, waitForEnhancements } from "./marketing-helpers";

/*
 * The public pages run no React in the browser (ADR 030): no React Router scripts, no script
 * file at all, only the page's small enhancement script, inline, and everything works without
 * it.
 */

const SCRIPTS = {
  site: "app/components/layout/site.enhance.ts",
  "lead-form": "app/features/leads/lead-form.enhance.ts",
  booking: "app/features/intro-calls/booking.enhance.ts",
};
type ScriptName = keyof typeof SCRIPTS;

/** The one enhancement script each public page runs (a page's own includes the site's). */
const PAGES: [path: string, script: ScriptName][] = [
  ["/", "lead-form"],
  ["/book-call", "booking"],
  ...CITY_PATHS.map((path): [string, ScriptName] => [
    `/${path}`,
    CITY_PAGES[path].layout === "lead" ? "lead-form" : "site",
  ]),
  ["/no-such-page", "site"],
];

/** At most this much JavaScript per page (gzipped). */
const BUDGET_BYTES = 15 * 1024;

test("each public page runs its enhancement script and no other script", async ({
  page,
  consoleErrors,
}) => {
  const built = new Map<ScriptName, string>();
  for (const [name, file] of Object.entries(SCRIPTS) as [ScriptName, string][]) {
    built.set(
      name,
      (await bundlePageScript(path.resolve(file), path.resolve("tsconfig.json"))).code,
    );
  }
  const requested: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") requested.push(request.url());
  });
  for (const [path, expected] of PAGES) {
    requested.length = 0;
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(path === "/no-such-page" ? 404 : 200);
    await waitForEnhancements(page);
    await page.waitForLoadState("networkidle");

    // No script file is asked for; the one script is the page's enhancement script, as built.
    expect(requested, path).toEqual([]);
    const scripts = await page
      .locator("script:not([type='application/ld+json'])")
      .evaluateAll((nodes) =>
        nodes.map((node) => ({
          src: node.getAttribute("src"),
          type: node.getAttribute("type"),
          code: node.textContent ?? "",
        })),
      );
    expect(
      scripts.map(({ src, type, code }) => ({ src, type, code: code === built.get(expected) })),
      `${path} runs ${expected}`,
    ).toEqual([{ src: null, type: "module", code: true }]);
    await expect(page.locator("link[rel=modulepreload]"), path).toHaveCount(0);

    // No React on the page.
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

    // Within the budget.
    const bytes = zlib.gzipSync(scripts[0].code).length;
    expect(bytes, `${path}: ${bytes} bytes of JavaScript`).toBeLessThanOrEqual(BUDGET_BYTES);
  }
  // The not-found page's log line is the one error (docs/product.md section 2), beside the browser's
  // note of that page's own 404 status; a script the CSP refused would show here too.
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
