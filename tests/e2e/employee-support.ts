import crypto from "node:crypto";
import { and, gte, inArray, sql } from "drizzle-orm";
import { appointments, serviceRequests } from "~/db/schema";
import type { Locator, Page } from "@playwright/test";
import { createCustomer, e2eDb, expect, test } from "./fixtures";

/*
 * Helpers shared by the employee dashboard's end-to-end specs: unique, isolated data made
 * directly in the end-to-end database, and the facts the dashboard should show about it.
 */

/** Letters only (names may not contain digits), unique per call. */
export function uniqueWord(prefix = "") {
  const letters = crypto
    .randomBytes(8)
    .toString("hex")
    .replace(/\d/g, (d) => "ghijklmnop"[Number(d)]);
  return `${prefix}${letters.charAt(0).toUpperCase()}${letters.slice(1, 10)}`;
}

/** A customer with a unique last name, a phone and a home. */
export async function uniqueCustomer(options: { propertyNotes?: string } = {}) {
  const lastName = uniqueWord("Zz");
  const customer = await createCustomer({
    firstName: "Rosa",
    lastName,
    phone: "(404) 555-0199",
    home: {
      address: `${Math.floor(Math.random() * 900) + 100} Magnolia Way`,
      city: "Dunwoody",
      state: "GA",
      zipCode: "30338",
      propertyNotes: options.propertyNotes ?? "Side gate code 4821",
    },
  });
  return { ...customer, homeId: customer.homeId!, fullName: `Rosa ${lastName}` };
}

const BUSINESS_ZONE = "America/New_York";

/**
 * YYYY-MM-DD `days` from today in the business time zone. Calendar arithmetic on today's date:
 * adding 24-hour days to the clock instead lands on the wrong date near midnight on the nights
 * the clocks change (23:30 + 24 h is 00:30 two days on in spring, 22:30 the same day in autumn).
 */
export function businessDate(days: number) {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: BUSINESS_ZONE }).format(new Date());
  const [y, m, d] = today.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Milliseconds until the next midnight in the business time zone. */
function untilBusinessMidnight(now = new Date()) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: BUSINESS_ZONE,
      hourCycle: "h23",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(now)
      .map((part) => [part.type, Number(part.value)]),
  );
  const elapsed = ((parts.hour * 60 + parts.minute) * 60 + parts.second) * 1000;
  return 86_400_000 - elapsed - now.getMilliseconds();
}

/**
 * For a test that relies on "today" staying today (the browser, the server and the test each
 * read the date): when midnight in the business time zone is less than `marginMs` away, waits
 * until it has passed, and gives the test that much more time.
 */
export async function clearOfBusinessMidnight(marginMs = 180_000) {
  const left = untilBusinessMidnight();
  if (left > marginMs) return;
  const wait = left + 2_000;
  test.info().setTimeout(test.info().timeout + wait);
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/** "Nov 21, 2026" as the table shows a created date. */
export function tableDate(date: Date) {
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeZone: "America/New_York",
  }).format(date);
}

/** "November 21, 2026" as the dialog shows it. */
export function longDate(date: Date) {
  return new Intl.DateTimeFormat("en-US", {
    dateStyle: "long",
    timeZone: "America/New_York",
  }).format(date);
}

/** "Tuesday, December 1, 2026" for a YYYY-MM-DD calendar date. */
export function appointmentDate(day: string) {
  const [y, m, d] = day.split("-").map(Number);
  return new Intl.DateTimeFormat("en-US", {
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** What the four counters should read now, straight from the data. */
export async function expectedCounters() {
  const rows = await e2eDb()
    .select({ status: serviceRequests.status, n: sql<number>`count(*)::int` })
    .from(serviceRequests)
    .groupBy(serviceRequests.status);
  const count = (status: string) => rows.find((r) => r.status === status)?.n ?? 0;
  const [{ n: scheduled }] = await e2eDb()
    .select({ n: sql<number>`count(*)::int` })
    .from(appointments)
    .where(
      and(
        inArray(appointments.status, ["booked", "on_the_way", "in_progress"]),
        gte(appointments.scheduledDate, businessDate(0)),
      ),
    );
  return {
    "New Requests": count("new"),
    Reviewed: count("reviewed"),
    Scheduled: scheduled,
    Completed: count("complete"),
    total: rows.reduce((sum, r) => sum + r.n, 0),
  };
}

/**
 * After 'Create Appointment': a day or time with warnings (a weekend, a holiday, a time already
 * past) shows 'Book anyway' instead of creating it (ADR 050); this books it anyway then.
 */
export async function bookAnywayIfWarned(page: Page, dialog: Locator) {
  const bookAnyway = dialog.getByRole("button", { name: "Book anyway" });
  await expect(page.getByText("Appointment created successfully").or(bookAnyway)).toBeVisible();
  if (await bookAnyway.isVisible()) await bookAnyway.click();
}

/**
 * An appointment's card on the Appointments tab (open, on the scheduled or the past view),
 * found as staff would: page by page with 'Next page' (25 cards a page; other tests add visits
 * in parallel).
 */
export async function appointmentCard(
  page: Page,
  customerName: string,
  list: "Scheduled appointments" | "Past appointments" = "Scheduled appointments",
) {
  const card = page
    .getByRole("list", { name: list })
    .getByRole("listitem")
    .filter({ hasText: customerName });
  const pages = page.getByRole("navigation", { name: "Appointment pages" });
  // The list is on screen before it is searched (the tab may still be opening).
  await expect(page.getByRole("list", { name: list })).toBeVisible();
  for (let turn = 0; turn < 20 && !(await card.count()); turn++) {
    const next = pages.getByRole("link", { name: "Next page" });
    if (!(await next.count())) break;
    await next.click();
    await expect(page).toHaveURL(new RegExp(`apage=${turn + 2}(&|$)`));
    await expect(page.getByRole("list", { name: list })).toBeVisible();
  }
  return card;
}
