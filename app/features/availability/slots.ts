/*
 * Which visits can be booked (ADR 017): for a block of 1 h 45 min or 3 h 30 min, the days of
 * the next 4 weeks with a free start, starts every 30 minutes inside a handyman's working hours,
 * never on a closed day, in time off, over another visit of the same handyman, in the past or
 * less than one business day ahead. A pure function of its inputs, so it is tested and
 * benchmarked without a database.
 */
import {
  addDays,
  businessToday,
  businessWallClock,
  dayLabel,
  isBusinessDay,
  minuteLabel,
  nextBusinessDay,
  weekday,
  type ClosedDays,
  type IsoDate,
} from "~/lib/business-calendar";

export const VISIT_BLOCKS = [105, 210] as const;
export type VisitBlock = (typeof VISIT_BLOCKS)[number];
export const BOOKING_WINDOW_DAYS = 28;
export const START_STEP_MINUTES = 30;

/** The business's contact hours, every handyman's week until staff change it. */
export const DEFAULT_WORKING_HOURS: WeeklyHours = [
  null,
  { start: 8 * 60, end: 18 * 60 },
  { start: 8 * 60, end: 18 * 60 },
  { start: 8 * 60, end: 18 * 60 },
  { start: 8 * 60, end: 18 * 60 },
  { start: 8 * 60, end: 18 * 60 },
  null,
];

/** Index 0 = Sunday ... 6 = Saturday; null = not working that day. Minutes of the day. */
export type WeeklyHours = ReadonlyArray<{ start: number; end: number } | null>;

export type Handyman = {
  id: string;
  name: string;
  hours: WeeklyHours;
  /** Inclusive date ranges. */
  timeOff: ReadonlyArray<{ startDate: IsoDate; endDate: IsoDate }>;
  /** Booked visits by date: [start, end) minutes of the day. */
  busy: ReadonlyMap<IsoDate, ReadonlyArray<readonly [number, number]>>;
};

export type OfferedSlot = {
  startMinute: number;
  label: string;
  /** Who is free for the whole block, the dedicated handyman first. */
  handymen: { id: string; name: string }[];
  /** Whether the first one is the member's dedicated handyman (or the member has none). */
  withDedicated: boolean;
};

export type OfferedDay = { date: IsoDate; label: string; slots: OfferedSlot[] };

export function isVisitBlock(value: number): value is VisitBlock {
  return (VISIT_BLOCKS as readonly number[]).includes(value);
}

function isAway(handyman: Handyman, date: IsoDate) {
  return handyman.timeOff.some((t) => t.startDate <= date && date <= t.endDate);
}

/** A handyman's day: working hours (null when off or away) and booked visits. */
type HandymanDay = {
  handyman: Handyman;
  hours: { start: number; end: number } | null;
  busy: ReadonlyArray<readonly [number, number]>;
};

function handymanDay(handyman: Handyman, date: IsoDate, wd: number): HandymanDay {
  const hours = isAway(handyman, date) ? null : handyman.hours[wd];
  return { handyman, hours, busy: handyman.busy.get(date) ?? [] };
}

function isFree(day: HandymanDay, start: number, end: number) {
  const { hours } = day;
  if (!hours || start < hours.start || end > hours.end) return false;
  return !day.busy.some(([s, e]) => s < end && start < e);
}

export type OfferInput = {
  now: Date;
  /** Minutes: a member's block (VISIT_BLOCKS) or a walk-thru's 45 minutes (ADR 061). */
  block: number;
  closed: ClosedDays;
  handymen: readonly Handyman[];
  /** The member's dedicated handyman: offered first, and slots with them come first. */
  dedicatedId?: string | null;
  /** Only this day (checking one booking); otherwise the whole window. */
  onlyDate?: IsoDate;
  /** Each day with its first free start only: which days have time (booking's day step). */
  firstStartOnly?: boolean;
  /** 2 for 'Two handymen' (ADR 091): only starts where two are free for the whole block. */
  handymenNeeded?: number;
};

/** The first date and minute a visit may start: one business day ahead of now. */
export function bookingHorizon(now: Date, closed: ClosedDays) {
  const { date, minute } = businessWallClock(now);
  return { date: nextBusinessDay(date, closed), minute };
}

/** The last date offered: 4 weeks from today. */
export function bookingWindowEnd(now: Date) {
  return addDays(businessToday(now), BOOKING_WINDOW_DAYS);
}

export function offerVisitSlots(input: OfferInput): OfferedDay[] {
  const { block, closed, handymen, dedicatedId } = input;
  const horizon = bookingHorizon(input.now, closed);
  const last = bookingWindowEnd(input.now);
  const ordered = [...handymen].sort((a, b) =>
    a.id === dedicatedId ? -1 : b.id === dedicatedId ? 1 : a.name.localeCompare(b.name),
  );
  const days: OfferedDay[] = [];
  const first = input.onlyDate ?? horizon.date;
  const end = input.onlyDate ?? last;
  if (first < horizon.date || end > last) return days;
  for (let date = first; date <= end; date = addDays(date, 1)) {
    if (!isBusinessDay(date, closed)) continue;
    const wd = weekday(date);
    const working = ordered.map((h) => handymanDay(h, date, wd)).filter((d) => d.hours);
    let earliest = 24 * 60;
    let latest = 0;
    for (const { hours } of working) {
      earliest = Math.min(earliest, hours!.start);
      latest = Math.max(latest, hours!.end);
    }
    earliest = Math.ceil(earliest / START_STEP_MINUTES) * START_STEP_MINUTES;
    const slots: OfferedSlot[] = [];
    for (let start = earliest; start + block <= latest; start += START_STEP_MINUTES) {
      if (date === horizon.date && start < horizon.minute) continue;
      const free = working.filter((d) => isFree(d, start, start + block)).map((d) => d.handyman);
      if (free.length < (input.handymenNeeded ?? 1)) continue;
      slots.push({
        startMinute: start,
        label: minuteLabel(start),
        handymen: free.map((h) => ({ id: h.id, name: h.name })),
        // A member without a dedicated handyman is simply offered whoever is free.
        withDedicated: !dedicatedId || free[0].id === dedicatedId,
      });
      if (input.firstStartOnly) break;
    }
    if (slots.length) days.push({ date, label: dayLabel(date), slots });
  }
  return days;
}
