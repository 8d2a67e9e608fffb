import { sql } from "drizzle-orm";
import { rowsOf } from "~/db/rows";
import { loadClosedDays, loadHandymen } from "~/features/availability/index.server";
import { addDays, weekday, type IsoDate } from "~/lib/business-calendar";
import { BUSY_VISIT_STATUSES } from "~/db/visit-status";
import type { ReportContext } from "./report-context.server";
import type { VisitSums } from "./hours.server";
import type { HandymanRow, HandymanWeek, OwnerReport } from "./report-types";

type Staff = Awaited<ReturnType<typeof loadHandymen>>[number];
type Day = { day: IsoDate; weekday: number; week: HandymanWeek; closed: boolean };

/**
 * Booked time per handyman and Monday-to-Sunday week, summed by the database rather than read
 * visit by visit: the visits that hold a handyman's time (ADR 046), a two-handymen visit's for
 * each of the two (ADR 091, 099).
 */
async function readBooked({ database, period }: ReportContext) {
  return rowsOf<{ employeeId: string; week: IsoDate; minutes: number }>(
    await database.execute(sql`
      select "employeeId", monday::text as week, (extract(epoch from booked) / 60)::int as minutes
      from (
        select h.id as "employeeId",
          scheduled_date - (extract(isodow from scheduled_date)::int - 1) as monday,
          sum(end_time - start_time) as booked
        from appointments
        cross join lateral (values (assigned_employee_id), (second_handyman_id)) as h(id)
        where h.id is not null
          and status in (${sql.join(
            BUSY_VISIT_STATUSES.map((status) => sql`${status}`),
            sql`, `,
          )})
          and scheduled_date >= ${period.from}::date and scheduled_date <= ${period.to}::date
        group by 1, 2
      ) b`),
  );
}

async function readHandymanIds({ database }: ReportContext) {
  const rows = rowsOf<{ id: string }>(
    await database.execute(
      sql`select user_id as id from profiles where is_employee and staff_role = 'handyman'`,
    ),
  );
  return new Set(rows.map((r) => r.id));
}

/** The period's days once, with their weekday, Monday-to-Sunday week and whether it is closed. */
function periodDays(
  { period }: ReportContext,
  isClosed: (day: IsoDate) => boolean,
): { days: Day[]; weeks: Map<IsoDate, HandymanWeek> } {
  const days: Day[] = [];
  const weeks = new Map<IsoDate, HandymanWeek>();
  let day = period.from;
  let wd = weekday(day);
  let week: HandymanWeek = {
    week: addDays(day, -((wd + 6) % 7)),
    availableMinutes: 0,
    bookedMinutes: 0,
  };
  weeks.set(week.week, week);
  for (; day <= period.to; day = addDays(day, 1), wd = (wd + 1) % 7) {
    if (wd === 1 && day !== week.week) {
      week = { week: day, availableMinutes: 0, bookedMinutes: 0 };
      weeks.set(day, week);
    }
    days.push({ day, weekday: wd, week, closed: isClosed(day) });
  }
  return { days, weeks };
}

/** One handyman's row; adds his available and booked time to the weeks'. */
function handymanRow(
  h: Staff,
  days: Day[],
  weeks: Map<IsoDate, HandymanWeek>,
  booked: { employeeId: string; week: IsoDate; minutes: number }[],
  visits: VisitSums[],
): HandymanRow {
  const row: HandymanRow = {
    id: h.id,
    name: h.name,
    availableMinutes: 0,
    bookedMinutes: 0,
    workingDays: 0,
    completedVisits: 0,
    workedMinutes: 0,
    workedBookedMinutes: 0,
  };
  for (const { day, weekday: wd, week, closed: isClosed } of days) {
    const hoursOfDay = h.hours[wd];
    if (!hoursOfDay || isClosed) continue;
    if (h.timeOff.some((t) => t.startDate <= day && t.endDate >= day)) continue;
    row.workingDays += 1;
    row.availableMinutes += hoursOfDay.end - hoursOfDay.start;
    week.availableMinutes += hoursOfDay.end - hoursOfDay.start;
  }
  for (const b of booked) {
    if (b.employeeId !== h.id) continue;
    row.bookedMinutes += Number(b.minutes);
    weeks.get(b.week)!.bookedMinutes += Number(b.minutes);
  }
  for (const v of visits) {
    if (v.employeeId !== h.id) continue;
    row.completedVisits += v.n;
    row.workedMinutes += Number(v.worked);
    row.workedBookedMinutes += Number(v.block);
  }
  return row;
}

/**
 * The handymen's utilization: each one's working, booked and worked time over the period, and
 * the weeks'. The handymen (ADR 047), and any other employee who had visits booked in the period.
 */
export async function utilizationSection(
  context: ReportContext,
  completedVisits: Promise<VisitSums[]>,
): Promise<OwnerReport["handymen"]> {
  const { database, period } = context;
  const [staff, closed, handymanIds, booked, visits] = await Promise.all([
    loadHandymen(period.from, period.to, { database, busy: false }),
    loadClosedDays(period.from, period.to, database),
    readHandymanIds(context),
    readBooked(context),
    completedVisits,
  ]);
  const bookedIds = new Set(booked.map((b) => b.employeeId));
  const handymen = staff.filter((h) => handymanIds.has(h.id) || bookedIds.has(h.id));
  if (!handymen.length) return { weeks: [], people: [] };
  const { days, weeks } = periodDays(context, (day) => closed.isClosed(day));
  const people = handymen.map((h) => handymanRow(h, days, weeks, booked, visits));
  return { weeks: [...weeks.values()], people };
}
