import { and, asc, eq, gte, lte } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { closedDays as closedDaysTable } from "~/db/schema";
import {
  addDays,
  closedDays,
  defaultClosedDays,
  type ClosedDays,
  type IsoDate,
} from "~/lib/business-calendar";

/*
 * The business calendar as staff keep it: the default closed days (business-calendar.ts) with
 * the rows of closed_days applied on top. Read per request: staff edits apply at once, on every
 * server.
 */

/** The closed days between two dates (inclusive), with staff's changes applied. */
export async function loadClosedDays(
  from: IsoDate,
  to: IsoDate,
  database: DbOrTx = db(),
): Promise<ClosedDays> {
  const overrides = await database
    .select({
      date: closedDaysTable.date,
      closed: closedDaysTable.closed,
      note: closedDaysTable.note,
    })
    .from(closedDaysTable)
    .where(and(gte(closedDaysTable.date, from), lte(closedDaysTable.date, to)));
  return closedDays(overrides);
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
  const items: ClosedDayListItem[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    for (const holiday of defaultClosedDays(year)) {
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
  const isDefault = defaultClosedDays(Number(input.date.slice(0, 4))).some(
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
