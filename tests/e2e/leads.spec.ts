import { type Locator, type Page } from "@playwright/test";
import { eq, inArray, sql } from "drizzle-orm";
import { leadEntries, rateLimits } from "~/db/schema";
import { LEAD_ADDRESS_LIMIT, LEAD_LIMIT } from "~/features/leads/submit.server";
import { BASE_URL } from "../support/ports";
import { e2eDb, expect, sink, test, TOAST, uniqueEmail } from "./fixtures";
import { waitForEnhancements } from "./marketing-helpers";

/*
 * The two lead forms end to end: every state and message of docs/product.md sections 4, 5 and 8, the
 * rate limit, the page without JavaScript, and delivery to the (real, local) webhook receiver,
 * through an outage.
 */

function toast(page: Page, title: string) {
  return page.locator(TOAST).filter({ hasText: title });
}

async function expectToast(page: Page, title: string, description: string | RegExp) {
  await expect(toast(page, title).filter({ hasText: description }).first()).toBeVisible();
}

async function closeFirstToast(page: Page) {
  await page.locator(TOAST).getByRole("button", { name: "Close toast" }).first().click();
}

async function leadsFor(email: string) {
  return e2eDb().select().from(leadEntries).where(eq(leadEntries.email, email.toLowerCase()));
}

async function webhookBodies(email: string) {
  return (await sink.webhookCalls())
    .map((call) => call.body as Record<string, unknown>)
    .filter((body) => body.email === email.toLowerCase());
}

async function outboxFor(email: string) {
  const result = await e2eDb().execute(
    sql`select attempts, delivered_at from outbox where kind = 'lead_webhook' and payload->'body'->>'email' = ${email.toLowerCase()}`,
  );
  return result.rows as { attempts: number; delivered_at: Date | null }[];
}

/** Slows the form's POST so a test can see the pending state. */
async function slowPosts(page: Page, ms = 1_500) {
  await page.route("**/*", async (route) => {
    if (route.request().method() === "POST") await new Promise((r) => setTimeout(r, ms));
    await route.fallback();
  });
}

/** Makes the database refuse leads for e-mails starting with "db-down-" (a real failure). */
async function failLeadInsertsForDbDownEmails() {
  await e2eDb().execute(sql`
    create or replace function e2e_refuse_lead() returns trigger language plpgsql as $$
    begin
      if new.email like 'db-down-%' then raise exception 'simulated database failure'; end if;
      return new;
    end $$`);
  await e2eDb().execute(sql`drop trigger if exists e2e_refuse_lead on leads`);
  await e2eDb().execute(
    sql`create trigger e2e_refuse_lead before insert on leads for each row execute function e2e_refuse_lead()`,
  );
}

async function openHomeForm(page: Page) {
  await page.goto("/#contact");
  await waitForEnhancements(page);
  const form = page.locator("#contact form");
  return {
    form,
    name: form.getByLabel("Name"),
    zip: form.getByLabel("Zip Code"),
    email: form.getByLabel("Email"),
    submit: form.getByRole("button", { name: "Schedule Free Consultation" }),
  };
}

async function fillHome(
  fields: { name: Locator; zip: Locator; email: Locator },
  values: { name: string; zip: string; email: string },
) {
  await fields.name.fill(values.name);
  await fields.zip.fill(values.zip);
  await fields.email.fill(values.email);
}

async function openCityForm(page: Page, path = "/decatur-handyman") {
  await page.goto(path);
  await waitForEnhancements(page);
  const form = page.locator("#contact form");
  return {
    form,
    name: form.getByLabel("Full Name"),
    phone: form.getByLabel("Phone Number"),
    email: form.getByLabel("Email Address"),
    message: form.getByLabel("Message (optional)"),
    submit: form.getByRole("button", { name: "Get My Free Consultation" }),
  };
}

