import { and, eq, inArray, ne } from "drizzle-orm";
import { db, type Tx } from "~/db/client.server";
import { appointments, appointmentTasks, homes, profiles, serviceRequests } from "~/db/schema";
import { DOUBLE_BOOKING_MESSAGE, isDoubleBooking, type VisitBlock } from "~/features/availability";
import { offerVisits } from "~/features/availability/index.server";
import {
  chargeSecondHandyman,
  reserveVisitMinutes,
  VisitSpendRefusedError,
} from "~/features/memberships/index.server";
import { addTaskRequests, setRequestStatus } from "~/features/service-requests/index.server";
import { businessToday, timeOfDay, type IsoDate } from "~/lib/business-calendar";
import { recordOverride } from "./overrides.server";
import { secondHandymanOf } from "./second-handyman.server";
import { startVisitCalendar } from "./visit-calendar.server";
import {
  MEMBERS_ONLY_MESSAGE,
  REQUEST_BOOKED_MESSAGE,
  SLOT_TAKEN_MESSAGE,
  SLOT_UNAVAILABLE_MESSAGE,
  VisitRejectedError,
} from "./visit-errors";
import { lockHomeForBooking } from "./visit-lock.server";
import { mailVisitBooked } from "./visit-mail.server";

/*
 * Every visit is created here (ADR 094): the member's booking from the Schedule tab, staff's
 * Create Appointment and the walk-thru all call createVisit, their differences as options. One
 * transaction: the home's lock (visit-lock.server.ts), the appointment, its tasks (a typed one
 * becomes a request), the requests moved to Scheduled, the hours bank, and the confirmation
 * (visit-mail.server.ts) with the reminder (visit-calendar.server.ts). The database refuses a
 * handyman two overlapping visits (ADR 016) and a request on two open visits (migration 0008).
 */

export const FIRST_VISIT_TASK_LIMIT = 3;

/** Whether this is the member's first visit: no visit of theirs, past or future, holds. */
export async function isFirstVisit(
  customerId: string,
  database: Tx | ReturnType<typeof db> = db(),
) {
  const [row] = await database
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.customerId, customerId), ne(appointments.status, "canceled")))
    .limit(1);
  return !row;
}

