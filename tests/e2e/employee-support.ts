import crypto from "node:crypto";
import { and, eq, gte, sql } from "drizzle-orm";
import { appointments, serviceRequests } from "~/db/schema";
import { createCustomer, e2eDb } from "./fixtures";

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

/** YYYY-MM-DD `days` from today in the business time zone. */
export function businessDate(days: number) {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "America/New_York" }).format(
    new Date(Date.now() + days * 86_400_000),
  );
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
      and(eq(appointments.status, "approved"), gte(appointments.scheduledDate, businessDate(0))),
    );
  return {
    "New Requests": count("new"),
    Reviewed: count("reviewed"),
    Scheduled: scheduled,
    Completed: count("complete"),
    total: rows.reduce((sum, r) => sum + r.n, 0),
  };
}
