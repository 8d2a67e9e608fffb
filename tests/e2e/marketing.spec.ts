import { type Page } from "@playwright/test";
import { expect, expectNoAxeViolations, test } from "./fixtures";
import { PHONE, PHONE_HREF, waitForEnhancements } from "./marketing-helpers";

const CITY_PATHS = [
  "brookhaven-handyman",
  "sandy-springs-handyman",
  "alpharetta-handyman",
  "dunwoody-handyman",
  "buckhead-handyman",
  "decatur-handyman",
  "marietta-handyman",
  "roswell-handyman",
  "norcross-handyman",
  "johns-creek-handyman",
  "milton-handyman",
];
const PUBLIC_PAGES = ["/", "/book-call", ...CITY_PATHS.map((p) => `/${p}`)];
const FAQ_QUESTIONS = [
  "Why a membership instead of calling a handyman when something breaks?",
  "What is covered?",
  "What is not covered?",
  "What happens when a job needs a specialist?",
  "How do joining and billing work?",
  "What is your guarantee, and can I cancel?",
  "How do parts and the shopping fee work?",
];

async function jsonLd(page: Page) {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
}

test.describe("home page", () => {
  test("the nine sections, in the spec's order, with their anchors @phone", async ({ page }) => {
    await page.goto("/");
    const headings = await page.locator("main h2").allTextContents();
    const order = [
      "Everything Your Home Needs",
      "How It Works",
      "Simple, Transparent Pricing",
      "100% Satisfaction Guarantee",
      "Proudly Serving Metro Atlanta",
      "What Our Members Say",
      "Frequently Asked Questions",
      "Ready to Get Started?",
    ];
    expect(headings.filter((h) => order.includes(h))).toEqual(order);
    for (const [id, heading] of [
      ["services", "Everything Your Home Needs"],
      ["pricing", "Simple, Transparent Pricing"],
      ["about", "Proudly Serving Metro Atlanta"],
      ["faq", "Frequently Asked Questions"],
      ["contact", "Ready to Get Started?"],
    ]) {
      await expect(page.locator(`#${id}`).getByRole("heading", { level: 2 })).toHaveText(heading);
    }
    // The hero comes first and is complete as plain HTML.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Your Dedicated Handyman, One Flat Monthly Price",
    );
    await expect(
      page.getByRole("link", { name: `Call ${PHONE} for a free consultation` }),
    ).toHaveAttribute("href", PHONE_HREF);
  });

  test("'Let's Talk' smooth-scrolls to the pricing section @phone", async ({ page }) => {
    await page.goto("/");
    await waitForEnhancements(page);
    const letsTalk = page.getByRole("button", { name: "Let's Talk", exact: true });
    // A jump to the anchor happens within the click; a smooth scroll has barely begun then.
    const scrolledWithinTheClick = await letsTalk.evaluate((link: HTMLElement) => {
      link.click();
      return window.scrollY;
    });
    expect(scrolledWithinTheClick).toBeLessThan(100);
    await expect(page).toHaveURL(/\/#pricing$/);
    await expect(
      page.getByRole("heading", { level: 2, name: "Simple, Transparent Pricing" }),
    ).toBeInViewport();
    // It glides all the way: the section's top ends just below the fixed bar.
    await expect
      .poll(() => page.locator("#pricing").evaluate((el) => el.getBoundingClientRect().top))
      .toBeCloseTo(64, -1);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  });

  test("the spec's buttons that lead somewhere answer Space like buttons", async ({ page }) => {
    await page.goto("/");
    await waitForEnhancements(page);
    await page.getByRole("button", { name: "Let's Talk", exact: true }).focus();
    await page.keyboard.press("Space");
    await expect(page).toHaveURL(/\/#pricing$/);
    const plan = page.locator("#pricing").getByRole("button", { name: "Get Started", exact: true });
    await plan.first().focus();
    await page.keyboard.press("Space");
    await expect(page).toHaveURL("/book-call");
  });

  test("services are grouped Maintenance, Repairs and Upgrades, each with a description", async ({
    page,
  }) => {
    await page.goto("/");
    const services = page.locator("#services");
    await expect(services.getByRole("heading", { level: 3 })).toHaveText([
      "Maintenance",
      "Repairs",
      "Upgrades",
    ]);
    for (const title of [
      "Gutter Cleaning",
      "Drywall Repair",
      "Patch and Paint",
      "Minor Plumbing",
      "Minor Electrical",
      "Carpentry",
      "Installation",
      "Assembly",
      "Light Fixtures",
      "Artwork Hanging",
      "Toilet Replacement",
    ]) {
      const item = services
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: title, exact: true }) });
      await expect(item).toHaveCount(1);
      await expect(item.locator("p")).not.toBeEmpty();
    }
    await expect(services).toContainText(
      "Not included: ongoing pool care, ongoing landscaping, house cleaning.",
    );
  });

  test("How It Works has numbered steps", async ({ page }) => {
    await page.goto("/");
    const steps = page.locator("#how-it-works ol > li");
    await expect(steps).toHaveCount(4);
    await expect(steps.nth(0)).toContainText("1");
    await expect(steps.nth(0).getByRole("heading")).toHaveText("Step 1: Book a Free Walk-Thru");
    await expect(steps.nth(3).getByRole("heading")).toHaveText("Step 4: Book Your First Visit");
  });

  test("three plans with the spec's prices, hours, visits and badges; Get Started books a call @phone", async ({
    page,
  }) => {
    await page.goto("/");
    const pricing = page.locator("#pricing");
    const plans = [
      ["Essential Home Care", "$175", "17.5 hours per year", "10 visits per year", null],
      ["Complete Home Care", "$295", "42 hours per year", "24 visits per year", "Most Popular"],
      ["Total Home", "$550", "84 hours per year", "48 visits per year", "Best Value"],
    ] as const;
    for (const [name, price, hours, visits, badge] of plans) {
      const card = pricing
        .locator("div")
        .filter({
          has: page.getByRole("heading", { level: 3, name, exact: true }),
        })
        .last();
      await expect(card).toContainText(`${price}/month`);
      await expect(card).toContainText(hours);
      await expect(card).toContainText(visits);
      if (badge) await expect(card).toContainText(badge);
      // Named exactly "Get Started"; the plan it is for is its description.
      const getStarted = card.getByRole("button", { name: "Get Started", exact: true });
      await expect(getStarted).toHaveAttribute("href", "/book-call");
      await expect(getStarted).toHaveAccessibleName("Get Started");
      await expect(getStarted).toHaveAccessibleDescription(name);
    }
    const buttons = pricing.getByRole("button", { name: "Get Started", exact: true });
    await expect(buttons).toHaveCount(3);
    await buttons.nth(1).click();
    await expect(page).toHaveURL("/book-call");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Ready to Transform Your Home? Let's Talk Strategy",
    );
  });

  test("guarantee, service area, testimonials", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("region", { name: "100% Satisfaction Guarantee" })).toContainText(
      "If you are not happy within your first 60 days, we refund your membership in full.",
    );
    const places = page.locator("#about li");
    await expect(places).toHaveText([
      "Atlanta",
      "Buckhead",
      "Decatur",
      "Marietta",
      "Roswell",
      "Norcross",
      "Alpharetta",
      "Johns Creek",
      "Sandy Springs",
      "Brookhaven",
      "Dunwoody",
      "Milton",
    ]);
    await expect(page.locator("#about").getByRole("link", { name: "Decatur" })).toHaveAttribute(
      "href",
      "/decatur-handyman",
    );
    const testimonials = page.locator("#testimonials figure");
    await expect(testimonials).toHaveCount(3);
    for (const figure of await testimonials.all()) {
      await expect(figure.getByRole("img", { name: "Rated 5 out of 5 stars" })).toBeVisible();
      await expect(figure.locator("figcaption")).toHaveText(/^.+, .+$/);
      await expect(figure.locator("blockquote")).not.toBeEmpty();
    }
  });

  test("FAQ: seven questions are buttons, one open at a time; Get Started goes to the contact form @phone", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForEnhancements(page);
    const faq = page.locator("#faq");
    const questions = faq.getByRole("button", { name: /\?$/ });
    await expect(questions).toHaveText(FAQ_QUESTIONS);
    for (const question of await questions.all()) {
      await expect(question).toHaveAttribute("aria-expanded", "false");
      const answer = page.locator(`[id="${await question.getAttribute("aria-controls")}"]`);
      await expect(answer).toHaveCount(1);
      await expect(answer).toBeHidden();
    }
    const covered = faq.getByRole("button", { name: "What is covered?", exact: true });
    const guarantee = faq.getByRole("button", {
      name: "What is your guarantee, and can I cancel?",
      exact: true,
    });
    const parts = faq.getByRole("button", {
      name: "How do parts and the shopping fee work?",
      exact: true,
    });
    const answerOf = async (question: typeof covered) =>
      page.locator(`[id="${await question.getAttribute("aria-controls")}"]`);

    await covered.click();
    await expect(covered).toHaveAttribute("aria-expanded", "true");
    await expect(await answerOf(covered)).toContainText("toilet replacement");
    await guarantee.click();
    await expect(guarantee).toHaveAttribute("aria-expanded", "true");
    await expect(covered).toHaveAttribute("aria-expanded", "false");
    await expect(await answerOf(covered)).toBeHidden();
    const guaranteeAnswer = await answerOf(guarantee);
    await expect(guaranteeAnswer).toContainText("60-day money-back satisfaction guarantee");
    await expect(guaranteeAnswer).toContainText("refund the hours you have not used");
    await parts.click();
    await expect(await answerOf(parts)).toContainText(
      "$10 shopping fee per visit that needs parts, not per part",
    );
    await expect(await answerOf(parts)).toContainText("Any part over $100 needs your approval");
    await expect(guarantee).toHaveAttribute("aria-expanded", "false");
    // A second click closes the open one.
    await parts.click();
    await expect(parts).toHaveAttribute("aria-expanded", "false");
    await expect(faq.getByRole("button", { expanded: true })).toHaveCount(0);

    await faq.getByRole("button", { name: "Get Started", exact: true }).click();
    await expect(page).toHaveURL(/\/#contact$/);
    await expect(page.getByRole("heading", { name: "Ready to Get Started?" })).toBeInViewport();
  });

  test("FAQ with the keyboard: Tab to a question, Enter or Space opens and closes it", async ({
    page,
  }) => {
    await page.goto("/");
    await waitForEnhancements(page);
    const faq = page.locator("#faq");
    const first = faq.getByRole("button", { name: FAQ_QUESTIONS[0], exact: true });
    const second = faq.getByRole("button", { name: FAQ_QUESTIONS[1], exact: true });
    await first.focus();
    await page.keyboard.press("Enter");
    await expect(first).toHaveAttribute("aria-expanded", "true");
    await expect(faq.getByText(/cheaper to prevent than to fix/)).toBeVisible();
    // The next Tab stop after an open question is the next question (answers hold no links).
    await page.keyboard.press("Tab");
    await expect(second).toBeFocused();
    await page.keyboard.press("Space");
    await expect(second).toHaveAttribute("aria-expanded", "true");
    await expect(first).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("Space");
    await expect(second).toHaveAttribute("aria-expanded", "false");
  });

  test("the contact section: heading, fields, button and footnote", async ({ page }) => {
    await page.goto("/");
    const contact = page.locator("#contact");
    await expect(contact.getByRole("heading", { level: 2 })).toHaveText("Ready to Get Started?");
    await expect(contact.getByLabel("Name")).toBeVisible();
    await expect(contact.getByLabel("Zip Code")).toHaveAttribute("maxlength", "5");
    await expect(contact.getByLabel("Email")).toBeVisible();
    await expect(contact.getByRole("button", { name: "Schedule Free Consultation" })).toBeVisible();
    await expect(contact).toContainText(
      "No obligation • Free home evaluation • Serving Metro Atlanta",
    );
  });
});

