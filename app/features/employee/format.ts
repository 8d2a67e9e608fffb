import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";

/*
 * Dates and times on the employee dashboard, always in the business time zone so the server's
 * HTML and the browser's render agree and staff in any zone read the same wall clock.
 */

const ZONE = BUSINESS_TIME_ZONE;

const mediumDate = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: ZONE });
const longDate = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: ZONE });
const dateTime = new Intl.DateTimeFormat("en-US", {
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: ZONE,
  timeZoneName: "short",
});

/** "Nov 21, 2026" */
export function formatCreatedDate(iso: string) {
  return mediumDate.format(new Date(iso));
}

/** "November 21, 2026" */
export function formatLongDate(iso: string) {
  return longDate.format(new Date(iso));
}

/** "Mon, Nov 24, 2026, 9:15 AM EST" */
export function formatDateTime(iso: string) {
  return dateTime.format(new Date(iso));
}
