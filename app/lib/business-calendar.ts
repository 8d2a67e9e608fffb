/*
 * Business time, in one place (docs/design.md decision 15): the business time zone, today's date
 * there, the default closed days (US federal holidays, observed, and the day after
 * Thanksgiving, computed per year), business days, and the long US date and 12-hour time
 * labels. Pure functions of their arguments, shared by the browser and the server; the closed
 * days that staff add or remove live in the database (closed-days.server.ts) and reach these
 * functions as a `ClosedDays` value.
 */
import { DEFAULT_BUSINESS } from "./business";

export const BUSINESS_TIME_ZONE = DEFAULT_BUSINESS.timeZone;

/** A calendar date without a time zone: "2026-11-26". */
export type IsoDate = string;
export type CalendarDate = { year: number; month: number; day: number };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isoDate(date: CalendarDate): IsoDate {
  return `${date.year}-${String(date.month).padStart(2, "0")}-${String(date.day).padStart(2, "0")}`;
}

/** Parses "YYYY-MM-DD"; undefined unless it names a real day. */
export function parseIsoDate(value: string): CalendarDate | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utc = new Date(Date.UTC(year, month - 1, day));
  if (utc.getUTCFullYear() !== year || utc.getUTCMonth() !== month - 1 || utc.getUTCDate() !== day)
    return undefined;
  return { year, month, day };
}

function toUtc(date: IsoDate) {
  const parsed = parseIsoDate(date);
  if (!parsed) throw new Error(`Not a date: ${date}`);
  return new Date(Date.UTC(parsed.year, parsed.month - 1, parsed.day));
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekday(date: IsoDate) {
  return toUtc(date).getUTCDay();
}

export function addDays(date: IsoDate, days: number): IsoDate {
  const utc = toUtc(date);
  utc.setUTCDate(utc.getUTCDate() + days);
  return utc.toISOString().slice(0, 10);
}

/** `date` plus `months` calendar months; the 31st becomes the month's last day when needed. */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const [y, m, d] = date.split("-").map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return isoDate({ year, month, day: Math.min(d, daysInMonth(year, month)) });
}

