import { and, asc, eq, gte } from "drizzle-orm";
import { db } from "~/db/client.server";
import { employeeTimeOff, employeeWorkingHours } from "~/db/schema";
import { DATE_WINDOW, isWithinWindow, parseIsoDate, type IsoDate } from "~/lib/business-calendar";
import { CONTROL_CHARACTERS_MESSAGE, withoutControlCharacters } from "~/lib/validation";
import { DEFAULT_WORKING_HOURS, type WeeklyHours } from "./slots";

/* Staff keep their own working week and time off (Profile Settings → 'Working hours'). */

export class AvailabilityInputError extends Error {}

export async function workingWeek(employeeId: string): Promise<WeeklyHours> {
  const rows = await db()
    .select()
    .from(employeeWorkingHours)
    .where(eq(employeeWorkingHours.employeeId, employeeId));
  if (!rows.length) return DEFAULT_WORKING_HOURS;
  const week: ({ start: number; end: number } | null)[] = Array(7).fill(null);
  for (const row of rows)
    if (row.isWorking) week[row.weekday] = { start: row.startMinute, end: row.endMinute };
  return week;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
function minutes(value: FormDataEntryValue | null) {
  const match = typeof value === "string" ? TIME.exec(value) : null;
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** Reads the week form: for each weekday 0-6, works-N, start-N, end-N. */
export function parseWorkingWeek(form: FormData) {
  const days = [];
  for (let weekday = 0; weekday < 7; weekday++) {
    const isWorking = form.get(`works-${weekday}`) === "on";
    const start = minutes(form.get(`start-${weekday}`));
    const end = minutes(form.get(`end-${weekday}`));
    if (isWorking && (start === undefined || end === undefined || end <= start))
      throw new AvailabilityInputError("Each working day needs a start time before its end time.");
    days.push({ weekday, isWorking, startMinute: start ?? 480, endMinute: end ?? 1080 });
  }
  return days;
}

export async function saveWorkingWeek(employeeId: string, form: FormData) {
  const days = parseWorkingWeek(form);
  await db().transaction(async (tx) => {
    await tx.delete(employeeWorkingHours).where(eq(employeeWorkingHours.employeeId, employeeId));
    await tx.insert(employeeWorkingHours).values(
      days.map((d) => ({
        ...d,
        employeeId,
        startMinute: d.isWorking ? d.startMinute : 480,
        endMinute: d.isWorking ? d.endMinute : 1080,
      })),
    );
  });
}

export async function listTimeOff(employeeId: string, from: IsoDate) {
  return db()
    .select()
    .from(employeeTimeOff)
    .where(and(eq(employeeTimeOff.employeeId, employeeId), gte(employeeTimeOff.endDate, from)))
    .orderBy(asc(employeeTimeOff.startDate));
}

/** The time-off form: the first and last day (within the window, not over), and its note. */
export function parseTimeOff(form: FormData, today: IsoDate) {
  const start = String(form.get("startDate") ?? "");
  const end = String(form.get("endDate") ?? "") || start;
  const note = staffNote(form, 200);
  if (!parseIsoDate(start) || !parseIsoDate(end))
    throw new AvailabilityInputError("Please choose the first and last day of the time off.");
  if (end < start) throw new AvailabilityInputError("The last day cannot be before the first day.");
  if (end < today) throw new AvailabilityInputError("The time off cannot be in the past.");
  if (
    !isWithinWindow(start, today, DATE_WINDOW.schedule) ||
    !isWithinWindow(end, today, DATE_WINDOW.schedule)
  )
    throw new AvailabilityInputError(SCHEDULE_WINDOW_MESSAGE);
  return { startDate: start, endDate: end, note };
}

export async function addTimeOff(employeeId: string, form: FormData, today: IsoDate) {
  const { startDate, endDate, note } = parseTimeOff(form, today);
  await db().insert(employeeTimeOff).values({
    employeeId,
    startDate,
    endDate,
    note,
    createdBy: employeeId,
  });
}

/** The week form as the slots read it (null: not working that day). */
export function weekOfForm(form: FormData): WeeklyHours {
  return parseWorkingWeek(form).map((d) =>
    d.isWorking ? { start: d.startMinute, end: d.endMinute } : null,
  );
}

/** Closed days and time off are planned at most this far ahead (or back): ADR 039. */
export const SCHEDULE_WINDOW_MESSAGE = "Please choose dates within 2 years of today.";

/**
 * A staff note (time off, a closed day): trimmed, at most `max` characters, null when empty.
 * Control characters are refused as in every other field (PostgreSQL cannot store NUL).
 */
export function staffNote(form: FormData, max: number) {
  const value = form.get("note");
  const text = typeof value === "string" ? value : "";
  if (!withoutControlCharacters(text)) throw new AvailabilityInputError(CONTROL_CHARACTERS_MESSAGE);
  return text.trim().slice(0, max) || null;
}

/** The closed-day form: a day within the window, and its note. */
export function parseClosedDay(form: FormData, today: IsoDate) {
  const date = String(form.get("date") ?? "");
  if (!parseIsoDate(date)) throw new AvailabilityInputError("Please choose a date.");
  if (!isWithinWindow(date, today, DATE_WINDOW.schedule))
    throw new AvailabilityInputError(SCHEDULE_WINDOW_MESSAGE);
  return { date, note: staffNote(form, 100) };
}

export async function removeTimeOff(employeeId: string, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return;
  await db()
    .delete(employeeTimeOff)
    .where(and(eq(employeeTimeOff.id, id), eq(employeeTimeOff.employeeId, employeeId)));
}
