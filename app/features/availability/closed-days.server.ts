import { and, asc, eq, gte, lte, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { closedDays as closedDaysTable, holidayClosings } from "~/db/schema";
import {
  addDays,
  closedDays,
  DEFAULT_HOLIDAYS,
  defaultClosedDays,
  isHolidayKey,
  type ClosedDays,
  type HolidayKey,
  type IsoDate,
} from "~/lib/business-calendar";

/*
 * The business calendar as staff keep it: the default closed days (business-calendar.ts) with
 * the rows of closed_days applied on top. Read per request: staff edits apply at once, on every
 * server.
 */

/** The holidays the owner keeps open (every other default holiday is closed). */
export async function openHolidays(database: DbOrTx = db()): Promise<Set<HolidayKey>> {
  const rows = await database
    .select({ holiday: holidayClosings.holiday })
    .from(holidayClosings)
    .where(eq(holidayClosings.closed, false));
  return new Set(rows.map((r) => r.holiday).filter(isHolidayKey));
}

function loadOverrides(from: IsoDate, to: IsoDate, database: DbOrTx) {
  return database
    .select({
      date: closedDaysTable.date,
      closed: closedDaysTable.closed,
      note: closedDaysTable.note,
    })
    .from(closedDaysTable)
    .where(and(gte(closedDaysTable.date, from), lte(closedDaysTable.date, to)));
}

/** The closed days between two dates (inclusive), with the owner's and staff's changes. */
export async function loadClosedDays(
  from: IsoDate,
  to: IsoDate,
  database: DbOrTx = db(),
): Promise<ClosedDays> {
  const [overrides, open] = await Promise.all([
    loadOverrides(from, to, database),
    openHolidays(database),
  ]);
  return closedDays(overrides, open);
}

/**
 * The days from `from` to `to` that saving the holidays setting with `closed` would close and
 * that are open now (a holiday kept open until now; a date staff reopened stays open, its row
 * being on top either way): the closure the setting would make (issue 26, item 4).
 */
export async function daysClosedByHolidaySettings(
  closed: ReadonlySet<HolidayKey>,
  from: IsoDate,
  to: IsoDate,
  database: DbOrTx = db(),
): Promise<{ date: IsoDate; name: string }[]> {
  const [overrides, open] = await Promise.all([
    loadOverrides(from, to, database),
    openHolidays(database),
  ]);
  const now = closedDays(overrides, open);
  const keptOpen = new Set(DEFAULT_HOLIDAYS.map((h) => h.key).filter((k) => !closed.has(k)));
  const then = closedDays(overrides, keptOpen);
  const days: { date: IsoDate; name: string }[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const holiday of defaultClosedDays(year)) {
      if (holiday.date < from || holiday.date > to || !closed.has(holiday.key)) continue;
      if (then.isClosed(holiday.date) && !now.isClosed(holiday.date))
        days.push({ date: holiday.date, name: holiday.name });
    }
  }
  return days.sort((a, b) => a.date.localeCompare(b.date));
}

/** The holidays setting as the closed-days page shows it: each default holiday, closed or not. */
export async function holidaySettings(): Promise<
  { key: HolidayKey; name: string; closed: boolean }[]
> {
  const open = await openHolidays();
  return DEFAULT_HOLIDAYS.map((h) => ({ key: h.key, name: h.name, closed: !open.has(h.key) }));
}

/**
 * Saves which holidays the business closes on: those in `closed`, every other one kept open.
 * One row per holiday, written together.
 */
export async function saveHolidaySettings(closed: ReadonlySet<HolidayKey>, staffId: string) {
  await db()
    .insert(holidayClosings)
    .values(
      DEFAULT_HOLIDAYS.map((h) => ({
        holiday: h.key,
        closed: closed.has(h.key),
        updatedBy: staffId,
      })),
    )
    .onConflictDoUpdate({
      target: holidayClosings.holiday,
      set: {
        closed: sql`excluded.closed`,
        updatedBy: staffId,
        updatedAt: new Date(),
      },
    });
}

export type ClosedDayListItem = {
  date: IsoDate;
  name: string;
  /** default: a holiday by rule; added: closed by staff; reopened: a default staff opened. */
  kind: "default" | "added" | "reopened";
};

/** The settings panel's list: every default and staff change from `from` over `days` days. */
export async function listClosedDays(from: IsoDate, days = 400): Promise<ClosedDayListItem[]> {
  const to = addDays(from, days);
  const overrides = await db()
    .select()
    .from(closedDaysTable)
    .where(and(gte(closedDaysTable.date, from), lte(closedDaysTable.date, to)))
    .orderBy(asc(closedDaysTable.date));
  const byDate = new Map(overrides.map((o) => [o.date, o]));
  const open = await openHolidays();
  const items: ClosedDayListItem[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const holiday of defaultClosedDays(year, open)) {
      if (holiday.date < from || holiday.date > to) continue;
      const override = byDate.get(holiday.date);
      items.push({
        date: holiday.date,
        name: override?.closed ? override.note || holiday.name : holiday.name,
        kind: override && !override.closed ? "reopened" : "default",
      });
      byDate.delete(holiday.date);
    }
  }
  for (const override of byDate.values()) {
    if (override.closed)
      items.push({ date: override.date, name: override.note || "Closed", kind: "added" });
  }
  return items.sort((a, b) => a.date.localeCompare(b.date));
}

/** Closes a day (with a note shown to staff) or reopens it; idempotent. */
export async function setClosedDay(
  input: { date: IsoDate; closed: boolean; note?: string | null },
  staffId: string,
) {
  const isDefault = defaultClosedDays(Number(input.date.slice(0, 4)), await openHolidays()).some(
    (h) => h.date === input.date,
  );
  // Reopening an extra day, or closing a default one again, is the default: no row needed.
  if (input.closed === isDefault && !(input.closed && input.note)) {
    await db().delete(closedDaysTable).where(eq(closedDaysTable.date, input.date));
    return;
  }
  await db()
    .insert(closedDaysTable)
    .values({
      date: input.date,
      closed: input.closed,
      note: input.note ?? null,
      updatedBy: staffId,
    })
    .onConflictDoUpdate({
      target: closedDaysTable.date,
      set: {
        closed: input.closed,
        note: input.note ?? null,
        updatedBy: staffId,
        updatedAt: new Date(),
      },
    });
}