function daysInMonth(year: number, month: number) {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The first and last day (inclusive) of the calendar month holding `date`. */
export function calendarMonth(date: IsoDate) {
  const [year, month] = date.split("-").map(Number);
  return {
    first: isoDate({ year, month, day: 1 }),
    last: isoDate({ year, month, day: daysInMonth(year, month) }),
  };
}

/** The same day `years` later (earlier when negative); 29 February becomes the 28th. */
export function addYears(date: IsoDate, years: number): IsoDate {
  const d = parseIsoDate(date);
  if (!d) throw new Error(`Not a date: ${date}`);
  const year = d.year + years;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return isoDate({
    year,
    month: d.month,
    day: d.month === 2 && d.day === 29 && !leap ? 28 : d.day,
  });
}

/**
 * The window a date a person types must fall in (ADR 039): closed days, time off and
 * appointments within 2 years of today, a membership's start within 1 year. Dates outside it
 * are refused with a message before anything computes with them (a year 9999 overflowed).
 */
export const DATE_WINDOW = {
  schedule: { yearsBack: 2, yearsAhead: 2 },
  membershipStart: { yearsBack: 1, yearsAhead: 1 },
} as const;

/** Whether `date` is a real day no more than the window's years before or after `today`. */
export function isWithinWindow(
  date: string,
  today: IsoDate,
  window: { yearsBack: number; yearsAhead: number },
) {
  return (
    parseIsoDate(date) !== undefined &&
    date >= addYears(today, -window.yearsBack) &&
    date <= addYears(today, window.yearsAhead)
  );
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate) {
  return Math.round((toUtc(to).getTime() - toUtc(from).getTime()) / 86_400_000);
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC in milliseconds at `instant` (a whole second), read from Intl. */
function zoneOffset(instant: number, timeZone: string) {
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
  const wall = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return wall - instant;
}

/*
 * Offsets by quarter hour: a zone's offset is a whole number of quarter hours and changes only
 * on a quarter hour (every zone in use today), so one Intl read serves the quarter hour's every
 * instant (Intl's formatToParts was a share of every signed-in page's CPU). Bounded.
 */
const QUARTER_HOUR_MS = 900_000;
const offsetsByQuarter = new Map<string, Map<number, number>>();

function wallClock(instant: number, timeZone: string) {
  const quarter = Math.floor(instant / QUARTER_HOUR_MS);
  let offsets = offsetsByQuarter.get(timeZone);
  if (!offsets) {
    offsets = new Map();
    offsetsByQuarter.set(timeZone, offsets);
  }
  let offset = offsets.get(quarter);
  if (offset === undefined) {
    if (offsets.size >= 4096) offsets.clear();
    offset = zoneOffset(quarter * QUARTER_HOUR_MS, timeZone);
    offsets.set(quarter, offset);
  }
  const wall = new Date(instant + offset);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
}

/** The instant at which the wall clock in `timeZone` reads the given date and minute of day. */
export function zonedInstant(
  date: CalendarDate | IsoDate,
  minuteOfDay: number,
  timeZone = BUSINESS_TIME_ZONE,
) {
  const d = typeof date === "string" ? parseIsoDate(date) : date;
  if (!d) throw new Error(`Not a date: ${String(date)}`);
  const wall = Date.UTC(d.year, d.month - 1, d.day, 0, minuteOfDay);
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
export function zonedDate(instant: Date, timeZone = BUSINESS_TIME_ZONE): CalendarDate {
  const { year, month, day } = wallClock(instant.getTime(), timeZone);
  return { year, month, day };
}

/** The date and minute of day the business's wall clock reads at an instant. */
export function businessWallClock(instant: Date, timeZone = BUSINESS_TIME_ZONE) {
  const w = wallClock(instant.getTime(), timeZone);
  return {
    date: isoDate({ year: w.year, month: w.month, day: w.day }),
    minute: w.hour * 60 + w.minute,
  };
}

/** Today's date where the business is, as YYYY-MM-DD. */
export function businessToday(now = new Date(), timeZone = BUSINESS_TIME_ZONE): IsoDate {
  return isoDate(zonedDate(now, timeZone));
}

/** Today's date and the wall-clock time ("HH:MM") where the business is. */
export function businessNow(now = new Date()): { date: IsoDate; time: string } {
  const { date, minute } = businessWallClock(now);
  return { date, time: timeOfDay(minute) };
}

/* ---------- closed days ---------- */

/**
 * The holidays the business may close on: the eleven US federal holidays and the day after
 * Thanksgiving, each closed by default; the owner chooses which (the closed-days page, stored
 * in holiday_closings by key).
 */
export const DEFAULT_HOLIDAYS = [
  { key: "new-years-day", name: "New Year's Day" },
  { key: "martin-luther-king-jr-day", name: "Martin Luther King Jr. Day" },
  { key: "washingtons-birthday", name: "Washington's Birthday" },
  { key: "memorial-day", name: "Memorial Day" },
  { key: "juneteenth", name: "Juneteenth" },
  { key: "independence-day", name: "Independence Day" },
  { key: "labor-day", name: "Labor Day" },
  { key: "columbus-day", name: "Columbus Day" },
  { key: "veterans-day", name: "Veterans Day" },
  { key: "thanksgiving-day", name: "Thanksgiving Day" },
  { key: "day-after-thanksgiving", name: "Day after Thanksgiving" },
  { key: "christmas-day", name: "Christmas Day" },
] as const;

export type HolidayKey = (typeof DEFAULT_HOLIDAYS)[number]["key"];

export function isHolidayKey(value: string): value is HolidayKey {
  return DEFAULT_HOLIDAYS.some((h) => h.key === value);
}

export type Holiday = { date: IsoDate; name: string; key: HolidayKey };

function nthWeekday(year: number, month: number, wd: number, n: number): IsoDate {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const day = 1 + ((wd - first + 7) % 7) + (n - 1) * 7;
  return isoDate({ year, month, day });
}

function lastWeekday(year: number, month: number, wd: number): IsoDate {
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return isoDate({ year, month, day: lastDay - ((last - wd + 7) % 7) });
}

/** A fixed-date holiday on a Saturday is observed on Friday, on a Sunday on Monday. */
function observed(date: IsoDate): IsoDate {
  const wd = weekday(date);
  if (wd === 6) return addDays(date, -1);
  if (wd === 0) return addDays(date, 1);
  return date;
}

const holidayCache = new Map<number, Holiday[]>();

/** Every holiday of DEFAULT_HOLIDAYS in `year`, on the day it is observed. */
function holidaysOf(year: number): Holiday[] {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const fixed = (month: number, day: number) => observed(isoDate({ year, month, day }));
  const thanksgiving = nthWeekday(year, 11, 4, 4);
  const dates: Record<HolidayKey, IsoDate> = {
    "new-years-day": fixed(1, 1),
    "martin-luther-king-jr-day": nthWeekday(year, 1, 1, 3),
    "washingtons-birthday": nthWeekday(year, 2, 1, 3),
    "memorial-day": lastWeekday(year, 5, 1),
    juneteenth: fixed(6, 19),
    "independence-day": fixed(7, 4),
    "labor-day": nthWeekday(year, 9, 1, 1),
    "columbus-day": nthWeekday(year, 10, 1, 2),
    "veterans-day": fixed(11, 11),
    "thanksgiving-day": thanksgiving,
    "day-after-thanksgiving": addDays(thanksgiving, 1),
    "christmas-day": fixed(12, 25),
  };
  const days: Holiday[] = DEFAULT_HOLIDAYS.map((h) => ({ ...h, date: dates[h.key] }));
  const nextNewYear = observed(isoDate({ year: year + 1, month: 1, day: 1 }));
  if (nextNewYear.startsWith(`${year}-`))
    days.push({ key: "new-years-day", date: nextNewYear, name: "New Year's Day" });
  const inYear = days.filter((d) => d.date.startsWith(`${year}-`));
  holidayCache.set(year, inYear);
  return inYear;
}

/**
 * The days the business is closed by default in `year`: the eleven US federal holidays on the
 * days they are observed, and the day after Thanksgiving, less the holidays the owner keeps
 * open (`openHolidays`). New Year's Day of the next year, observed on 31 December when it falls
 * on a Saturday, is included in the year it falls in.
 */
export function defaultClosedDays(
  year: number,
  openHolidays: ReadonlySet<HolidayKey> = NO_HOLIDAYS,
): Holiday[] {
  const all = holidaysOf(year);
  return openHolidays.size ? all.filter((h) => !openHolidays.has(h.key)) : all;
}

const NO_HOLIDAYS: ReadonlySet<HolidayKey> = new Set();

/** Staff's changes to the default calendar: extra closed days, and defaults reopened. */
export type ClosedDayOverride = { date: IsoDate; closed: boolean; note?: string | null };

export type ClosedDays = {
  isClosed(date: IsoDate): boolean;
  /** Why the business is closed that day, or undefined when it is open. */
  reason(date: IsoDate): string | undefined;
};

/**
 * The business calendar's closed days: the default holidays but those the owner keeps open,
 * with staff's changes to single dates on top.
 */
export function closedDays(
  overrides: readonly ClosedDayOverride[] = [],
  openHolidays: ReadonlySet<HolidayKey> = NO_HOLIDAYS,
): ClosedDays {
  const byDate = new Map(overrides.map((o) => [o.date, o]));
  const reason = (date: IsoDate) => {
    const override = byDate.get(date);
    if (override) return override.closed ? override.note || "Closed" : undefined;
    const year = Number(date.slice(0, 4));
    return defaultClosedDays(year, openHolidays).find((h) => h.date === date)?.name;
  };
  return { reason, isClosed: (date) => reason(date) !== undefined };
}

/** Monday to Friday, and not a closed day. */
export function isBusinessDay(date: IsoDate, closed: ClosedDays) {
  const wd = weekday(date);
  return wd !== 0 && wd !== 6 && !closed.isClosed(date);
}

/** The first business day after `date`. */
export function nextBusinessDay(date: IsoDate, closed: ClosedDays): IsoDate {
  let day = addDays(date, 1);
  while (!isBusinessDay(day, closed)) day = addDays(day, 1);
  return day;
}

/**
 * The earliest instant a visit may start when booked at `now`: one business day ahead, i.e. the
 * same time of day on the next business day (Friday 3 PM → Monday 3 PM; a Saturday → Monday at
 * that hour; the eve of Thanksgiving → the Monday after).
 */
export function earliestBookableStart(now: Date, closed: ClosedDays) {
  const { date, minute } = businessWallClock(now);
  return zonedInstant(nextBusinessDay(date, closed), minute);
}

/* ---------- labels ---------- */

const longDateFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "long",
  month: "long",
  day: "numeric",
  year: "numeric",
});
const dayLabelFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "long",
  month: "long",
  day: "numeric",
});

