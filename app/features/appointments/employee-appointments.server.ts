import { and, asc, desc, eq, gte, lt, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db, type DbOrTx } from "~/db/client.server";
import { appointments, appointmentTasks, homes, profiles } from "~/db/schema";
import type { VisitStatus } from "~/db/visit-status";

/*
 * The employee's Appointments tab: visits that were not canceled, each with its state (ADR
 * 045: booked shows 'Scheduled', then 'On the way', 'In progress', 'Completed', 'No-show').
 * Upcoming ones (from today) soonest first; past visits in their own view, newest first. Both
 * are bounded pages read through appointments_date_idx.
 */

/** As staff's requests and customers: 25 a page (ADR 077: a page's CPU sets its p95). */
export const APPOINTMENTS_PAGE_SIZE = 25;

export type EmployeeAppointment = {
  id: string;
  scheduledDate: string;
  startTime: string;
  endTime: string;
  status: VisitStatus;
  customerFirstName: string | null;
  customerLastName: string | null;
  kind: "visit" | "walk_thru";
  address: string;
  city: string;
  state: string;
  taskCount: number;
  assignedFirstName: string | null;
  assignedLastName: string | null;
  secondHandymanName: string | null;
};

export async function listEmployeeAppointments(
  options: { when: "upcoming" | "past"; today: string; page?: number },
  database: DbOrTx = db(),
): Promise<{ appointments: EmployeeAppointment[]; hasMore: boolean }> {
  const page = Math.max(1, options.page ?? 1);
  const upcoming = options.when === "upcoming";
  const assigned = alias(profiles, "assigned_profile");
  const rows = await database
    .select({
      id: appointments.id,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      status: appointments.status,
      // A walk-thru for a lead (ADR 061): the person and address as booked.
      customerFirstName: sql<
        string | null
      >`coalesce(${profiles.firstName}, case when ${profiles.lastName} is null then ${appointments.contactName} end)`,
      customerLastName: profiles.lastName,
      kind: appointments.kind,
      address: sql<string>`coalesce(${homes.address}, ${appointments.address}, '')`,
      city: sql<string>`coalesce(${homes.city}, '')`,
      state: sql<string>`coalesce(${homes.state}, '')`,
      taskCount: sql<number>`(select count(*)::int from ${appointmentTasks} where ${appointmentTasks.appointmentId} = ${appointments.id})`,
      assignedFirstName: assigned.firstName,
      assignedLastName: assigned.lastName,
      // The second handyman of a two-handymen visit (ADR 091).
      secondHandymanName: sql<
        string | null
      >`(select nullif(btrim(coalesce(s.first_name, '') || ' ' || coalesce(s.last_name, '')), '') from profiles s where s.user_id = ${appointments.secondHandymanId})`,
    })
    .from(appointments)
    .leftJoin(homes, eq(homes.id, appointments.homeId))
    .leftJoin(profiles, eq(profiles.userId, appointments.customerId))
    .leftJoin(assigned, eq(assigned.userId, appointments.assignedEmployeeId))
    .where(
      and(
        ne(appointments.status, "canceled"),
        upcoming
          ? gte(appointments.scheduledDate, options.today)
          : lt(appointments.scheduledDate, options.today),
      ),
    )
    .orderBy(
      ...(upcoming
        ? [asc(appointments.scheduledDate), asc(appointments.startTime), asc(appointments.id)]
        : [desc(appointments.scheduledDate), desc(appointments.startTime), desc(appointments.id)]),
    )
    .limit(APPOINTMENTS_PAGE_SIZE + 1)
    .offset((page - 1) * APPOINTMENTS_PAGE_SIZE);
  return {
    appointments: rows.slice(0, APPOINTMENTS_PAGE_SIZE),
    hasMore: rows.length > APPOINTMENTS_PAGE_SIZE,
  };
}
