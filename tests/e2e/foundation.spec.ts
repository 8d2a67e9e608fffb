import { expect, expectNoAxeViolations, test } from "./fixtures";
import { waitForEnhancements } from "./marketing-helpers";

test.describe("not-found page", () => {
  test("an unknown path answers 404 with the spec's page and logs the path @phone", async ({
    page,
    consoleErrors,
  }) => {
    const response = await page.goto("/nowhere-to-be-found");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "404" })).toBeVisible();
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    await expect.poll(() => consoleErrors.join("\n")).toContain("/nowhere-to-be-found");
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL("/");
  });

  test("the 404 page passes axe", async ({ page }) => {
    await page.goto("/missing-page");
    await expectNoAxeViolations(page);
  });
});

test.describe("navigation bar and footer", () => {
  test("desktop: logo, Login, Book a Call and the phone link", async ({ page }) => {
    await page.goto("/book-call");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(
      nav.getByRole("link", { name: /Call us at \(404\) 555-0142/ }).first(),
    ).toHaveAttribute("href", "tel:+14045550142");
    await nav.getByRole("button", { name: "Book a Call" }).first().click();
    await expect(page).toHaveURL("/book-call");
    await nav.getByRole("link", { name: "Login" }).first().click();
    await expect(page).toHaveURL("/auth");
    await page.goto("/book-call");
    await page.getByRole("link", { name: /home$/ }).first().click();
    await expect(page).toHaveURL("/");
  });

  test("phone: the menu toggle shows the same items and closes when a link is followed @phone-only", async ({
    page,
  }) => {
    await page.goto("/book-call");
    await waitForEnhancements(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    const toggle = nav.getByRole("button", { name: "Menu", exact: true });
    const login = nav.getByRole("link", { name: "Login" });
    await expect(login).toBeHidden();
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    const menuId = await toggle.getAttribute("aria-controls");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const menu = page.locator(`[id="${menuId}"]`);
    await expect(menu.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(menu.getByRole("button", { name: "Book a Call" })).toBeVisible();
    await expect(menu.getByRole("link", { name: /Call us at/ })).toBeVisible();

    // The page already shown: nothing changes route-wise, the menu still closes.
    await menu.getByRole("button", { name: "Book a Call" }).click();
    await expect(page).toHaveURL("/book-call");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(login).toBeHidden();

    // A home page section from another page, then a same-page anchor.
    await toggle.click();
    await menu.getByRole("link", { name: "Pricing", exact: true }).click();
    await expect(page).toHaveURL("/#pricing");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(
      page.getByRole("heading", { name: "Simple, Transparent Pricing" }),
    ).toBeInViewport();
    await toggle.click();
    await menu.getByRole("link", { name: "Contact", exact: true }).click();
    await expect(page).toHaveURL("/#contact");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeHidden();
    await expect(page.getByRole("heading", { name: "Ready to Get Started?" })).toBeInViewport();

    await toggle.click();
    await menu.getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL("/auth");
  });

  test("phone: the menu with the keyboard; Escape closes it and gives the focus back @phone-only", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForEnhancements(page);
    const nav = page.getByRole("navigation", { name: "Main" });
    const toggle = nav.getByRole("button", { name: "Menu", exact: true });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Services", exact: true })).toBeFocused();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Escape");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(toggle).toBeFocused();
    await expect(nav.getByRole("link", { name: "Login" })).toBeHidden();
    await page.keyboard.press("Space");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Escape");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    // Enter on a link in the menu follows it and closes the menu.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(nav.getByRole("link", { name: "Pricing", exact: true })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/#pricing");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("phone: the menu still opens and its links work @phone-only", async ({ page }) => {
      await page.goto("/dunwoody-handyman");
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.getByRole("button", { name: "Menu", exact: true }).click();
      await expect(nav.getByRole("link", { name: "Login" })).toBeVisible();
      await nav.getByRole("link", { name: "Pricing", exact: true }).click();
      await expect(page).toHaveURL("/#pricing");
      await expect(
        page.getByRole("heading", { name: "Simple, Transparent Pricing" }),
      ).toBeInViewport();
    });
  });

  test("footer: social, quick, contact and policy links @phone", async ({ page }) => {
    await page.goto("/book-call");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("list", { name: "Social media" }).getByRole("link")).toHaveCount(
      3,
    );
    const quick = footer.getByRole("navigation", { name: "Quick links" });
    for (const [name, hash] of [
      ["Services", "services"],
      ["Pricing", "pricing"],
      ["About", "about"],
      ["Contact", "contact"],
    ]) {
      await expect(quick.getByRole("link", { name })).toHaveAttribute("href", `/#${hash}`);
    }
    await expect(footer.getByRole("link", { name: "(404) 555-0142" })).toHaveAttribute(
      "href",
      "tel:+14045550142",
    );
    for (const name of ["Privacy Policy", "Terms of Service", "Cookie Policy"]) {
      await expect(footer.getByRole("link", { name })).toBeVisible();
    }
  });
});

test("pages load without console errors (CSP included)", async ({ page, consoleErrors }) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  for (const path of ["/", "/book-call", "/dunwoody-handyman", "/auth"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  expect(violations).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("security headers on pages and static assets", async ({ request }) => {
  for (const path of ["/", "/auth", "/nowhere", "/healthz"]) {
    const response = await request.get(path);
    const headers = response.headers();
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    // Served over plain http here: no HSTS.
    expect(headers["strict-transport-security"], path).toBeUndefined();
  }
  // A page React runs (the public pages have no script file, ADR 030).
  const html = await (await request.get("/auth")).text();
  const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
  expect(asset).toBeTruthy();
  const assetResponse = await request.get(asset!, { headers: { "accept-encoding": "gzip" } });
  expect(assetResponse.headers()["cache-control"]).toContain("immutable");
  expect(assetResponse.headers()["content-encoding"]).toBe("gzip");
});

test("a cross-origin form post is refused", async ({ request }) => {
  const response = await request.post("/", {
    headers: { origin: "https://evil.example" },
    form: { name: "x" },
  });
  expect(response.status()).toBe(403);
});