test.describe("home page form", () => {
  test("a lead is saved, confirmed and delivered to the webhook once @phone", async ({ page }) => {
    const email = uniqueEmail("Home-Lead");
    const form = await openHomeForm(page);
    await slowPosts(page);
    await fillHome(form, { name: "Dana O'Neil", zip: "30338", email });
    await form.submit.click();
    await expect(form.form.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    for (const field of [form.name, form.zip, form.email]) await expect(field).toBeDisabled();
    await expectToast(
      page,
      "Thank you for your interest!",
      "We'll be in touch soon to schedule your free consultation.",
    );
    await expect(form.submit).toBeEnabled();
    for (const field of [form.name, form.zip, form.email]) await expect(field).toHaveValue("");

    const [lead] = await leadsFor(email);
    expect(lead).toMatchObject({
      // The name as written, apostrophe and all (ADR 020).
      name: "Dana O'Neil",
      email: email.toLowerCase(),
      zipCode: "30338",
      formType: "contact",
      source: "home",
    });
    // The page the visitor was on (browsers never send the #fragment).
    expect(lead.pageUrl).toMatch(/^http:\/\/localhost:\d+\/$/);

    await expect.poll(() => webhookBodies(email), { timeout: 15_000 }).toHaveLength(1);
    const [body] = await webhookBodies(email);
    expect(body).toEqual({
      name: "Dana O'Neil",
      email: email.toLowerCase(),
      zipCode: "30338",
      formType: "contact",
      timestamp: lead.createdAt.toISOString(),
      page_url: lead.pageUrl,
    });
  });

  test("each rule of section 5 answers with its toast and a message beside the field", async ({
    page,
    consoleErrors,
  }) => {
    const email = uniqueEmail("rules");
    const form = await openHomeForm(page);
    const cases: [
      values: { name: string; zip: string; email: string },
      title: string,
      message: string,
      field: Locator,
    ][] = [
      [{ name: "", zip: "30305", email }, "Invalid name", "Name is required", form.name],
      [
        { name: "A", zip: "30305", email },
        "Invalid name",
        "Name must be at least 2 characters",
        form.name,
      ],
      [
        { name: "A".repeat(51), zip: "30305", email },
        "Invalid name",
        "Name must be less than 50 characters",
        form.name,
      ],
      [
        { name: "R2 D2", zip: "30305", email },
        "Invalid name",
        "Name contains invalid characters",
        form.name,
      ],
      [{ name: "Robin Lee", zip: "", email }, "Invalid zip code", "Zip code is required", form.zip],
      [
        { name: "Robin Lee", zip: "303", email },
        "Invalid zip code",
        "Please enter a valid zip code",
        form.zip,
      ],
      [
        { name: "Robin Lee", zip: "30305", email: "robin@example" },
        "Invalid email",
        "Please enter a valid email address",
        form.email,
      ],
    ];
    for (const [values, title, message, field] of cases) {
      await fillHome(form, values);
      await form.submit.click();
      await expectToast(page, title, message);
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription(message);
      await expect(field).toBeFocused();
      // Kept, so the visitor can correct it.
      await expect(form.name).toHaveValue(values.name);
      await closeFirstToast(page);
    }
    expect(await leadsFor(email)).toHaveLength(0);
    // Exactly 50 characters is allowed.
    await fillHome(form, { name: "B".repeat(50), zip: "30305", email });
    await form.submit.click();
    await expectToast(page, "Thank you for your interest!", "free consultation");
    expect(await leadsFor(email)).toHaveLength(1);
    // Someone's typo is answered on the page, not as a failed request in the console.
    expect(consoleErrors).toEqual([]);
  });

  test("the server re-checks everything: a direct post with bad values stores nothing", async ({
    request,
  }) => {
    const email = uniqueEmail("direct");
    const response = await request.post("/?index", {
      headers: { origin: BASE_URL },
      form: { name: "<>", zipCode: "123456", email },
    });
    expect(response.status()).toBe(400);
    // Markup is refused, not removed (ADR 020).
    expect(await response.text()).toContain("Name contains invalid characters");
    expect(await leadsFor(email)).toHaveLength(0);
  });

  test("without an answer from the server: 'Error', and the fields are kept", async ({
    page,
    context,
  }) => {
    const form = await openHomeForm(page);
    await form.name.focus(); // loads the toast outlet while still online
    await page.waitForLoadState("networkidle");
    const email = uniqueEmail("offline");
    await fillHome(form, { name: "Casey Offline", zip: "30030", email });
    await context.setOffline(true);
    await form.submit.click();
    await expectToast(page, "Error", "Something went wrong. Please try again.");
    await context.setOffline(false);
    await expect(form.name).toHaveValue("Casey Offline");
    await expect(form.email).toHaveValue(email);
  });
});

test.describe("rate limit", () => {
  test("a fourth submission with the same e-mail within 10 minutes is refused", async ({
    page,
    consoleErrors,
  }) => {
    const email = uniqueEmail("limit");
    const form = await openHomeForm(page);
    for (let i = 0; i < 3; i++) {
      await fillHome(form, { name: "Morgan Repeat", zip: "30319", email });
      await form.submit.click();
      await expectToast(page, "Thank you for your interest!", "free consultation");
      await closeFirstToast(page);
    }
    await fillHome(form, { name: "Morgan Repeat", zip: "30319", email });
    await form.submit.click();
    const refused = toast(page, "Too many submissions").first();
    await expect(refused).toBeVisible();
    const text = await refused.innerText();
    const minutes = Number(/Please wait (\d+) minutes before submitting again\./.exec(text)?.[1]);
    // N is the real time left in the limiter's window.
    const [window] = await e2eDb()
      .select({ start: rateLimits.windowStart })
      .from(rateLimits)
      .where(eq(rateLimits.key, `lead:email:${email}`));
    const left = Math.ceil((window.start.getTime() + 10 * 60_000 - Date.now()) / 60_000);
    expect(Math.abs(minutes - left)).toBeLessThanOrEqual(1);
    expect(minutes).toBeGreaterThanOrEqual(1);
    expect(minutes).toBeLessThanOrEqual(10);
    await expect(form.email).toHaveValue(email);
    expect(await leadsFor(email)).toHaveLength(3);
    expect(consoleErrors).toEqual([]);
  });

  test("one client address gets a wider limit, across e-mails and both forms", async ({ page }) => {
    // An office or a household shares one address: 30 submissions per 10 minutes, all e-mails
    // and both forms together (ADR 011). The first 29 are posted as a browser without
    // JavaScript would, from this test's address, then the form is used.
    const posted: string[] = [];
    for (let i = 0; i < LEAD_ADDRESS_LIMIT - 1; i++) {
      const email = uniqueEmail("addr");
      posted.push(email);
      const fields: Record<string, string> =
        i % 2 === 0
          ? { name: "Pat Address", zipCode: "30075", email }
          : { name: "Pat Address", phone: "404-555-0100", email };
      const response = await page.request.post(i % 2 === 0 ? "/?index" : "/roswell-handyman", {
        headers: { origin: BASE_URL },
        form: fields,
      });
      expect(response.status(), await response.text()).toBeLessThan(400);
    }
    const [{ count }] = await e2eDb()
      .select({ count: sql<number>`count(*)::int` })
      .from(leadEntries)
      .where(inArray(leadEntries.email, posted));
    expect(count).toBe(LEAD_ADDRESS_LIMIT - 1);

    const city = await openCityForm(page, "/roswell-handyman");
    const last = uniqueEmail("addr");
    await city.name.fill("Pat Address");
    await city.phone.fill("404-555-0100");
    await city.email.fill(last);
    await city.submit.click();
    await expectToast(page, "Thank you for your interest!", "received and saved");
    const over = uniqueEmail("addr");
    await city.name.fill("Pat Address");
    await city.phone.fill("404-555-0100");
    await city.email.fill(over);
    await city.submit.click();
    await expectToast(
      page,
      "Too many submissions",
      /Please wait \d+ minutes before submitting again\./,
    );
    expect(await leadsFor(last)).toHaveLength(1);
    expect(await leadsFor(over)).toHaveLength(0);
  });

  test("different people at one address are not held to one person's limit", async ({ page }) => {
    const form = await openHomeForm(page);
    for (let i = 0; i < LEAD_LIMIT + 2; i++) {
      const email = uniqueEmail("household");
      await fillHome(form, { name: "Sam Household", zip: "30068", email });
      await form.submit.click();
      await expectToast(page, "Thank you for your interest!", "free consultation");
      await closeFirstToast(page);
      expect(await leadsFor(email)).toHaveLength(1);
    }
  });

  test("the same e-mail from another address is still limited", async ({ page, browser }) => {
    const email = uniqueEmail("roaming");
    const form = await openHomeForm(page);
    for (let i = 0; i < 3; i++) {
      await fillHome(form, { name: "Roam Ing", zip: "30004", email });
      await form.submit.click();
      await expectToast(page, "Thank you for your interest!", "free consultation");
      await closeFirstToast(page);
    }
    const elsewhere = await browser.newContext({
      baseURL: BASE_URL,
      extraHTTPHeaders: { "x-forwarded-for": "10.250.1.2" },
    });
    const other = await elsewhere.newPage();
    const otherForm = await openHomeForm(other);
    await fillHome(otherForm, { name: "Roam Ing", zip: "30004", email });
    await otherForm.submit.click();
    await expectToast(other, "Too many submissions", /Please wait \d+ minutes/);
    await elsewhere.close();
  });
});

test.describe("city page form", () => {
  test("a lead with phone and message is saved, confirmed and sent to the webhook @phone", async ({
    page,
  }) => {
    const email = uniqueEmail("city");
    const form = await openCityForm(page, "/milton-handyman");
    await slowPosts(page);
    await form.name.fill("Jordan Farms");
    await form.phone.fill("(770) 555-0199");
    await form.email.fill(email.toUpperCase());
    await form.message.fill("Horse barn doors and two board fences need work.");
    await form.submit.click();
    await expect(form.form.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    await expect(form.message).toBeDisabled();
    await expectToast(
      page,
      "Thank you for your interest!",
      "Your message has been received and saved. We'll contact you within 24 hours.",
    );
    for (const field of [form.name, form.phone, form.email, form.message]) {
      await expect(field).toHaveValue("");
    }
    const [lead] = await leadsFor(email);
    expect(lead).toMatchObject({
      name: "Jordan Farms",
      phone: "(770) 555-0199",
      message: "Horse barn doors and two board fences need work.",
      source: "milton-handyman",
      formType: "contact",
    });
    await expect.poll(() => webhookBodies(email), { timeout: 15_000 }).toHaveLength(1);
    expect((await webhookBodies(email))[0]).toEqual({
      name: "Jordan Farms",
      email,
      phone: "(770) 555-0199",
      message: "Horse barn doors and two board fences need work.",
      formType: "contact",
    });
  });

  test("the browser requires name, phone and a valid e-mail; the message is optional", async ({
    page,
  }) => {
    const form = await openCityForm(page, "/norcross-handyman");
    await form.submit.click();
    expect(await form.name.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
    await form.name.fill("Sam Gwinnett");
    await form.phone.fill("678-555-0123");
    await form.email.fill("not-an-email");
    await form.submit.click();
    expect(await form.email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(
      true,
    );
    expect(await leadsFor("not-an-email")).toHaveLength(0);
    const email = uniqueEmail("nomessage");
    await form.email.fill(email);
    await form.submit.click();
    await expectToast(page, "Thank you for your interest!", "within 24 hours");
    const [lead] = await leadsFor(email);
    expect(lead.message).toBeNull();
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the home form posts; a refusal is answered inline, a lead with a redirect (PRG)", async ({
    page,
  }) => {
    await page.goto("/#contact");
    const form = page.locator("#contact form");
    await form.getByLabel("Name").fill("Noel Script");
    await form.getByLabel("Zip Code").fill("3030");
    const email = uniqueEmail("nojs");
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Schedule Free Consultation" }).click();
    const answer = page.locator("#contact [role=alert]");
    await expect(answer).toContainText("Invalid zip code");
    await expect(answer).toContainText("Please enter a valid zip code");
    await expect(page.locator("#contact form").getByLabel("Zip Code")).toHaveAccessibleDescription(
      "Please enter a valid zip code",
    );
    await expect(page.locator("#contact form").getByLabel("Name")).toHaveValue("Noel Script");
    await page.locator("#contact form").getByLabel("Zip Code").fill("30307");
    await page
      .locator("#contact form")
      .getByRole("button", { name: "Schedule Free Consultation" })
      .click();
    // Post/redirect/get: the page itself, its result named by the fragment, not /?index.
    await expect(page).toHaveURL(/\/#lead-sent$/);
    const status = page.locator("#contact [role=status]:visible");
    await expect(status).toHaveCount(1);
    await expect(status).toContainText("Thank you for your interest!");
    await expect(status).toContainText(
      "We'll be in touch soon to schedule your free consultation.",
    );
    await expect(page.locator("#contact form").getByLabel("Name")).toHaveValue("");
    expect(await leadsFor(email)).toHaveLength(1);
    // A reload shows the page again and posts nothing twice.
    await page.reload();
    await expect(status).toContainText("Thank you for your interest!");
    expect(await leadsFor(email)).toHaveLength(1);
  });

  test("the city form posts and is redirected to the page and its result (PRG)", async ({
    page,
  }) => {
    await page.goto("/johns-creek-handyman");
    const form = page.locator("#contact form");
    const email = uniqueEmail("nojs-city");
    await form.getByLabel("Full Name").fill("Quinn Static");
    await form.getByLabel("Phone Number").fill("470-555-0144");
    await form.getByLabel("Email Address").fill(email);
    await form.getByRole("button", { name: "Get My Free Consultation" }).click();
    await expect(page).toHaveURL(/\/johns-creek-handyman#lead-sent$/);
    await expect(page.locator("#contact [role=status]:visible")).toContainText(
      "Your message has been received and saved.",
    );
    const [lead] = await leadsFor(email);
    expect(lead.source).toBe("johns-creek-handyman");
  });
});

test.describe.serial("delivery when something is down", () => {
  test.beforeAll(failLeadInsertsForDbDownEmails);
  test.afterEach(() => sink.setWebhook(true));

  test("database down: the lead goes straight to the webhook ('success by other method')", async ({
    page,
  }) => {
    const email = `db-down-${uniqueEmail("city")}`;
    const form = await openCityForm(page, "/marietta-handyman");
    await form.name.fill("Fallback Fan");
    await form.phone.fill("770-555-0111");
    await form.email.fill(email);
    await form.submit.click();
    await expectToast(
      page,
      "Thank you for your interest!",
      "We'll contact you within 24 hours to schedule your consultation.",
    );
    expect(await leadsFor(email)).toHaveLength(0);
    expect(await webhookBodies(email)).toHaveLength(1);

    const home = await openHomeForm(page);
    const homeEmail = `db-down-${uniqueEmail("home")}`;
    await fillHome(home, { name: "Fallback Fan", zip: "30060", email: homeEmail });
    await home.submit.click();
    await expectToast(page, "Thank you for your interest!", "free consultation");
    expect(await webhookBodies(homeEmail)).toHaveLength(1);
  });

  test("database and webhook down: 'Form submitted', the form is emptied", async ({ page }) => {
    await sink.setWebhook(false);
    const home = await openHomeForm(page);
    const email = `db-down-${uniqueEmail("lost")}`;
    await fillHome(home, { name: "Unlucky Visitor", zip: "30060", email });
    await home.submit.click();
    await expectToast(
      page,
      "Form submitted",
      "We'll be in touch soon to schedule your consultation.",
    );
    await expect(home.name).toHaveValue("");

    const city = await openCityForm(page, "/decatur-handyman");
    await city.name.fill("Unlucky Visitor");
    await city.phone.fill("404-555-0122");
    await city.email.fill(`db-down-${uniqueEmail("lost")}`);
    await city.submit.click();
    await expectToast(page, "Form submitted", "within 24 hours to schedule your consultation");
    await expect(city.name).toHaveValue("");
  });

  test("webhook outage: leads are kept, retried, and delivered exactly once when it is back", async ({
    page,
  }) => {
    await sink.setWebhook(false);
    const homeEmail = uniqueEmail("outage-home");
    const cityEmail = uniqueEmail("outage-city");
    const home = await openHomeForm(page);
    await fillHome(home, { name: "Outage Owner", zip: "30092", email: homeEmail });
    await home.submit.click();
    await expectToast(page, "Thank you for your interest!", "free consultation");
    const city = await openCityForm(page, "/norcross-handyman");
    await city.name.fill("Outage Owner");
    await city.phone.fill("678-555-0177");
    await city.email.fill(cityEmail);
    await city.submit.click();
    await expectToast(page, "Thank you for your interest!", "received and saved");

    // Both are saved and their webhook calls keep failing and being retried.
    expect(await leadsFor(homeEmail)).toHaveLength(1);
    expect(await leadsFor(cityEmail)).toHaveLength(1);
    for (const email of [homeEmail, cityEmail]) {
      await expect
        .poll(async () => (await outboxFor(email))[0]?.attempts ?? 0, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(2);
      expect(await webhookBodies(email)).toHaveLength(0);
      expect((await outboxFor(email))[0].delivered_at).toBeNull();
    }

    await sink.setWebhook(true);
    for (const email of [homeEmail, cityEmail]) {
      await expect.poll(() => webhookBodies(email), { timeout: 15_000 }).toHaveLength(1);
    }
    // Several more worker rounds: still exactly once.
    await page.waitForTimeout(2_500);
    for (const email of [homeEmail, cityEmail]) {
      expect(await webhookBodies(email)).toHaveLength(1);
      expect((await outboxFor(email))[0].delivered_at).not.toBeNull();
    }
  });
});
