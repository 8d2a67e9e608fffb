import { and, desc, eq, gte, inArray, lte, ne, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { rowsOf } from "~/db/rows";
import { appointments, employeeTimeOff, employeeWorkingHours, profiles } from "~/db/schema";
import { BUSY_VISIT_STATUSES } from "~/db/visit-status";
import { businessToday, type IsoDate } from "~/lib/business-calendar";
import { loadClosedDays } from "./closed-days.server";
import {
  DEFAULT_WORKING_HOURS,
  bookingWindowEnd,
  offerVisitSlots,
  type Handyman,
  type OfferedDay,
  type VisitBlock,
  type WeeklyHours,
} from "./slots";
import { personName } from "~/lib/names";

/*
 * The handymen's real availability, read from the database for the slot offering: every
 * employee's week (or the default week), time off and approved visits over the window.
 */

function weekFrom(
  rows: { weekday: number; isWorking: boolean; startMinute: number; endMinute: number }[],
): WeeklyHours {
  if (!rows.length) return DEFAULT_WORKING_HOURS;
  const week: ({ start: number; end: number } | null)[] = [
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  ];
  for (const row of rows) {
    if (row.isWorking) week[row.weekday] = { start: row.startMinute, end: row.endMinute };
  }
  return week;
}

export async function loadHandymen(
  from: IsoDate,
  to: IsoDate,
  /** `busy: false` leaves each handyman's booked visits out (`busy` stays empty). */
  options: { excludeAppointmentId?: string; database?: DbOrTx; busy?: boolean } = {},
): Promise<Handyman[]> {
  const database = options.database ?? db();
  const staff = await database
    .select({ id: profiles.userId, firstName: profiles.firstName, lastName: profiles.lastName })
    .from(profiles)
    .where(eq(profiles.isEmployee, true));
  if (!staff.length) return [];
  const ids = staff.map((s) => s.id);
  const [hours, timeOff, visits] = await Promise.all([
    database
      .select()
      .from(employeeWorkingHours)
      .where(inArray(employeeWorkingHours.employeeId, ids)),
    database
      .select()
      .from(employeeTimeOff)
      .where(and(lte(employeeTimeOff.startDate, to), gte(employeeTimeOff.endDate, from))),
    // Each handyman's booked visits as one JSON array of [date, start, end] (minutes), not a
    // row each: four weeks of a business's visits are hundreds of rows (ADR 077).
    options.busy === false
      ? []
      : database
          .execute(
            // A visit holds its second handyman's time too (ADR 091).
            sql`select handyman.id as "employeeId",
                  json_agg(json_build_array(
                    ${appointments.scheduledDate}::text,
                    (extract(epoch from ${appointments.startTime}) / 60)::int,
                    (extract(epoch from ${appointments.endTime}) / 60)::int)) as busy
                from ${appointments}
                cross join lateral (values (${appointments.assignedEmployeeId}),
                  (${appointments.secondHandymanId})) as handyman(id)
                where ${and(
                  sql`handyman.id is not null`,
                  // The visits that hold their handyman's time, as the exclusion constraint
                  // counts them.
                  inArray(appointments.status, [...BUSY_VISIT_STATUSES]),
                  gte(appointments.scheduledDate, from),
                  lte(appointments.scheduledDate, to),
                  options.excludeAppointmentId
                    ? ne(appointments.id, options.excludeAppointmentId)
                    : sql`true`,
                )}
                group by 1`,
          )
          .then((result) =>
            rowsOf<{ employeeId: string; busy: [IsoDate, number, number][] }>(result),
          ),
  ]);
  return staff.map((s) => {
    const busy = new Map<IsoDate, [number, number][]>();
    for (const [date, start, end] of visits.find((v) => v.employeeId === s.id)?.busy ?? []) {
      const list = busy.get(date) ?? [];
      list.push([start, end]);
      busy.set(date, list);
    }
    return {
      id: s.id,
      name: personName(s.firstName, s.lastName) || "Handyman",
      hours: weekFrom(hours.filter((h) => h.employeeId === s.id)),
      timeOff: timeOff.filter((t) => t.employeeId === s.id),
      busy,
    };
  });
}

/**
 * The member's dedicated handyman: the one office staff set on her profile (ADR 088); for a
 * member without one, the one assigned to her most recent visit (ADR 017). Undefined for a
 * member who has neither.
 */
export async function dedicatedHandymanId(customerId: string, database: DbOrTx = db()) {
  const [set] = await database
    .select({ id: profiles.dedicatedHandymanId })
    .from(profiles)
    .where(eq(profiles.userId, customerId));
  if (set?.id) return set.id;
  const [row] = await database
    .select({ id: appointments.assignedEmployeeId })
    .from(appointments)
    .innerJoin(profiles, eq(profiles.userId, appointments.assignedEmployeeId))
    .where(and(eq(appointments.customerId, customerId), eq(profiles.isEmployee, true)))
    .orderBy(desc(appointments.scheduledDate), desc(appointments.startTime))
    .limit(1);
  return row?.id ?? undefined;
}

/**
 * What an offer is computed from: the closed days, every handyman's week, time off and booked
 * visits over the booking window, and the member's dedicated handyman. A request that makes
 * several offers reads it once and hands it to each (`offerVisits`'s `context`): the booking's
 * away rule and its step (ADR 107).
 */
export type OfferContext = {
  now: Date;
  closed: Awaited<ReturnType<typeof loadClosedDays>>;
  handymen: Handyman[];
  dedicatedId: string | undefined;
};

/** The offer's context over the booking window from `now` (every handyman's whole window). */
export async function loadOfferContext(input: {
  customerId: string | null;
  now?: Date;
  database?: DbOrTx;
  onlyDate?: IsoDate;
  excludeAppointmentId?: string;
}): Promise<OfferContext> {
  const now = input.now ?? new Date();
  const database = input.database ?? db();
  const from = businessToday(now);
  const to = bookingWindowEnd(now);
  const [closed, handymen, dedicatedId] = await Promise.all([
    loadClosedDays(from, to, database),
    loadHandymen(input.onlyDate ?? from, input.onlyDate ?? to, {
      excludeAppointmentId: input.excludeAppointmentId,
      database,
    }),
    input.customerId ? dedicatedHandymanId(input.customerId, database) : undefined,
  ]);
  return { now, closed, handymen, dedicatedId };
}

/** The days and starts a member can book for `block`, their dedicated handyman first. */
export async function offerVisits(input: {
  /** The member whose dedicated handyman comes first; none for a walk-thru for a lead. */
  customerId: string | null;
  block: VisitBlock | number;
  now?: Date;
  onlyDate?: IsoDate;
  /** Each day with its first free start only (which days have time). */
  firstStartOnly?: boolean;
  excludeAppointmentId?: string;
  database?: DbOrTx;
  /** Only these handymen's times ('Wait for Dana', 'Book with Sam': ADR 088). */
  employeeIds?: string[];
  /** 2 for 'Two handymen' (ADR 091); with `employeeIds`, they are the first of the two. */
  handymenNeeded?: number;
  /**
   * The context this request has read already (`loadOfferContext` for the same member, over
   * the whole window, no visit excluded); read here when absent.
   */
  context?: OfferContext;
}): Promise<{ days: OfferedDay[]; dedicatedId: string | undefined }> {
  const { now, closed, handymen, dedicatedId } =
    input.context ??
    (await loadOfferContext({
      customerId: input.customerId,
      now: input.now,
      database: input.database,
      onlyDate: input.onlyDate,
      excludeAppointmentId: input.excludeAppointmentId,
    }));
  const needed = input.handymenNeeded ?? 1;
  if (needed > 1 && input.employeeIds)
    return { days: withFirst(input, now, closed, handymen, needed), dedicatedId };
  const days = offerVisitSlots({
    now,
    block: input.block,
    closed,
    handymen: input.employeeIds
      ? handymen.filter((h) => input.employeeIds!.includes(h.id))
      : handymen,
    dedicatedId,
    onlyDate: input.onlyDate,
    firstStartOnly: input.firstStartOnly,
    handymenNeeded: needed,
  });
  return { days, dedicatedId };
}

/**
 * Two handymen with one of them chosen ('Wait for Dana', 'Book with Sam'): the starts where he
 * and another are free, he first (ADR 091).
 */
function withFirst(
  input: { block: number; onlyDate?: IsoDate; firstStartOnly?: boolean; employeeIds?: string[] },
  now: Date,
  closed: Awaited<ReturnType<typeof loadClosedDays>>,
  handymen: Handyman[],
  needed: number,
): OfferedDay[] {
  const firstIds = input.employeeIds ?? [];
  const days = offerVisitSlots({
    now,
    block: input.block,
    closed,
    handymen,
    dedicatedId: firstIds[0],
    onlyDate: input.onlyDate,
    handymenNeeded: needed,
  });
  return days
    .map((day) => {
      const slots = day.slots.filter((slot) => firstIds.includes(slot.handymen[0].id));
      return { ...day, slots: input.firstStartOnly ? slots.slice(0, 1) : slots };
    })
    .filter((day) => day.slots.length);
}
