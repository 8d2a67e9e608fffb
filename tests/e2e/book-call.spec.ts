import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { type Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { introCalls } from "~/db/schema";
import { BASE_URL, E2E_PORT } from "../support/ports";
import { SERVER_ENTRY } from "../support/processes";
import { e2eDb, expect, expectNoAxeViolations, sink, test, TOAST, uniqueEmail } from "./fixtures";
import { PHONE, PHONE_HREF, waitForEnhancements } from "./marketing-helpers";

type Slots = {
  mode: "builtin";
  days: { date: string; label: string; slots: { startsAt: string; label: string }[] }[];
};

async function freeSlots(page: Page): Promise<Slots> {
  return (await (await page.request.get("/book-call/slots")).json()) as Slots;
}

/** A random free slot, so parallel tests and reruns rarely reach for the same one. */
function pickSlot(slots: Slots) {
  const days = slots.days.filter((d) => d.slots.length > 0);
  const day = days[Math.floor(Math.random() * days.length)];
  const slot = day.slots[Math.floor(Math.random() * day.slots.length)];
  return { day, slot };
}

async function chooseAndFill(
  page: Page,
  choice: ReturnType<typeof pickSlot>,
  person: { name: string; email: string; phone: string },
) {
  await page.getByLabel("Day").selectOption(choice.day.date);
  await page
    .getByRole("group", { name: "Time (Eastern Time)" })
    .getByRole("radio", { name: choice.slot.label, exact: true })
    .check();
  await page.getByLabel("Name").fill(person.name);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Phone Number").fill(person.phone);
}

test.describe("booking page", () => {
  test("headline, Intro Call panel, rescheduling link and What to Expect @phone", async ({
    page,
  }) => {
    await page.goto("/book-call");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Ready to Transform Your Home? Let's Talk Strategy",
    );
    const panel = page
      .locator("div")
      .filter({
        has: page.getByRole("heading", { level: 2, name: "Intro Call", exact: true }),
      })
      .last();
    await expect(panel).toContainText("15 minutes");
    await expect(panel).toContainText("By phone");
    for (const item of [
      "Assess your maintenance needs",
      "Review repairs and upgrades",
      "Discuss pricing and next steps",
      "No obligation",
    ]) {
      await expect(panel.getByRole("listitem").filter({ hasText: item })).toBeVisible();
    }
    await expect(panel.getByRole("link", { name: PHONE })).toHaveAttribute("href", PHONE_HREF);
    await expect(panel).toContainText("Need to reschedule?");
    const expectSection = page.getByRole("region", { name: "What to Expect on Your Call" });
    await expect(expectSection.getByRole("heading", { level: 3 })).toHaveText([
      "Assess Your Needs",
      "Custom Plan",
      "Next Steps",
    ]);
  });

  test("small screens get the 'Having trouble with the scheduler?' call button @phone-only", async ({
    page,
  }) => {
    await page.goto("/book-call");
    const help = page.getByRole("link", { name: /Having trouble with the scheduler\?/ });
    await expect(help).toBeVisible();
    await expect(help).toHaveAttribute("href", PHONE_HREF);
  });

  test("wide screens do not show the small-screen call button", async ({ page }) => {
    await page.goto("/book-call");
    await expect(
      page.getByRole("link", { name: /Having trouble with the scheduler\?/ }),
    ).toBeHidden();
  });

  test("offers 15-minute weekday slots 8AM-6PM Eastern over the next 14 days, none past", async ({
    page,
  }) => {
    const slots = await freeSlots(page);
    expect(slots.mode).toBe("builtin");
    const now = Date.now();
    for (const day of slots.days) {
      expect(day.label).not.toMatch(/Saturday|Sunday/);
      for (const slot of day.slots) {
        const start = new Date(slot.startsAt);
        expect(start.getTime()).toBeGreaterThan(now - 60_000);
        expect(start.getTime()).toBeLessThan(now + 15 * 24 * 60 * 60_000);
        expect(start.getUTCMinutes() % 15).toBe(0);
        const hour = Number(
          new Intl.DateTimeFormat("en-US", {
            timeZone: "America/New_York",
            hour: "numeric",
            hourCycle: "h23",
          }).format(start),
        );
        expect(hour).toBeGreaterThanOrEqual(8);
        expect(hour).toBeLessThan(18);
      }
    }
    // 10 weekdays in 14 days, less today once it is over and the closed days (Thanksgiving
    // week closes two; member-booking.spec.ts checks that no closed day is offered).
    expect(slots.days.length).toBeGreaterThanOrEqual(7);
  });

  test("book a call: confirmation on screen, e-mail with an .ics, stored, and no longer offered @phone", async ({
    page,
  }) => {
    await page.goto("/book-call");
    await waitForEnhancements(page);
    await expect(page.getByLabel("Day")).toBeVisible();
    const choice = pickSlot(await freeSlots(page));
    const email = uniqueEmail("intro");
    await chooseAndFill(page, choice, { name: "Avery Caller", email, phone: "(404) 555-0188" });
    await page.getByRole("button", { name: "Book Intro Call" }).click();
    const confirmation = page.getByRole("status").filter({ hasText: "You're booked!" });
    await expect(confirmation).toBeVisible();
    await expect(confirmation).toContainText(`${choice.day.label} at ${choice.slot.label} ET`);
    await expect(
      page.locator(TOAST).filter({ hasText: "Your intro call is booked!" }),
    ).toBeVisible();
    // The card fits the confirmation: no empty area left below it (issue 32).
    const card = (await page.locator("[data-scheduler]").boundingBox())!;
    const booked = (await confirmation.boundingBox())!;
    expect(card.y + card.height - (booked.y + booked.height)).toBeLessThan(64);

    const [call] = await e2eDb().select().from(introCalls).where(eq(introCalls.email, email));
    expect(call).toMatchObject({ name: "Avery Caller", phone: "(404) 555-0188" });
    expect(call.startsAt.toISOString()).toBe(choice.slot.startsAt);

    const mail = await sink.waitForMail(email, /Your intro call is booked/);
    expect(mail.subject).toContain(`${choice.day.label} at ${choice.slot.label} ET`);
    expect(mail.text).toContain("We will call you at (404) 555-0188");
    expect(mail.raw).toMatch(
      /Content-Type: text\/calendar[^\n]*\r?\n(?:.*\r?\n)*?.*filename="?intro-call\.ics/i,
    );
    const encoded =
      /filename="?intro-call\.ics"?\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(
        mail.raw,
      )?.[1];
    const ics = Buffer.from(encoded!.replace(/\s+/g, ""), "base64").toString("utf8");
    expect(ics).toContain("BEGIN:VCALENDAR");
    expect(ics).toContain("STATUS:CONFIRMED");
    const start = call.startsAt
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "");
    expect(ics).toContain(`DTSTART:${start}`);

    const after = await freeSlots(page);
    const offered = after.days.flatMap((d) => d.slots.map((s) => s.startsAt));
    expect(offered).not.toContain(choice.slot.startsAt);
  });

  test("two people can never book the same slot", async ({ page, browser }) => {
    const choice = pickSlot(await freeSlots(page));
    const other = await browser.newContext({
      baseURL: BASE_URL,
      extraHTTPHeaders: { "x-forwarded-for": "10.251.7.7" },
    });
    const second = await other.newPage();
    for (const p of [page, second]) {
      await p.goto("/book-call");
      await waitForEnhancements(p);
      await expect(p.getByLabel("Day")).toBeVisible();
    }
    const first = uniqueEmail("first");
    const late = uniqueEmail("late");
    await chooseAndFill(page, choice, { name: "First Comer", email: first, phone: "404-555-0101" });
    await chooseAndFill(second, choice, { name: "Late Comer", email: late, phone: "404-555-0102" });
    await page.getByRole("button", { name: "Book Intro Call" }).click();
    await expect(page.getByRole("status").filter({ hasText: "You're booked!" })).toBeVisible();
    await second.getByRole("button", { name: "Book Intro Call" }).click();
    await expect(
      second.locator(TOAST).filter({ hasText: "That time was just taken" }),
    ).toBeVisible();
    await other.close();

    // Straight at the database's rule, past the page: still refused.
    const response = await page.request.post("/book-call", {
      headers: { origin: BASE_URL },
      form: {
        name: "Direct Poster",
        email: uniqueEmail("direct"),
        phone: "404-555-0103",
        startsAt: choice.slot.startsAt,
      },
    });
    expect(response.status()).toBe(409);
    const booked = await e2eDb()
      .select()
      .from(introCalls)
      .where(eq(introCalls.startsAt, new Date(choice.slot.startsAt)));
    expect(booked.map((c) => c.email)).toEqual([first]);
  });

  test("bad input is refused with a clear message and books nothing", async ({ page }) => {
    const choice = pickSlot(await freeSlots(page));
    const email = uniqueEmail("bad");
    for (const [form, message] of [
      [
        { name: "Val Id", email, phone: "12", startsAt: choice.slot.startsAt },
        "Please enter a valid phone number",
      ],
      [
        { name: "Val Id", email, phone: "404-555-0104", startsAt: "2020-01-01T13:00:00.000Z" },
        "That time is not available",
      ],
      [
        { name: "Val Id", email: "nope", phone: "404-555-0104", startsAt: choice.slot.startsAt },
        "Please enter a valid email address",
      ],
    ] as const) {
      const response = await page.request.post("/book-call", {
        headers: { origin: BASE_URL },
        form,
      });
      expect(response.status()).toBe(400);
      expect(await response.text()).toContain(message);
    }
    expect(await e2eDb().select().from(introCalls).where(eq(introCalls.email, email))).toEqual([]);
  });

  test("josé@example.com, which the calendar cannot carry, gets the form's e-mail message and books nothing; the script's reply carries messages only", async ({
    page,
  }) => {
    const choice = pickSlot(await freeSlots(page));
    const form = {
      name: "José Núñez",
      email: "josé@example.com",
      phone: "404-555-0193",
      startsAt: choice.slot.startsAt,
    };
    const document = await page.request.post("/book-call", { headers: { origin: BASE_URL }, form });
    expect(document.status()).toBe(400);
    expect(await document.text()).toContain("Please enter a valid email address");

    // The page's script (ADR 030) gets JSON; a React Router data request, its own encoding.
    const pageScript = await page.request.post("/book-call", {
      headers: { origin: BASE_URL, "x-page-script": "1" },
      form,
    });
    expect(pageScript.headers()["content-type"]).toContain("application/json");
    const data = await page.request.post("/book-call.data", {
      headers: { origin: BASE_URL },
      form,
    });
    for (const script of [pageScript, data]) {
      expect(script.status()).toBe(200);
      const reply = await script.text();
      expect(reply).toContain("Please enter a valid email address");
      for (const sent of ["José", "josé", "555-0193", choice.slot.startsAt]) {
        expect(reply).not.toContain(sent);
      }
    }
    expect(
      await e2eDb().select().from(introCalls).where(eq(introCalls.email, "josé@example.com")),
    ).toEqual([]);
    expect(
      await e2eDb()
        .select()
        .from(introCalls)
        .where(eq(introCalls.startsAt, new Date(choice.slot.startsAt))),
    ).toEqual([]);
  });

  test("the page passes axe once the scheduler has loaded @phone", async ({ page }) => {
    await page.goto("/book-call");
    await waitForEnhancements(page);
    await expect(page.getByLabel("Day")).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

/*
 * With SCHEDULER_EMBED_URL set, the page frames the external widget and logs its events. The
 * shared end-to-end server runs without it, so this starts a second server from the same build
 * (embedded database, its own port) next to a stand-in widget that posts the widget's messages.
 */
test.describe("external scheduler", () => {
  const widgetPort = E2E_PORT + 10;
  const appPort = E2E_PORT + 11;
  let widget: http.Server;
  let server: ChildProcess;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    widget = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(`<!doctype html><html lang="en"><title>Widget</title><body><p>Pick a time</p><script>
        for (const event of ["calendly.profile_page_viewed", "calendly.event_type_viewed", "calendly.date_and_time_selected", "calendly.event_scheduled", "something.else"]) {
          parent.postMessage({ event, payload: { demo: true } }, "*");
        }
      </script></body></html>`);
    });
    await new Promise<void>((resolve) => widget.listen(widgetPort, "127.0.0.1", resolve));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-embed-"));
    server = spawn(process.execPath, [SERVER_ENTRY], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(appPort),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://localhost:${appPort}`,
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        SEED_DEMO: "false",
        AUTH_SECRET: "e2e-embed-secret-e2e-embed-secret-0123456789",
        LOG_LEVEL: "warn",
        SCHEDULER_EMBED_URL: `http://127.0.0.1:${widgetPort}/intro-call`,
      },
      stdio: "ignore",
    });
    const deadline = Date.now() + 110_000;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`http://127.0.0.1:${appPort}/healthz`)).ok) return;
      } catch {
        // starting
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error("the second server did not start");
  });

  test.afterAll(async () => {
    server?.kill("SIGTERM");
    await new Promise((r) => server?.once("exit", r));
    await new Promise((r) => widget?.close(r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("frames the widget and logs its events", async ({ page }) => {
    const logged: string[] = [];
    page.on("console", (message) => {
      if (message.text().startsWith("Scheduler:")) logged.push(message.text());
    });
    await page.goto(`http://localhost:${appPort}/book-call`);
    const frame = page.frameLocator('iframe[title="Schedule your intro call"]');
    await expect(frame.getByText("Pick a time")).toBeVisible();
    await expect(page.locator("iframe")).toHaveAttribute(
      "src",
      new RegExp(`^http://127\\.0\\.0\\.1:${widgetPort}/intro-call\\?embed_domain=`),
    );
    await expect
      .poll(() => logged.map((line) => line.replace(/ JSHandle.*| \{.*$/, "")))
      .toEqual([
        "Scheduler: profile viewed",
        "Scheduler: event type viewed",
        "Scheduler: date/time selected",
        "Scheduler: event scheduled",
      ]);
  });
});
