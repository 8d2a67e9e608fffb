import { and, asc, eq, gte, inArray, lte, or } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { appointments, profiles } from "~/db/schema";
import {
  businessToday,
  longDate,
  minuteLabel,
  minuteOfDay,
  weekday,
  zonedInstant,
  type IsoDate,
} from "~/lib/business-calendar";
import { loadHandymen } from "./availability.server";
import { loadClosedDays } from "./closed-days.server";
import { DEFAULT_WORKING_HOURS, type Handyman, type WeeklyHours } from "./slots";
import { personName } from "~/lib/names";

/*
 * Closures and the visits inside them (issue 26, items 4 and 5; ADR 050): which open visits a
 * closed day, time off or narrower working hours would strand, who else is free at a visit's
 * time, and what is wrong with a time staff choose (a closed day, time off, outside working
 * hours, the past), to be warned about rather than refused.
 */

/** A closure about to be saved. */
export type Closure =
  | { kind: "day"; date: IsoDate }
  /** The holidays setting: the days it would newly close (closed-days.server.ts). */
  | { kind: "days"; days: { date: IsoDate; name: string }[] }
  | { kind: "time-off"; employeeId: string; startDate: IsoDate; endDate: IsoDate }
  | { kind: "hours"; employeeId: string; week: WeeklyHours };

/** The visits a closure may strand: not yet under way. */
const STRANDABLE = ["booked", "on_the_way"] as const;

type Placed = {
  date: IsoDate;
  employeeId: string | null;
  /** A two-handymen visit's second handyman (ADR 091): his closures take the visit too. */
  secondHandymanId?: string | null;
  start: number;
  end: number;
};

/** Whether a visit at this place and time falls inside the closure (of either handyman). */
export function insideClosure(closure: Closure, visit: Placed) {
  if (closure.kind === "day") return visit.date === closure.date;
  if (closure.kind === "days") return closure.days.some((d) => d.date === visit.date);
  if (visit.employeeId !== closure.employeeId && visit.secondHandymanId !== closure.employeeId)
    return false;
  if (closure.kind === "time-off")
    return closure.startDate <= visit.date && visit.date <= closure.endDate;
  const hours = closure.week[weekday(visit.date)];
  return !hours || visit.start < hours.start || visit.end > hours.end;
}

export type StrandedVisit = {
  id: string;
  /** Null for a walk-thru booked for someone without an account (ADR 061). */
  customerId: string | null;
  customerName: string;
  date: IsoDate;
  start: number;
  end: number;
  label: string;
  employeeId: string | null;
  handymanName: string | null;
  /** A two-handymen visit's second handyman (ADR 091), named. */
  secondHandymanId: string | null;
  secondHandymanName: string | null;
  /**
   * Another handyman free for the whole visit at the same time, when there is one: in place of
   * the handyman the closure takes, the first or (his time off, his hours) the second.
   */
  freeHandyman: { id: string; name: string; replaces: "first" | "second" } | null;
};

function nameOf(p: { firstName: string | null; lastName: string | null } | undefined) {
  return p ? personName(p.firstName, p.lastName) || null : null;
}

/** "Monday, November 30, 2026, 9:00 AM to 10:45 AM" */
export function visitTimeLabel(date: IsoDate, start: number, end: number) {
  return `${longDate(date)}, ${minuteLabel(start)} to ${minuteLabel(end)}`;
}

/**
 * The open visits (booked or on the way, from today) inside the closure, in time order, each
 * with another handyman free at its time if there is one (never on a closed day).
 */
export async function visitsInClosure(
  closure: Closure,
  options: { now?: Date; database?: DbOrTx } = {},
): Promise<StrandedVisit[]> {
  const database = options.database ?? db();
  const today = businessToday(options.now);
  const conditions = [
    inArray(appointments.status, [...STRANDABLE]),
    gte(appointments.scheduledDate, today),
  ];
  if (closure.kind === "day") conditions.push(eq(appointments.scheduledDate, closure.date));
  else if (closure.kind === "days") {
    if (!closure.days.length) return [];
    conditions.push(
      inArray(
        appointments.scheduledDate,
        closure.days.map((d) => d.date),
      ),
    );
  } else {
    // The visits he works, as the first handyman or the second (ADR 091).
    conditions.push(
      or(
        eq(appointments.assignedEmployeeId, closure.employeeId),
        eq(appointments.secondHandymanId, closure.employeeId),
      )!,
    );
    if (closure.kind === "time-off")
      conditions.push(
        gte(appointments.scheduledDate, closure.startDate),
        lte(appointments.scheduledDate, closure.endDate),
      );
  }
  const rows = await database
    .select({
      id: appointments.id,
      customerId: appointments.customerId,
      date: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      employeeId: appointments.assignedEmployeeId,
      secondHandymanId: appointments.secondHandymanId,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      contactName: appointments.contactName,
    })
    .from(appointments)
    .leftJoin(profiles, eq(profiles.userId, appointments.customerId))
    .where(and(...conditions))
    .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime));
  const inside = rows
    .map((r) => ({ ...r, start: minuteOfDay(r.startTime), end: minuteOfDay(r.endTime) }))
    .filter((r) => insideClosure(closure, r));
  if (!inside.length) return [];
  const from = inside[0].date;
  const to = inside[inside.length - 1].date;
  const [handymen, closed] = await Promise.all([
    loadHandymen(from, to, { database }),
    loadClosedDays(from, to, database),
  ]);
  // Proposals are made one after another: a handyman proposed for one visit is busy for the next.
  const taken = new Map<string, [IsoDate, number, number][]>();
  return inside.map((visit) => {
    const current = handymen.find((h) => h.id === visit.employeeId);
    const second = handymen.find((h) => h.id === visit.secondHandymanId);
    let freeHandyman: StrandedVisit["freeHandyman"] = null;
    // A closed day closes it for every handyman: nobody else is free then.
    if (closure.kind !== "day" && closure.kind !== "days" && !closed.isClosed(visit.date)) {
      const other = handymen.find((h) => {
        if (h.id === visit.employeeId || h.id === visit.secondHandymanId) return false;
        const hours = h.hours[weekday(visit.date)];
        if (!hours || visit.start < hours.start || visit.end > hours.end) return false;
        if (h.timeOff.some((t) => t.startDate <= visit.date && visit.date <= t.endDate))
          return false;
        const overlaps = ([s, e]: readonly [number, number]) => s < visit.end && visit.start < e;
        if ((h.busy.get(visit.date) ?? []).some(overlaps)) return false;
        return !(taken.get(h.id) ?? []).some(([d, s, e]) => d === visit.date && overlaps([s, e]));
      });
      if (other) {
        const replaces = closure.employeeId === visit.secondHandymanId ? "second" : "first";
        freeHandyman = { id: other.id, name: other.name, replaces };
        taken.set(other.id, [...(taken.get(other.id) ?? []), [visit.date, visit.start, visit.end]]);
      }
    }
    return {
      id: visit.id,
      customerId: visit.customerId,
      customerName: nameOf(visit) ?? visit.contactName ?? "A member",
      date: visit.date,
      start: visit.start,
      end: visit.end,
      label: visitTimeLabel(visit.date, visit.start, visit.end),
      employeeId: visit.employeeId,
      handymanName: current?.name ?? null,
      secondHandymanId: visit.secondHandymanId,
      secondHandymanName: second?.name ?? null,
      freeHandyman,
    };
  });
}