/** The unique index that holds a request to one open visit (migration 0008). */
export function isRequestOnAnotherVisit(error: unknown): boolean {
  let current: unknown = error;
  while (current && typeof current === "object") {
    const e = current as { code?: string; constraint?: string };
    if (e.code === "23505" && e.constraint === "appointment_tasks_one_open_visit_per_request")
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The handyman free at an offered start (the one asked for, or the first): else refused. */
export async function checkSlot(input: {
  customerId: string | null;
  block: VisitBlock | number;
  date: IsoDate;
  startMinute: number;
  employeeId?: string;
  now: Date;
  excludeAppointmentId?: string;
  /** 'Two handymen' (ADR 091): the start must have two free; the second is returned. */
  twoHandymen?: boolean;
}) {
  const { days } = await offerVisits({
    customerId: input.customerId,
    block: input.block as VisitBlock,
    now: input.now,
    onlyDate: input.date,
    excludeAppointmentId: input.excludeAppointmentId,
    handymenNeeded: input.twoHandymen ? 2 : 1,
  });
  const slot = days[0]?.slots.find((s) => s.startMinute === input.startMinute);
  const handyman = input.employeeId
    ? slot?.handymen.find((h) => h.id === input.employeeId)
    : slot?.handymen[0];
  if (!handyman) throw new VisitRejectedError(SLOT_UNAVAILABLE_MESSAGE);
  return { ...handyman, second: input.twoHandymen ? secondHandymanOf(slot!, handyman.id) : null };
}

/** The visit to write: where, when, with whom and its tasks. */
export type VisitToCreate = {
  customerId: string | null;
  homeId: string | null;
  assignedEmployeeId: string | null;
  /** 'Two handymen' (ADR 091): the second one, charged his fee with the booking. */
  secondHandymanId?: string | null;
  scheduledDate: string;
  startTime: string;
  endTime: string;
  notes?: string | null;
  /**
   * A task picked from the member's requests keeps its request (and its title, unless given
   * another description); a typed one becomes a request of the member's (issue 40 item 2).
   */
  tasks: { description?: string; serviceRequestId?: string }[];
  /** A walk-thru (ADR 061): the person's lead, name, e-mail and address; no hours, no tasks. */
  walkThru?: { leadId: string; contactName: string; contactEmail: string; address: string };
};

export type CreateVisitOptions = {
  /** Who books: the member (their own words, and the first visit's task limit) or staff. */
  bookedBy: "member" | "staff";
  /** The account writing it (appointments.created_by). */
  actorId: string;
  /** An offered start ('That time was just taken') or any time staff chose (ADR 050). */
  time: "offered" | "chosen";
  now?: Date;
  /** Staff's checks of the customer, home and handyman, under the home's lock. */
  check?: (tx: Tx) => Promise<void>;
  /** Booked with another than the member's dedicated handyman: he covers (ADR 088). */
  coverDedicated?: boolean;
  /** The hours bank takes the block (or charges an extra visit); members only: refused else. */
  bank?: { asExtra?: boolean; today?: IsoDate; membersOnly?: boolean };
  /** The warnings staff booked anyway, kept with their name (ADR 050). */
  override?: { warnings: string[]; reason?: string | null };
  /**
   * What the booking says, in its transaction: by default the member's 'Your visit is booked'
   * e-mail and text, and the reminder; a walk-thru says its own.
   */
  confirm?: (tx: Tx, visit: typeof appointments.$inferSelect) => Promise<void>;
};

/**
 * Creates a visit in one transaction (see above). Throws VisitRejectedError with the reason,
 * worded for who books, when it cannot be: nothing is written then.
 */
export async function createVisit(visit: VisitToCreate, options: CreateVisitOptions) {
  try {
    return await db().transaction(async (tx) => {
      await lockHomeForBooking(tx, visit.homeId);
      await options.check?.(tx);
      const titles = await checkTasks(tx, visit, options);
      const [row] = await tx
        .insert(appointments)
        .values({
          kind: visit.walkThru ? "walk_thru" : "visit",
          customerId: visit.customerId,
          homeId: visit.homeId,
          leadId: visit.walkThru?.leadId,
          contactName: visit.walkThru?.contactName,
          contactEmail: visit.walkThru?.contactEmail,
          address: visit.walkThru?.address,
          assignedEmployeeId: visit.assignedEmployeeId,
          secondHandymanId: visit.secondHandymanId ?? null,
          coveringForId: options.coverDedicated ? await dedicatedCover(tx, visit) : null,
          scheduledDate: visit.scheduledDate,
          startTime: visit.startTime,
          endTime: visit.endTime,
          notes: visit.notes ?? null,
          status: "booked",
          createdBy: options.actorId,
        })
        .returning();
      if (options.override?.warnings.length)
        await recordOverride(tx, {
          appointmentId: row.id,
          staffId: options.actorId,
          action: "book",
          warnings: options.override.warnings,
          reason: options.override.reason,
        });
      await writeTasks(tx, row, visit.tasks, titles);
      if (options.bank) await spendHours(tx, row.id, options.actorId, options.bank);
      // Two handymen: the fee, once, with the booking (ADR 091).
      if (row.secondHandymanId) await chargeSecondHandyman(tx, row.id, options.actorId);
      if (options.confirm) await options.confirm(tx, row);
      else {
        await mailVisitBooked(tx, row);
        // The reminder 24 hours before, and the calendar's SEQUENCE for later moves (ADR 017).
        await startVisitCalendar(tx, row, options.now ?? new Date());
      }
      return row;
    });
  } catch (error) {
    if (isDoubleBooking(error))
      throw new VisitRejectedError(
        options.time === "offered" ? SLOT_TAKEN_MESSAGE : DOUBLE_BOOKING_MESSAGE,
      );
    if (isRequestOnAnotherVisit(error)) throw new VisitRejectedError(REQUEST_BOOKED_MESSAGE);
    throw error;
  }
}

/**
 * The chosen requests, checked under the home's lock: open requests of this member, none on
 * another upcoming visit (shown, not offered: issue 40 item 3; a race is the unique index's),
 * and a member's first visit of at most three. Returns their titles by id.
 */
async function checkTasks(tx: Tx, visit: VisitToCreate, options: CreateVisitOptions) {
  const linked = [
    ...new Set(visit.tasks.flatMap((t) => (t.serviceRequestId ? [t.serviceRequestId] : []))),
  ];
  const titles = new Map<string, string>();
  if (!linked.length || !visit.customerId) return titles;
  const requests = await tx
    .select({ id: serviceRequests.id, title: serviceRequests.title })
    .from(serviceRequests)
    .where(
      and(
        eq(serviceRequests.customerId, visit.customerId),
        inArray(serviceRequests.id, linked),
        ne(serviceRequests.status, "complete"),
      ),
    );
  if (requests.length !== linked.length)
    throw new VisitRejectedError(
      options.bookedBy === "member"
        ? "A chosen task is not one of your open requests."
        : "A chosen task is not one of this customer's requests",
    );
  const held = await tx
    .select({ id: appointmentTasks.id })
    .from(appointmentTasks)
    .where(
      and(inArray(appointmentTasks.serviceRequestId, linked), eq(appointmentTasks.visitOpen, true)),
    )
    .limit(1);
  if (held.length) throw new VisitRejectedError(REQUEST_BOOKED_MESSAGE);
  if (
    options.bookedBy === "member" &&
    requests.length > FIRST_VISIT_TASK_LIMIT &&
    (await isFirstVisit(visit.customerId, tx))
  )
    throw new VisitRejectedError(
      `Your first visit can take at most ${FIRST_VISIT_TASK_LIMIT} tasks.`,
    );
  for (const r of requests) titles.set(r.id, r.title);
  return titles;
}

/** The member's dedicated handyman when another than hers is booked (ADR 088); else null. */
async function dedicatedCover(tx: Tx, visit: VisitToCreate) {
  if (!visit.customerId) return null;
  const [her] = await tx
    .select({ dedicated: profiles.dedicatedHandymanId })
    .from(profiles)
    .where(eq(profiles.userId, visit.customerId));
  return her?.dedicated && her.dedicated !== visit.assignedEmployeeId ? her.dedicated : null;
}

/** The visit's tasks, in the order given; their requests move to Scheduled. */
async function writeTasks(
  tx: Tx,
  visit: { id: string; customerId: string | null; homeId: string | null },
  tasks: VisitToCreate["tasks"],
  titles: Map<string, string>,
) {
  if (!tasks.length || !visit.customerId || !visit.homeId) return;
  const typedTasks = tasks.filter((t) => !t.serviceRequestId).map((t) => t.description ?? "");
  const typed = typedTasks.length
    ? await addTaskRequests(tx, {
        customerId: visit.customerId,
        homeId: visit.homeId,
        tasks: typedTasks,
      })
    : [];
  await tx.insert(appointmentTasks).values(
    tasks.map((task) => ({
      appointmentId: visit.id,
      taskDescription: task.description ?? titles.get(task.serviceRequestId!)!,
      serviceRequestId: task.serviceRequestId ?? typed.shift()!,
    })),
  );
  await setRequestStatus(tx, [...titles.keys()], "scheduled", {
    customerId: visit.customerId,
    notFrom: "complete",
  });
}

/**
 * A member's visit takes its block from the hours bank (or is an extra visit), in this
 * transaction: refused, nothing is written. A customer without a membership spends nothing,
 * unless members only may book (the member's own booking).
 */
async function spendHours(
  tx: Tx,
  appointmentId: string,
  actorId: string,
  bank: NonNullable<CreateVisitOptions["bank"]>,
) {
  const reserved = await reserveVisitMinutes(tx, appointmentId, {
    actorId,
    ...(bank.today ? { today: bank.today } : {}),
    asExtra: bank.asExtra,
  }).catch((error: unknown) => {
    if (error instanceof VisitSpendRefusedError) throw new VisitRejectedError(error.message);
    throw error;
  });
  if (!reserved && bank.membersOnly) throw new VisitRejectedError(MEMBERS_ONLY_MESSAGE);
}

export type BookVisitInput = {
  block: VisitBlock;
  date: IsoDate;
  startMinute: number;
  employeeId?: string;
  requestIds: string[];
  /** 'Two handymen' (ADR 091). */
  twoHandymen?: boolean;
};

/**
 * A member books a visit at an offered start from the Schedule tab, with the requests chosen
 * (in their order). `bank` spends the hours (bookMemberVisit); without it, none are spent.
 */
export async function bookVisit(
  customerId: string,
  input: BookVisitInput,
  options: { now?: Date; bank?: { asExtra?: boolean } } = {},
) {
  const now = options.now ?? new Date();
  const [home] = await db()
    .select({ id: homes.id })
    .from(homes)
    .where(eq(homes.customerId, customerId));
  if (!home) throw new VisitRejectedError("Add your home's address in Profile Settings first.");
  const requestIds = [...new Set(input.requestIds)];
  if (!requestIds.length) throw new VisitRejectedError("Choose at least one task for the visit.");
  const handyman = await checkSlot({ customerId, ...input, now });
  const visit = await createVisit(
    {
      customerId,
      homeId: home.id,
      assignedEmployeeId: handyman.id,
      secondHandymanId: handyman.second?.id ?? null,
      scheduledDate: input.date,
      startTime: timeOfDay(input.startMinute),
      endTime: timeOfDay(input.startMinute + input.block),
      tasks: requestIds.map((id) => ({ serviceRequestId: id })),
    },
    {
      bookedBy: "member",
      actorId: customerId,
      time: "offered",
      now,
      coverDedicated: true,
      bank: options.bank && { ...options.bank, today: businessToday(now), membersOnly: true },
    },
  );
  return { ...visit, handyman };
}
