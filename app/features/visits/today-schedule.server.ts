import { and, asc, eq, gte, inArray, lte, ne, notInArray, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import {
  appointments,
  appointmentTasks,
  homes,
  membershipParts,
  profiles,
  leads,
  requestPhotos,
  serviceRequests,
  user,
} from "~/db/schema";
import type { TaskOutcome } from "~/db/visit-status";
import { formatPhone } from "~/lib/phone";
import { personName } from "~/lib/names";
import { handymanOnVisit, otherHandymanName } from "./second-handyman.server";
import {
  addDays,
  businessToday,
  longDate,
  minuteLabel,
  minuteOfDay,
  type IsoDate,
} from "~/lib/business-calendar";
import { WORK_STEP_MINUTES } from "./visit-life.server";
import type { VisitStatus } from "./visit-state";

/*
 * 'Today' (issue 26 items 9-10, ADR 047-049): what the handyman reads, his visits for a day or
 * a week with everything needed at the door. What he does from it is in today.server.ts.
 */

export type TodayView = "today" | "tomorrow" | "week";
export const TODAY_VIEWS: readonly TodayView[] = ["today", "tomorrow", "week"];

export function isTodayView(value: unknown): value is TodayView {
  return (TODAY_VIEWS as readonly unknown[]).includes(value);
}

/** The days a view covers, from the business day `today`. */
export function viewDays(view: TodayView, today: IsoDate): { from: IsoDate; to: IsoDate } {
  if (view === "tomorrow") return { from: addDays(today, 1), to: addDays(today, 1) };
  if (view === "week") return { from: today, to: addDays(today, 6) };
  return { from: today, to: today };
}

export type TodayTask = {
  id: string;
  description: string;
  requestId: string | null;
  notes: string | null;
  staffNotes: string | null;
  outcome: TaskOutcome | null;
  /** `taken`: the handyman's before or after photo on this visit; null: the member's own. */
  photos: { id: string; name: string; taken: "before" | "after" | null }[];
};

export type TodayPart = {
  id: string;
  description: string;
  costCents: number;
  status: string;
  /** A receipt photo at /part-receipts/:id. */
  hasReceipt: boolean;
};

export type TodayVisit = {
  id: string;
  date: IsoDate;
  dateLabel: string;
  startLabel: string;
  endLabel: string;
  block: number;
  status: VisitStatus;
  /** A walk-thru (ADR 061) is for a lead or customer, in the home, without tasks or hours. */
  isWalkThru: boolean;
  startedAt: string | null;
  customerName: string;
  phone: string | null;
  address: string;
  propertyNotes: string | null;
  /** The member's home, whose record (ADR 087) the handyman sees on the visit's day. */
  homeId: string | null;
  visitNotes: string | null;
  /** Booked with him while the member's dedicated handyman is away (ADR 088). */
  coveringFor: string | null;
  /** The other handyman of a two-handymen visit (ADR 091). */
  withHandyman: string | null;
  tasks: TodayTask[];
  parts: TodayPart[];
};

/**
 * A handyman's visits in the view's days, in order, with the customer's details, the tasks (with
 * their notes and photos) and the parts to buy. Four reads whatever the number of visits.
 */
export async function handymanVisits(
  handymanId: string,
  view: TodayView,
  today: IsoDate = businessToday(),
): Promise<TodayVisit[]> {
  const { from, to } = viewDays(view, today);
  const rows = await db()
    .select({
      id: appointments.id,
      date: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      status: appointments.status,
      startedAt: appointments.startedAt,
      notes: appointments.notes,
      kind: appointments.kind,
      contactName: appointments.contactName,
      contactEmail: appointments.contactEmail,
      walkThruAddress: appointments.address,
      leadPhone: leads.phone,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      email: user.email,
      mobilePhone: profiles.mobilePhone,
      address: homes.address,
      city: homes.city,
      state: homes.state,
      zipCode: homes.zipCode,
      propertyNotes: homes.propertyNotes,
      homeId: appointments.homeId,
      coveringFor: sql<
        string | null
      >`(select nullif(btrim(coalesce(c.first_name, '') || ' ' || coalesce(c.last_name, '')), '') from profiles c where c.user_id = ${appointments.coveringForId})`,
      withHandyman: otherHandymanName(handymanId),
    })
    .from(appointments)
    // A walk-thru for a lead has no account or home yet: its person and address are its own.
    .leftJoin(homes, eq(homes.id, appointments.homeId))
    .leftJoin(user, eq(user.id, appointments.customerId))
    .leftJoin(profiles, eq(profiles.userId, appointments.customerId))
    .leftJoin(leads, eq(leads.id, appointments.leadId))
    .where(
      and(
        handymanOnVisit(handymanId),
        gte(appointments.scheduledDate, from),
        lte(appointments.scheduledDate, to),
        ne(appointments.status, "canceled"),
      ),
    )
    .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime));
  if (!rows.length) return [];
  const { tasks, parts, photos } = await tasksPartsAndPhotos(rows.map((r) => r.id));
  return rows.map((r) => {
    const start = minuteOfDay(r.startTime);
    const end = minuteOfDay(r.endTime);
    return {
      id: r.id,
      date: r.date,
      dateLabel: longDate(r.date),
      startLabel: minuteLabel(start),
      endLabel: minuteLabel(end),
      block: end - start,
      status: r.status,
      isWalkThru: r.kind === "walk_thru",
      startedAt: r.startedAt?.toISOString() ?? null,
      customerName:
        personName(r.firstName, r.lastName) || r.email || r.contactName || r.contactEmail || "",
      phone: formatPhone(r.mobilePhone ?? r.leadPhone),
      address: r.address
        ? `${r.address}, ${r.city}, ${r.state} ${r.zipCode}`
        : (r.walkThruAddress ?? ""),
      propertyNotes: r.propertyNotes,
      homeId: r.kind === "visit" ? r.homeId : null,
      visitNotes: r.notes,
      coveringFor: r.coveringFor,
      withHandyman: r.withHandyman,
      tasks: tasks
        .filter((t) => t.appointmentId === r.id)
        .map((t) => ({
          id: t.id,
          description: t.description,
          requestId: t.requestId,
          notes: t.notes,
          staffNotes: t.staffNotes,
          outcome: t.outcome,
          photos: photos
            .filter((p) => p.requestId === t.requestId)
            .map((p) => ({
              id: p.id,
              name: p.name,
              taken:
                p.afterVisitId === r.id
                  ? ("after" as const)
                  : p.beforeVisitId === r.id
                    ? ("before" as const)
                    : null,
            })),
        })),
      parts: parts
        .filter((p) => p.appointmentId === r.id)
        .map((p) => ({
          id: p.id,
          description: p.description,
          costCents: p.costCents,
          status: p.status,
          hasReceipt: p.receiptPath !== null,
        })),
    };
  });
}

