import { BUSINESS_TIME_ZONE as TIME_ZONE, plainDate } from "~/lib/business-calendar";
import type { IsoDate } from "./bank";

// Built once: an Intl formatter with a time zone is costly to make per call.
const dayFormat = new Intl.DateTimeFormat("en-CA", { timeZone: TIME_ZONE });
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** Today's date and the wall-clock time ("HH:MM") where the business is. */
export function businessNow(now = new Date()): { date: IsoDate; time: string } {
  return { date: dayFormat.format(now), time: timeFormat.format(now) };
}

/** "2026-12-03" -> "December 3, 2026" (long US form). */
export function longDate(date: IsoDate) {
  return plainDate(date);
}
