import { and, asc, eq, gte, lte, ne } from "drizzle-orm";
import { db } from "~/db/client.server";
import { appointments, homes, profiles } from "~/db/schema";
import type { VisitKind } from "~/db/lead-status";
import type { VisitStatus } from "~/db/visit-status";
import {
  addDays,
  businessToday,
  DATE_WINDOW,
  isWithinWindow,
  minuteOfDay,
  weekday,
  type IsoDate,
} from "~/lib/business-calendar";
import { loadClosedDays } from "./closed-days.server";
import { loadHandymen } from "./availability.server";
import { personName } from "~/lib/names";

/** The staff week view of one handyman: Monday to Sunday, visits as blocks, time off shaded. */
export async function handymanWeek(employeeId: string | null, weekParam: string | null) {
  const today = businessToday();
  // A real day within the window staff plan in (ADR 039); anything else is this week.
  const anchor =
    weekParam && isWithinWindow(weekParam, today, DATE_WINDOW.schedule) ? weekParam : today;
  const monday = addDays(anchor, -((weekday(anchor) + 6) % 7));
  const sunday = addDays(monday, 6);
  const [handymen, closed] = await Promise.all([
    loadHandymen(monday, sunday),
    loadClosedDays(monday, sunday),
  ]);
  const handyman = handymen.find((h) => h.id === employeeId) ?? handymen[0];
  const visits = handyman
    ? await db()
        .select({
          id: appointments.id,
          date: appointments.scheduledDate,
          startTime: appointments.startTime,
          endTime: appointments.endTime,
          status: appointments.status,
          kind: appointments.kind,
          leadId: appointments.leadId,
          firstName: profiles.firstName,
          lastName: profiles.lastName,
          contactName: appointments.contactName,
          homeAddress: homes.address,
          walkThruAddress: appointments.address,
        })
        .from(appointments)
        // A walk-thru for a lead has no home yet: its address is the one booked (ADR 061).
        .leftJoin(homes, eq(homes.id, appointments.homeId))
        .leftJoin(profiles, eq(profiles.userId, appointments.customerId))
        .where(
          and(
            eq(appointments.assignedEmployeeId, handyman.id),
            ne(appointments.status, "canceled"),
            gte(appointments.scheduledDate, monday),
            lte(appointments.scheduledDate, sunday),
          ),
        )
        .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime))
    : [];
  const days: {
    date: IsoDate;
    hours: { start: number; end: number } | null;
    away: boolean;
    closedReason: string | null;
    visits: {
      id: string;
      start: number;
      end: number;
      status: VisitStatus;
      kind: VisitKind;
      leadId: string | null;
      customer: string;
      address: string;
    }[];
  }[] = [];
  for (let i = 0; i < 7; i++) {
    const date = addDays(monday, i);
    days.push({
      date,
      hours: handyman?.hours[weekday(date)] ?? null,
      away: Boolean(handyman?.timeOff.some((t) => t.startDate <= date && date <= t.endDate)),
      closedReason: closed.reason(date) ?? null,
      visits: visits
        .filter((v) => v.date === date)
        .map((v) => ({
          id: v.id,
          start: minuteOfDay(v.startTime),
          end: minuteOfDay(v.endTime),
          status: v.status,
          kind: v.kind,
          leadId: v.leadId,
          customer: personName(v.firstName, v.lastName) || (v.contactName ?? ""),
          address: v.walkThruAddress ?? v.homeAddress ?? "",
        })),
    });
  }
  return {
    today,
    monday,
    previous: addDays(monday, -7),
    next: addDays(monday, 7),
    handymen: handymen.map((h) => ({ id: h.id, name: h.name })),
    handymanId: handyman?.id ?? null,
    days,
  };
}
