/*
 * The built-in intro-call calendar (DESIGN.md decision 7): 15-minute slots, Monday to Friday,
 * 8AM to 6PM in the business time zone, over the next 14 days (today included), never on a
 * closed day (US federal holidays as observed, and the day after Thanksgiving unless the
 * business opens then). Pure functions of "now" and the taken slots, so they are tested
 * without a clock.
 */

export const TIME_ZONE = "America/New_York";
export const SLOT_MINUTES = 15;
export const DAYS_AHEAD = 14;
const OPENS_AT = 8 * 60;
const CLOSES_AT = 18 * 60;

type CalendarDate = { year: number; month: number; day: number };

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClock(instant: number, timeZone: string) {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    wallClockFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

/** The instant at which the wall clock in `timeZone` reads the given date and minute of day. */
export function zonedInstant(date: CalendarDate, minuteOfDay: number, timeZone = TIME_ZONE) {
  const wall = Date.UTC(date.year, date.month - 1, date.day, 0, minuteOfDay);
  const offsetAt = (instant: number) => {
    const w = wallClock(instant, timeZone);
    return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - instant;
  };
  let instant = wall - offsetAt(wall);
  // A second pass settles instants near a daylight-saving change.
  instant = wall - offsetAt(instant);
  return new Date(instant);
}

/** The calendar date in `timeZone` of an instant. */
export function zonedDate(instant: Date, timeZone = TIME_ZONE): CalendarDate {
  const { year, month, day } = wallClock(instant.getTime(), timeZone);
  return { year, month, day };
}

function addDays(date: CalendarDate, days: number): CalendarDate & { weekday: number } {
  const utc = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return {
    year: utc.getUTCFullYear(),
    month: utc.getUTCMonth() + 1,
    day: utc.getUTCDate(),
    weekday: utc.getUTCDay(),
  };
}

function isoDate(date: CalendarDate) {
  return `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}

/** Which days the business closes beyond weekends and federal holidays. */
export type ClosedDays = { dayAfterThanksgiving: boolean };

export const DEFAULT_CLOSED_DAYS: ClosedDays = { dayAfterThanksgiving: true };

/** The `nth` (1-based) given weekday of a month, or the last one when nth is -1. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): CalendarDate {
  if (nth === -1) {
    const last = new Date(Date.UTC(year, month, 0));
    const back = (last.getUTCDay() - weekday + 7) % 7;
    return { year, month, day: last.getUTCDate() - back };
  }
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return { year, month, day: 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7 };
}

/** A fixed-date holiday on a Saturday is observed the Friday before, on a Sunday the Monday after. */
function observed(date: CalendarDate): CalendarDate {
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  if (weekday === 6) return addDays(date, -1);
  if (weekday === 0) return addDays(date, 1);
  return date;
}

/**
 * The days the business is closed in `year` (ISO dates): the eleven US federal holidays as
 * observed (5 U.S.C. 6103), plus the day after Thanksgiving when `closed.dayAfterThanksgiving`.
 * New Year's Day of the next year observed on 31 December is included.
 */
export function closedDates(year: number, closed: ClosedDays = DEFAULT_CLOSED_DAYS): Set<string> {
  const fixed = (y: number, month: number, day: number) => observed({ year: y, month, day });
  const thanksgiving = nthWeekday(year, 11, 4, 4);
  const dates: CalendarDate[] = [
    fixed(year, 1, 1), // New Year's Day
    nthWeekday(year, 1, 1, 3), // Birthday of Martin Luther King, Jr.
    nthWeekday(year, 2, 1, 3), // Washington's Birthday
    nthWeekday(year, 5, 1, -1), // Memorial Day
    fixed(year, 6, 19), // Juneteenth National Independence Day
    fixed(year, 7, 4), // Independence Day
    nthWeekday(year, 9, 1, 1), // Labor Day
    nthWeekday(year, 10, 1, 2), // Columbus Day
    fixed(year, 11, 11), // Veterans Day
    thanksgiving, // Thanksgiving Day
    fixed(year, 12, 25), // Christmas Day
    fixed(year + 1, 1, 1), // next New Year's Day, observed on 31 December when a Saturday
  ];
  if (closed.dayAfterThanksgiving) dates.push(addDays(thanksgiving, 1));
  return new Set(dates.filter((d) => d.year === year).map(isoDate));
}

/** Whether the business is closed on the calendar date (weekends and closed days). */
export function isClosedDay(date: CalendarDate, closed: ClosedDays = DEFAULT_CLOSED_DAYS) {
  const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  if (weekday === 0 || weekday === 6) return true;
  return closedDates(date.year, closed).has(isoDate(date));
}

export type SlotDay = { date: string; slots: Date[] };

/**
 * Every slot still offered: in the future, not taken, in business hours, next 14 days, not on
 * a closed day.
 */
export function offeredSlots(
  now: Date,
  taken: Iterable<Date> = [],
  closed: ClosedDays = DEFAULT_CLOSED_DAYS,
): SlotDay[] {
  const takenTimes = new Set([...taken].map((t) => t.getTime()));
  const today = zonedDate(now);
  const days: SlotDay[] = [];
  for (let offset = 0; offset < DAYS_AHEAD; offset++) {
    const date = addDays(today, offset);
    if (isClosedDay(date, closed)) continue;
    const slots: Date[] = [];
    for (let minute = OPENS_AT; minute + SLOT_MINUTES <= CLOSES_AT; minute += SLOT_MINUTES) {
      const start = zonedInstant(date, minute);
      if (start.getTime() > now.getTime() && !takenTimes.has(start.getTime())) slots.push(start);
    }
    if (slots.length) days.push({ date: isoDate(date), slots });
  }
  return days;
}

/** Whether `start` is a slot the calendar offers at `now` (ignoring bookings). */
export function isOfferableSlot(start: Date, now: Date, closed: ClosedDays = DEFAULT_CLOSED_DAYS) {
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