/** The tasks (with their notes and photos) and the parts of these visits: three reads. */
async function tasksPartsAndPhotos(ids: string[]) {
  const [tasks, parts] = await Promise.all([
    db()
      .select({
        id: appointmentTasks.id,
        appointmentId: appointmentTasks.appointmentId,
        description: appointmentTasks.taskDescription,
        requestId: appointmentTasks.serviceRequestId,
        outcome: appointmentTasks.outcome,
        notes: serviceRequests.description,
        staffNotes: serviceRequests.employeeNotes,
      })
      .from(appointmentTasks)
      .leftJoin(serviceRequests, eq(serviceRequests.id, appointmentTasks.serviceRequestId))
      .where(inArray(appointmentTasks.appointmentId, ids))
      .orderBy(asc(appointmentTasks.id)),
    db()
      .select({
        id: membershipParts.id,
        appointmentId: membershipParts.appointmentId,
        description: membershipParts.description,
        costCents: membershipParts.costCents,
        status: membershipParts.status,
        receiptPath: membershipParts.receiptPath,
      })
      .from(membershipParts)
      .where(
        and(
          inArray(membershipParts.appointmentId, ids),
          // A part removed by the office or withdrawn at a cancel is no longer the handyman's.
          notInArray(membershipParts.status, ["removed", "withdrawn"]),
        ),
      )
      .orderBy(asc(membershipParts.createdAt)),
  ]);
  const requestIds = tasks.flatMap((t) => (t.requestId ? [t.requestId] : []));
  const photos = requestIds.length
    ? await db()
        .select({
          id: requestPhotos.id,
          requestId: requestPhotos.requestId,
          name: requestPhotos.fileName,
          afterVisitId: requestPhotos.afterVisitId,
          beforeVisitId: requestPhotos.beforeVisitId,
        })
        .from(requestPhotos)
        .where(inArray(requestPhotos.requestId, requestIds))
        .orderBy(asc(requestPhotos.uploadedAt))
    : [];
  return { tasks, parts, photos };
}

/**
 * The time worked 'Finish visit' offers: from 'Start visit' to now, rounded to the bank's
 * 15-minute steps, at least one step and at most the visit's block. Without a start, the block.
 */
export function suggestedMinutes(startedAt: string | null, block: number, now = new Date()) {
  if (!startedAt) return block;
  const elapsed = (now.getTime() - new Date(startedAt).getTime()) / 60_000;
  const rounded = Math.round(elapsed / WORK_STEP_MINUTES) * WORK_STEP_MINUTES;
  return Math.min(block, Math.max(WORK_STEP_MINUTES, rounded));
}
