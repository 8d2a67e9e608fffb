import { and, asc, desc, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db, type Database, type DbOrTx } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { appointments, appointmentTasks, homes, profiles } from "~/db/schema";
import { OPEN_VISIT_STATUSES, type VisitStatus } from "~/db/visit-status";
import { businessToday } from "~/lib/business-calendar";
import type { AppointmentForCalendar } from "./ics.server";
import type { CustomerAppointment } from "./types";
import { personName } from "~/lib/names";

/*
 * Lists of visits, as each side reads them. The customer's: their own visits still ahead or under way (booked, on
 * the way, in progress; ADR 046), scoped by customer_id in every query (docs/design.md decision 3).
 */

const handyman = alias(profiles, "handyman");
/** The second handyman of a two-handymen visit (ADR 091), named; null for one handyman. */
const secondHandymanName = sql<
  string | null
>`(select nullif(btrim(coalesce(s.first_name, '') || ' ' || coalesce(s.last_name, '')), '') from profiles s where s.user_id = ${appointments.secondHandymanId})`;
const coveredFor = alias(profiles, "covered_for");

/**
 * Her next walk-thru still open, from today on (the first `listUpcomingAppointments` lists),
 * with only what the Membership tab says of it; null: none.
 */
export async function nextWalkThruOf(customerId: string, today = businessToday()) {
  const [row] = await db()
    .select({ scheduledDate: appointments.scheduledDate, startTime: appointments.startTime })
    .from(appointments)
    .where(
      and(
        eq(appointments.customerId, customerId),
        eq(appointments.kind, "walk_thru"),
        inArray(appointments.status, [...OPEN_VISIT_STATUSES]),
        gte(appointments.scheduledDate, today),
      ),
    )
    .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime), asc(appointments.id))
    .limit(1);
  return row ?? null;
}

/**
 * The member's open visits from a day on: the Appointments and Schedule tabs' one statement,
 * built once per database and kept prepared (their most frequent read after the session's).
 */
function prepareUpcoming(database: Database) {
  return (
    database
      .select({
        id: appointments.id,
        scheduledDate: appointments.scheduledDate,
        startTime: appointments.startTime,
        endTime: appointments.endTime,
        status: appointments.status,
        notes: appointments.notes,
        kind: appointments.kind,
        walkThruAddress: appointments.address,
        address: homes.address,
        city: homes.city,
        state: homes.state,
        zipCode: homes.zipCode,
        handymanId: handyman.userId,
        handymanFirstName: handyman.firstName,
        handymanLastName: handyman.lastName,
        handymanPhotoUrl: handyman.profilePhotoUrl,
        coveringForFirst: coveredFor.firstName,
        coveringForLast: coveredFor.lastName,
        secondHandymanName,
        // The tasks in the same query, in the order tasksOf gives them (the rows' physical order,
        // which both an index scan on appointment_id and a scan of the table return).
        tasks: sql<
          string[]
        >`coalesce((select array_agg(${appointmentTasks.taskDescription} order by ${appointmentTasks}.ctid) from ${appointmentTasks} where ${appointmentTasks.appointmentId} = ${appointments.id}), '{}'::text[])`,
      })
      .from(appointments)
      // A walk-thru booked for her as a lead (ADR 061, issue 40 item 4) has its own address.
      .leftJoin(homes, eq(homes.id, appointments.homeId))
      .leftJoin(handyman, eq(handyman.userId, appointments.assignedEmployeeId))
      .leftJoin(coveredFor, eq(coveredFor.userId, appointments.coveringForId))
      .where(
        and(
          eq(appointments.customerId, sql.placeholder("customerId")),
          inArray(appointments.status, [...OPEN_VISIT_STATUSES]),
          gte(appointments.scheduledDate, sql.placeholder("today")),
        ),
      )
      .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime), asc(appointments.id))
      .prepare("customer_upcoming_visits")
  );
}

/** Open visits from today on, soonest first, with tasks and the assigned handyman. */
export async function listUpcomingAppointments(
  customerId: string,
  today = businessToday(),
): Promise<CustomerAppointment[]> {
  const rows = await prepared("customer_upcoming_visits", prepareUpcoming).execute({
    customerId,
    today,
  });
  return rows.map((row) => ({
    id: row.id,
    scheduledDate: row.scheduledDate,
    startTime: row.startTime,
    endTime: row.endTime,
    status: row.status,
    notes: row.notes,
    kind: row.kind,
    home:
      row.kind === "walk_thru" || row.address === null
        ? { address: row.walkThruAddress ?? "", city: "", state: "", zipCode: "" }
        : {
            address: row.address,
            city: row.city ?? "",
            state: row.state ?? "",
            zipCode: row.zipCode ?? "",
          },
    tasks: row.tasks,
    handyman: row.handymanId
      ? {
          firstName: row.handymanFirstName,
          lastName: row.handymanLastName,
          photoUrl: row.handymanPhotoUrl,
          coveringFor: personName(row.coveringForFirst, row.coveringForLast) || null,
          second: row.secondHandymanName,
        }
      : null,
  }));
}

async function tasksOf(appointmentIds: string[]) {
  const byAppointment = new Map<string, string[]>();
  if (appointmentIds.length === 0) return byAppointment;
  const rows = await db()
    .select({
      appointmentId: appointmentTasks.appointmentId,
      taskDescription: appointmentTasks.taskDescription,
    })
    .from(appointmentTasks)
    // No ordinal column: rows come back in the order the tasks were inserted.
    .where(inArray(appointmentTasks.appointmentId, appointmentIds));
  for (const row of rows) {
    const list = byAppointment.get(row.appointmentId) ?? [];
    list.push(row.taskDescription);
    byAppointment.set(row.appointmentId, list);
  }
  return byAppointment;
}

/** One of the customer's appointments, shaped for the calendar file; null if not theirs. */
export async function findCustomerAppointmentForCalendar(
  customerId: string,
  appointmentId: string,
): Promise<AppointmentForCalendar | null> {
  const [row] = await db()
    .select({
      id: appointments.id,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      notes: appointments.notes,
      status: appointments.status,
      walkThruAddress: appointments.address,
      address: homes.address,
      city: homes.city,
      state: homes.state,
    })
    .from(appointments)
    .leftJoin(homes, eq(homes.id, appointments.homeId))
    .where(and(eq(appointments.id, appointmentId), eq(appointments.customerId, customerId)))
    .limit(1);
  if (!row) return null;
  const tasks = await tasksOf([row.id]);
  const { walkThruAddress, address, city, state, ...rest } = row;
  return {
    ...rest,
    address: address ?? walkThruAddress ?? "",
    city: address ? (city ?? "") : "",
    state: address ? (state ?? "") : "",
    tasks: tasks.get(row.id) ?? [],
  };
}

/*
 * Staff's: the employee's Appointments tab, visits that were not canceled, each with its state (ADR
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
      secondHandymanName,
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
