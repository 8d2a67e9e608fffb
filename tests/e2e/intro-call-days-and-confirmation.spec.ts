import { eq } from "drizzle-orm";
import { introCalls } from "~/db/schema";
import { BASE_URL } from "../support/ports";
import { e2eDb, expect, expectNoAxeViolations, test, uniqueEmail } from "./fixtures";
import { waitForEnhancements } from "./marketing-helpers";

type Slots = {
  mode: "builtin";
  days: { date: string; label: string; slots: { startsAt: string; label: string }[] }[];
};

/*
 * Booking an intro call: closed days (US federal holidays as observed, and the day after
 * Thanksgiving) are never offered nor taken, and after 'Book Intro Call' the view and the focus
 * move to the confirmation.
 */

// Written out by hand from the federal calendar (5 U.S.C. 6103), not from the app's code.
const CLOSED = new Set([
  ...["2026-01-01", "2026-01-19", "2026-02-16", "2026-05-25", "2026-06-19", "2026-07-03"],
  ...["2026-09-07", "2026-10-12", "2026-11-11", "2026-11-26", "2026-11-27", "2026-12-25"],
  ...["2027-01-01", "2027-01-18", "2027-02-15", "2027-05-31", "2027-06-18", "2027-07-05"],
  ...["2027-09-06", "2027-10-11", "2027-11-11", "2027-11-25", "2027-11-26", "2027-12-24"],
  "2027-12-31",
  ...["2028-01-17", "2028-02-21", "2028-05-29", "2028-06-19", "2028-07-04", "2028-09-04"],
  ...["2028-10-09", "2028-11-10", "2028-11-23", "2028-11-24", "2028-12-25"],
  ...["2029-01-01", "2029-01-15", "2029-02-19", "2029-05-28", "2029-06-19", "2029-07-04"],
  ...["2029-09-03", "2029-10-08", "2029-11-12", "2029-11-22", "2029-11-23", "2029-12-25"],
  ...["2030-01-01", "2030-01-21", "2030-02-18", "2030-05-27", "2030-06-19", "2030-07-04"],
  ...["2030-09-02", "2030-10-14", "2030-11-11", "2030-11-28", "2030-11-29", "2030-12-25"],
]);
// The list must reach past the booking window: a test run after it says so instead of passing.
const CLOSED_LIST_ENDS = "2030-12-31";

function easternDate(instant: Date) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(instant);
}

test("closed days are never offered; every other weekday of the next 14 days is", async ({
  page,
}) => {
  const slots = (await (await page.request.get("/book-call/slots")).json()) as Slots;
  const offered = slots.days.map((d) => d.date);
  for (const date of offered) expect(CLOSED.has(date), `${date} is a closed day`).toBe(false);

  const today = easternDate(new Date());
  expect(today < "2030-12-15", `extend CLOSED past ${CLOSED_LIST_ENDS}`).toBe(true);
  const expected: string[] = [];
  for (let offset = 0; offset < 14; offset++) {
    const day = new Date(`${today}T12:00:00Z`);
    day.setUTCDate(day.getUTCDate() + offset);
    const iso = day.toISOString().slice(0, 10);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6 && !CLOSED.has(iso)) expected.push(iso);
  }
  // Today may be over already; every later open weekday is offered.
  expect(offered).toEqual(expected.filter((date) => date !== today || offered.includes(today)));

  // The page offers the same days (it loads them once hydrated).
  await page.goto("/book-call");
  await waitForEnhancements(page);
  const options = page.getByLabel("Day").locator("option");
  await expect(options).toHaveText(slots.days.map((d) => d.label));
  const labels = await options.allTextContents();
  expect(labels).not.toContain("Thursday, November 26");
  expect(labels).not.toContain("Friday, November 27");
});

test("a slot on a closed day is refused by the server and books nothing", async ({ page }) => {
  const email = uniqueEmail("holiday");
  // 15:00 UTC (10 or 11 AM Eastern, inside the hours either way) on the next two closed days.
  const today = easternDate(new Date());
  const next = [...CLOSED].filter((date) => date > today).slice(0, 2);
  expect(next).toHaveLength(2);
  for (const startsAt of next.map((date) => `${date}T15:00:00.000Z`)) {
    const response = await page.request.post("/book-call", {
      headers: { origin: BASE_URL },
      form: { name: "Holly Day", email, phone: "404-555-0177", startsAt },
    });
    expect(response.status()).toBe(400);
    expect(await response.text()).toContain("That time is not available");
  }
  expect(await e2eDb().select().from(introCalls).where(eq(introCalls.email, email))).toEqual([]);
});

test("after 'Book Intro Call' the confirmation is in view and has the focus @phone", async ({
  page,
}) => {
  const slots = (await (await page.request.get("/book-call/slots")).json()) as Slots;
  const days = slots.days.filter((d) => d.slots.length > 0);
  const day = days[Math.floor(Math.random() * days.length)];
  const slot = day.slots[Math.floor(Math.random() * day.slots.length)];

  await page.goto("/book-call");
  await waitForEnhancements(page);
  await page.getByLabel("Day").selectOption(day.date);
  await page
    .getByRole("group", { name: "Time (Eastern Time)" })
    .getByRole("radio", { name: slot.label, exact: true })
    .check();
  await page.getByLabel("Name").fill("Focus Finder");
  await page.getByLabel("Email").fill(uniqueEmail("focus"));
  await page.getByLabel("Phone Number").fill("(404) 555-0166");
  const button = page.getByRole("button", { name: "Book Intro Call" });
  await button.scrollIntoViewIfNeeded();
  await button.click();

  const confirmation = page.getByRole("status").filter({ hasText: "You're booked!" });
  await expect(confirmation).toBeFocused();
  await expect(confirmation).toBeInViewport({ ratio: 1 });
  await expect(confirmation).toContainText(`${day.label} at ${slot.label} ET`);
  await expectNoAxeViolations(page);
});