/** '3 visits are booked in that time', '1 visit is booked in that time'. */
export function strandedHeadline(count: number) {
  return count === 1 ? "1 visit is booked in that time" : `${count} visits are booked in that time`;
}

export const PAST_WARNING = "This time has already passed.";

const WEEKDAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
];

/**
 * What is wrong with a time staff choose for a visit (ADR 050), each worded to be shown before
 * 'Book anyway': a closed day, the handyman's time off, outside their working hours (the
 * business's hours for an unassigned visit), a start already past; and with two handymen, the
 * second one's time off and working hours too (ADR 099). Empty: nothing is wrong.
 */
export async function staffBookingWarnings(
  input: {
    date: IsoDate;
    start: number;
    end: number;
    employeeId?: string | null;
    secondHandymanId?: string | null;
    excludeAppointmentId?: string;
  },
  options: { now?: Date; database?: DbOrTx } = {},
): Promise<string[]> {
  const database = options.database ?? db();
  const now = options.now ?? new Date();
  const warnings: string[] = [];
  const [closed, handymen] = await Promise.all([
    loadClosedDays(input.date, input.date, database),
    input.employeeId || input.secondHandymanId
      ? loadHandymen(input.date, input.date, { database, busy: false })
      : [],
  ]);
  const reason = closed.reason(input.date);
  if (reason) warnings.push(`${longDate(input.date)} is a closed day (${reason}).`);
  const handyman = input.employeeId ? handymen.find((h) => h.id === input.employeeId) : undefined;
  warnings.push(...hoursWarnings(input, handyman));
  const second = input.secondHandymanId
    ? handymen.find((h) => h.id === input.secondHandymanId)
    : undefined;
  if (second) warnings.push(...hoursWarnings(input, second));
  if (zonedInstant(input.date, input.start).getTime() <= now.getTime()) warnings.push(PAST_WARNING);
  return warnings;
}

/**
 * One handyman's time off and working hours at the time, without the day's own warnings (a
 * closed day, the past): what staff's Create Appointment adds for the second handyman.
 */
export async function handymanWarnings(
  input: { date: IsoDate; start: number; end: number },
  employeeId: string,
  options: { database?: DbOrTx } = {},
) {
  const handymen = await loadHandymen(input.date, input.date, {
    database: options.database ?? db(),
    busy: false,
  });
  const handyman = handymen.find((h) => h.id === employeeId);
  return handyman ? hoursWarnings(input, handyman) : [];
}

/** The handyman's time off and working hours at the time (the business's hours for nobody). */
function hoursWarnings(
  input: { date: IsoDate; start: number; end: number },
  handyman: Handyman | undefined,
) {
  const warnings: string[] = [];
  const who = handyman ? handyman.name : "the business";
  const week = handyman?.hours ?? DEFAULT_WORKING_HOURS;
  if (handyman?.timeOff.some((t) => t.startDate <= input.date && input.date <= t.endDate))
    warnings.push(`${handyman.name} has time off on ${longDate(input.date)}.`);
  const hours = week[weekday(input.date)];
  const day = WEEKDAY_NAMES[weekday(input.date)];
  if (!hours)
    warnings.push(
      handyman ? `${who} does not work on ${day}s.` : `The business is closed on ${day}s.`,
    );
  else if (input.start < hours.start || input.end > hours.end)
    warnings.push(
      `${minuteLabel(input.start)} to ${minuteLabel(input.end)} is outside ${handyman ? `${who}'s working hours` : "business hours"} on ${day}s (${minuteLabel(hours.start)} to ${minuteLabel(hours.end)}).`,
    );
  return warnings;
}