test.describe("city pages", () => {
  test("Dunwoody: highlights, six categories of four, why-choose, about, 8 areas, closing @phone", async ({
    page,
  }) => {
    await page.goto("/dunwoody-handyman");
    await expect(page).toHaveTitle(/^Dunwoody Handyman Services/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dunwoody Handyman Services");
    for (const card of ["Local", "5-Star Service", "Licensed & Insured"]) {
      await expect(page.getByRole("heading", { level: 2, name: card, exact: true })).toBeVisible();
    }
    const categories = page.locator("#services > div > div > ul > li");
    await expect(categories.getByRole("heading", { level: 3 })).toHaveText([
      "Interior Repairs",
      "Plumbing Services",
      "Electrical Work",
      "Exterior Maintenance",
      "Carpentry Services",
      "Home Assembly",
    ]);
    for (const category of await categories.all()) {
      await expect(category.locator("ul > li")).toHaveCount(4);
    }
    await expect(page.locator("#why-choose h3")).toHaveText([
      "Family-Friendly",
      "Community Focused",
      "Safety First",
      "Honest Pricing",
    ]);
    await expect(page.locator("#about h2")).toHaveText("About Our Dunwoody Handyman Service");
    await expect(page.locator("#service-areas li")).toHaveText([
      "Dunwoody",
      "Sandy Springs",
      "Brookhaven",
      "Chamblee",
      "Doraville",
      "Norcross",
      "Tucker",
      "Peachtree Corners",
    ]);
    const closing = page.getByRole("region", { name: /Ready for a Handyman/ });
    await expect(closing.getByRole("link", { name: `Call ${PHONE}` })).toHaveAttribute(
      "href",
      PHONE_HREF,
    );
    await closing.getByRole("link", { name: "Schedule an Intro Call" }).click();
    await expect(page).toHaveURL("/book-call");
  });

  test("Buckhead: the premium categories and its 8 areas, with keywords", async ({ page }) => {
    await page.goto("/buckhead-handyman");
    await expect(page.locator("#services h3")).toHaveText([
      "Premium Interior Work",
      "Professional Plumbing",
      "Electrical Specialists",
      "Property Maintenance",
      "Fine Carpentry",
      "Professional Assembly",
    ]);
    await expect(page.locator("#why-choose li")).toHaveCount(4);
    await expect(page.locator("#service-areas li")).toHaveText([
      "Buckhead Village",
      "Tuxedo Park",
      "Peachtree Heights",
      "Garden Hills",
      "Haynes Manor",
      "Chastain Park",
      "Brookhaven",
      "Sandy Springs",
    ]);
    await expect(page.locator('meta[name="keywords"]')).toHaveAttribute("content", /Buckhead/);
  });

  for (const [path, areas] of [
    [
      "brookhaven-handyman",
      [
        "Buckhead",
        "Sandy Springs",
        "Dunwoody",
        "Chamblee",
        "Doraville",
        "Tucker",
        "North Druid Hills",
      ],
    ],
    [
      "sandy-springs-handyman",
      ["Dunwoody", "Brookhaven", "Buckhead", "Roswell", "Alpharetta", "Johns Creek", "Marietta"],
    ],
    [
      "alpharetta-handyman",
      ["Johns Creek", "Milton", "Roswell", "Cumming", "Duluth", "Suwanee", "Sandy Springs"],
    ],
  ] as const) {
    test(`${path}: services, reasons, about, its service areas, calls to action`, async ({
      page,
    }) => {
      await page.goto(`/${path}`);
      await expect(page.locator("#services h3")).toHaveText([
        "Interior Repairs",
        "Plumbing Services",
        "Electrical Work",
        "Exterior Maintenance",
        "Carpentry Services",
        "Home Assembly",
      ]);
      await expect(page.locator("#reasons li").first()).toBeVisible();
      await expect(page.locator("#about p").first()).not.toBeEmpty();
      await expect(page.locator("#service-areas li")).toHaveText([...areas]);
      await expect(
        page.getByRole("link", { name: "Schedule an Intro Call" }).first(),
      ).toHaveAttribute("href", "/book-call");
      await expect(page.getByRole("link", { name: `Call ${PHONE}` }).first()).toHaveAttribute(
        "href",
        PHONE_HREF,
      );
      await expect(page.locator('meta[name="keywords"]')).toHaveCount(0);
    });
  }

  for (const path of [
    "decatur-handyman",
    "marietta-handyman",
    "roswell-handyman",
    "norcross-handyman",
    "johns-creek-handyman",
    "milton-handyman",
  ]) {
    test(`${path}: hero with three cards and the Let's Talk call link, six sections, the contact form`, async ({
      page,
    }) => {
      await page.goto(`/${path}`);
      const hero = page.getByRole("region", {
        name: await page.getByRole("heading", { level: 1 }).innerText(),
      });
      await expect(hero.getByRole("heading", { level: 2 })).toHaveCount(3);
      await expect(hero.getByRole("link", { name: `Let's Talk: ${PHONE}` })).toHaveAttribute(
        "href",
        PHONE_HREF,
      );
      const sections = await page
        .locator("main > section[id]")
        .evaluateAll((nodes) => nodes.map((node) => node.id));
      expect(sections).toEqual([
        "services",
        "homes",
        "membership",
        "reasons",
        "service-areas",
        "seasons",
        "contact",
      ]);
      const contact = page.locator("#contact");
      await expect(contact.getByRole("heading", { level: 2 })).toHaveText("Ready to Get Started?");
      await expect(
        contact.getByRole("heading", { name: "Get Your Free Consultation" }),
      ).toBeVisible();
      await expect(contact.locator("ol h3")).toHaveText(["Explore", "Learn", "Sit back, Relax"]);
      await expect(contact.getByLabel("Full Name")).toHaveAttribute("required", "");
      await expect(contact.getByLabel("Phone Number")).toHaveAttribute("required", "");
      await expect(contact.getByLabel("Email Address")).toHaveAttribute("type", "email");
      const message = contact.getByLabel("Message (optional)");
      await expect(message).toHaveAttribute("rows", "4");
      await expect(message).toHaveAttribute("placeholder", /home type.*maintenance tasks/);
      await expect(message).not.toHaveAttribute("required");
    });
  }

  test("a city path in another letter case moves for good to the lowercase one; other paths stay 404", async ({
    request,
    page,
  }) => {
    for (const path of CITY_PATHS) {
      const shouted = `/${path.toUpperCase()}`;
      const response = await request.get(shouted, { maxRedirects: 0 });
      expect(response.status(), shouted).toBe(301);
      expect(response.headers().location, shouted).toBe(`/${path}`);
    }
    for (const [from, to] of [
      [
        "/Dunwoody-Handyman?utm_source=flyer&utm_medium=print",
        "/dunwoody-handyman?utm_source=flyer&utm_medium=print",
      ],
      ["/Johns-Creek-Handyman/", "/johns-creek-handyman"],
      ["/sandy-Springs-handyman?", "/sandy-springs-handyman"],
    ]) {
      const response = await request.get(from, { maxRedirects: 0 });
      expect(response.status(), from).toBe(301);
      expect(response.headers().location, from).toBe(to);
    }
    for (const path of [
      "/Dunwoody-Handymen",
      "/Atlanta-Handyman",
      "/DUNWOODY",
      "/Dunwoody-Handyman/services",
      "/xdunwoody-handyman",
    ]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(404);
    }
    // A browser lands on the page itself.
    await page.goto("/Buckhead-Handyman?ref=card");
    await expect(page).toHaveURL("/buckhead-handyman?ref=card");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Buckhead/);
  });

  test("the footer's quick links lead from a city page to the home page's sections @phone", async ({
    page,
  }) => {
    for (const [name, id, heading] of [
      ["Services", "services", "Everything Your Home Needs"],
      ["Pricing", "pricing", "Simple, Transparent Pricing"],
      ["About", "about", "Proudly Serving Metro Atlanta"],
      ["Contact", "contact", "Ready to Get Started?"],
    ]) {
      await page.goto("/decatur-handyman");
      await waitForEnhancements(page);
      const quickLinks = page
        .getByRole("contentinfo")
        .getByRole("navigation", { name: "Quick links" });
      await quickLinks.getByRole("link", { name, exact: true }).click();
      await expect(page).toHaveURL(`/#${id}`);
      await expect(
        page.locator(`#${id}`).getByRole("heading", { level: 2, name: heading }),
      ).toBeInViewport();
    }
  });

  test("every city page has its own title, description, headline and copy", async ({ page }) => {
    const seen = {
      titles: new Set<string>(),
      descriptions: new Set<string>(),
      bodies: new Set<string>(),
    };
    for (const path of CITY_PATHS) {
      await page.goto(`/${path}`);
      seen.titles.add(await page.title());
      seen.descriptions.add(
        (await page.locator('meta[name="description"]').getAttribute("content")) ?? "",
      );
      seen.bodies.add(await page.locator("main").innerText());
      await expect(
        page.getByRole("link", { name: new RegExp(PHONE.replace(/[()]/g, "\\$&")) }).first(),
      ).toBeVisible();
    }
    expect(seen.titles.size).toBe(11);
    expect(seen.descriptions.size).toBe(11);
    expect(seen.bodies.size).toBe(11);
  });

  test("leaving a city page restores the home page's title", async ({ page }) => {
    await page.goto("/decatur-handyman");
    await waitForEnhancements(page);
    await expect(page).toHaveTitle(/Decatur/);
    await page.getByRole("link", { name: /home$/ }).first().click();
    await expect(page).toHaveURL("/");
    await expect(page).toHaveTitle(/Your Dedicated Handyman in Metro Atlanta/);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("'Let's Talk' is a plain link to the pricing section @phone", async ({ page }) => {
    await page.goto("/");
    const letsTalk = page.getByRole("button", { name: "Let's Talk", exact: true });
    await expect(letsTalk).toHaveAttribute("href", "#pricing");
    await letsTalk.click();
    await expect(page).toHaveURL(/\/#pricing$/);
    await expect(
      page.getByRole("heading", { level: 2, name: "Simple, Transparent Pricing" }),
    ).toBeInViewport();
  });

  test("the FAQ's answers open, one at a time @phone", async ({ page }) => {
    await page.goto("/");
    const faq = page.locator("#faq");
    await expect(faq.getByRole("button", { name: /\?$/ })).toHaveText(FAQ_QUESTIONS);
    await faq.getByRole("button", { name: "What is covered?", exact: true }).click();
    await expect(faq.getByText(/toilet replacement/)).toBeVisible();
    await faq.getByRole("button", { name: "What is not covered?", exact: true }).click();
    await expect(faq.getByText(/house cleaning/)).toBeVisible();
    await expect(faq.getByText(/toilet replacement/)).toBeHidden();
  });

  test("the footer's quick links lead from a city page to the home page's sections", async ({
    page,
  }) => {
    await page.goto("/dunwoody-handyman");
    await page.getByRole("contentinfo").getByRole("link", { name: "About", exact: true }).click();
    await expect(page).toHaveURL("/#about");
    await expect(
      page.getByRole("heading", { level: 2, name: "Proudly Serving Metro Atlanta" }),
    ).toBeInViewport();
  });
});

test.describe("search engines", () => {
  test("every public page is prerendered static HTML with canonical, Open Graph and JSON-LD", async ({
    request,
    page,
  }) => {
    for (const path of PUBLIC_PAGES) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      // The page's one script, its enhancement script inline (ADR 030), is allowed by its hash:
      // no nonce for a page rendered ahead of any request, and never 'unsafe-inline'.
      const csp = response.headers()["content-security-policy"];
      expect(/script-src ([^;]*)/.exec(csp)?.[1], path).toMatch(/^'self' 'sha256-[\w+/=]+'$/);
      const html = await response.text();
      expect(html, path).not.toContain('rel="modulepreload"');

      await page.goto(path);
      const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
      expect(canonical, path).toMatch(new RegExp(`^https?://[^/]+${path === "/" ? "/" : path}$`));
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute(
        "content",
        await page.title(),
      );
      await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", canonical!);
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute(
        "content",
        /.{50,}/,
      );
      const business = (await jsonLd(page)).find((block) => block["@type"] === "LocalBusiness");
      expect(business, path).toBeTruthy();
      expect(business!.telephone).toBe("+14045550142");
      expect((business!.areaServed as unknown[]).length).toBeGreaterThanOrEqual(7);
    }
  });

  test("the home page carries FAQPage data for its seven questions", async ({ page }) => {
    await page.goto("/");
    const faq = (await jsonLd(page)).find((block) => block["@type"] === "FAQPage");
    const questions = faq!.mainEntity as { name: string; acceptedAnswer: { text: string } }[];
    expect(questions).toHaveLength(7);
    expect(questions.map((q) => q.name)).toContain("How do parts and the shopping fee work?");
    const places = (await jsonLd(page)).find((b) => b["@type"] === "LocalBusiness")!.areaServed as {
      name: string;
    }[];
    expect(places.map((p) => p.name)).toEqual(expect.arrayContaining(["Atlanta", "Milton"]));
  });

  test("sitemap.xml lists the 13 public pages; robots.txt points to it", async ({ request }) => {
    const sitemap = await request.get("/sitemap.xml");
    expect(sitemap.headers()["content-type"]).toContain("application/xml");
    const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (m) => new URL(m[1]).pathname,
    );
    expect(locs.sort()).toEqual([...PUBLIC_PAGES].sort());
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toContain("User-agent: *");
    expect(robots).toContain("Disallow: /dashboard");
    expect(robots).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);
  });
});

test.describe("accessibility", () => {
  test("axe finds no violations with an FAQ answer and the phone menu open @phone", async ({
    page,
    isMobile,
  }) => {
    await page.goto("/");
    await waitForEnhancements(page);
    await page
      .locator("#faq")
      .getByRole("button", { name: "What is covered?", exact: true })
      .click();
    if (isMobile) {
      const toggle = page
        .getByRole("navigation", { name: "Main" })
        .getByRole("button", { name: "Menu", exact: true });
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
    }
    await expectNoAxeViolations(page);
  });

  for (const path of [...PUBLIC_PAGES, "/no-such-page"]) {
    test(`axe finds no violations on ${path} @phone`, async ({ page }) => {
      await page.goto(path);
      if (path !== "/no-such-page") await waitForEnhancements(page);
      await expectNoAxeViolations(page);
    });
  }
});
