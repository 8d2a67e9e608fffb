/*
 * The built-in intro-call calendar (docs/design.md decision 7): 15-minute slots, Monday to Friday,
 * 8AM to 6PM in the business time zone, over the next 14 days (today included), never on a
 * closed day (holidays and the days staff close: the business calendar). Pure
 * functions of "now" and the taken slots, so they are tested without a clock.
 */

import {
  BUSINESS_TIME_ZONE,
  addDays,
  businessToday,
  closedDays,
  isBusinessDay,
  zonedDate,
  zonedInstant,
  type ClosedDays,
} from "~/lib/business-calendar";

export const TIME_ZONE = BUSINESS_TIME_ZONE;
export const SLOT_MINUTES = 15;
export const DAYS_AHEAD = 14;
const OPENS_AT = 8 * 60;
const CLOSES_AT = 18 * 60;

export { zonedInstant, zonedDate };

export type SlotDay = { date: string; slots: Date[] };

/** Every slot still offered: in the future, not taken, in business hours, next 14 days. */
export function offeredSlots(
  now: Date,
  taken: Iterable<Date> = [],
  closed: ClosedDays = closedDays(),
): SlotDay[] {
  const takenTimes = new Set([...taken].map((t) => t.getTime()));
  const today = businessToday(now);
  const days: SlotDay[] = [];
  for (let offset = 0; offset < DAYS_AHEAD; offset++) {
    const date = addDays(today, offset);
    if (!isBusinessDay(date, closed)) continue;
    const slots: Date[] = [];
    for (let minute = OPENS_AT; minute + SLOT_MINUTES <= CLOSES_AT; minute += SLOT_MINUTES) {
      const start = zonedInstant(date, minute);
      if (start.getTime() > now.getTime() && !takenTimes.has(start.getTime())) slots.push(start);
    }
    if (slots.length) days.push({ date, slots });
  }
  return days;
}

/** Whether `start` is a slot the calendar offers at `now` (ignoring bookings). */
export function isOfferableSlot(start: Date, now: Date, closed: ClosedDays = closedDays()) {
  if (Number.isNaN(start.getTime())) return false;
  return offeredSlots(now, [], closed).some((day) =>
    day.slots.some((slot) => slot.getTime() === start.getTime()),
  );
}

const dayFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  weekday: "long",
  month: "long",
  day: "numeric",
});
const timeFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  hour: "numeric",
  minute: "2-digit",
});

/** "Monday, November 23" */
export function dayLabel(instant: Date) {
  return dayFormat.format(instant);
}

/** "9:15 AM" */
export function timeLabel(instant: Date) {
  return timeFormat.format(instant);
}

/** "Monday, November 23 at 9:15 AM ET" */
export function slotLabel(instant: Date) {
  return `${dayLabel(instant)} at ${timeLabel(instant)} ET`;
}