/** "Friday, November 27, 2026" */
export function longDate(date: IsoDate) {
  return longDateFormat.format(toUtc(date));
}

/** "Friday, November 27" */
export function dayLabel(date: IsoDate) {
  return dayLabelFormat.format(toUtc(date));
}

const shortDayFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
});

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(month: "long" | "short", withYear: boolean) {
  const key = `${month} ${withYear}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: "UTC",
      month,
      day: "numeric",
      ...(withYear ? { year: "numeric" } : {}),
    });
    dateFormats.set(key, format);
  }
  return format;
}

/**
 * "2026-11-27" → "November 27, 2026": a calendar date as people read it, in pages, e-mails and
 * CSV files alike (never the raw YYYY-MM-DD). Options, where a page reads it shorter:
 * `today` leaves the year out when it is today's ("November 27"), `year: false` always;
 * `month: "short"` abbreviates the month ("Nov 27, 2026", the reports' tables and charts).
 */
export function plainDate(
  date: IsoDate,
  {
    month = "long",
    today,
    year = true,
  }: { month?: "long" | "short"; today?: IsoDate; year?: boolean } = {},
) {
  const withYear = year && !(today && date.slice(0, 4) === today.slice(0, 4));
  // A page shows the same few dates many times (a statement, a plan): each is formatted once.
  const key = `${date}${month === "long" ? "L" : "S"}${withYear ? "Y" : ""}`;
  let text = plainDates.get(key);
  if (text === undefined) {
    text = dateFormat(month, withYear).format(toUtc(date));
    if (plainDates.size >= 4096) plainDates.clear();
    plainDates.set(key, text);
  }
  return text;
}
const plainDates = new Map<string, string>();

/**
 * A business day and a wall-clock time as people read them: ("2026-12-01", "14:00") →
 * "Tue, Dec 1, 2:00 PM". The time is "HH:MM" (or "HH:MM:SS") or a minute of the day.
 */
export function dateTimeLabel(date: IsoDate, time: string | number) {
  const minute = typeof time === "number" ? time : minuteOfDay(time);
  return `${shortDayFormat.format(toUtc(date))}, ${minuteLabel(minute)}`;
}

/** An instant as the business's wall clock reads it: "Tue, Dec 1, 2:00 PM". */
export function instantLabel(instant: Date | string) {
  const at = businessWallClock(typeof instant === "string" ? new Date(instant) : instant);
  return dateTimeLabel(at.date, at.minute);
}

const timestampFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: BUSINESS_TIME_ZONE,
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
});

/** When something happened, on the business's clock: "Nov 21, 2026, 9:15 AM". */
export function timestampLabel(instant: Date | string) {
  return timestampFormat.format(typeof instant === "string" ? new Date(instant) : instant);
}

/** 570 → "9:30 AM", 780 → "1:00 PM"; a wall-clock time too: "14:30:00" → "2:30 PM". */
export function minuteLabel(time: number | string) {
  const minute = typeof time === "number" ? time : minuteOfDay(time);
  const h = Math.floor(minute / 60) % 24;
  const m = minute % 60;
  const suffix = h < 12 ? "AM" : "PM";
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, "0")} ${suffix}`;
}

/** "13:30" or "13:30:00" → 810 */
export function minuteOfDay(time: string) {
  const [h, m] = time.split(":").map(Number);
  return h * 60 + m;
}

/** 810 → "13:30" */
export function timeOfDay(minute: number) {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}
