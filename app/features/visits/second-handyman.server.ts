import { eq, or, sql } from "drizzle-orm";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import { appointments } from "~/db/schema";
import {
  chargeSecondHandyman,
  reverseSecondHandyman,
  secondHandymanFeeNet,
} from "~/features/memberships/index.server";
import { handymanWarnings } from "~/features/availability/index.server";
import { readPersonName } from "~/features/notifications/index.server";
import { minuteOfDay, type IsoDate } from "~/lib/business-calendar";
import { bothHandymen, secondHandymanFeeLine } from "~/lib/two-handymen";

/*
 * The second handyman of a visit (ADR 091), for the booking, move and cancel of
 * visits.server.ts and member-visits.server.ts: each calls one of these, so the rules of two
 * handymen stay here. Nothing here imports visits.server.ts (ADR 090).
 */

/** The handyman who comes with `firstId` at an offered start: the next one free. */
export function secondHandymanOf(
  slot: { handymen: { id: string; name: string }[] },
  firstId: string,
) {
  return slot.handymen.find((h) => h.id !== firstId) ?? null;
}

/**
 * The second handyman a move writes: the one the move found free; when it did not say (staff
 * chose the first one), the same one, unless he becomes the first (then one handyman comes).
 */
export function secondAfterMove(input: {
  employeeId: string | null;
  secondHandymanId?: string | null;
}) {
  if (input.secondHandymanId !== undefined) return input.secondHandymanId;
  return input.employeeId
    ? sql`nullif(${appointments.secondHandymanId}, ${input.employeeId})`
    : sql`${appointments.secondHandymanId}`;
}

/** After a move: a visit that has one handyman now has its fee back (once). */
export async function settleSecondHandymanFee(tx: Tx, appointmentId: string, actorId: string) {
  const [visit] = await tx
    .select({ second: appointments.secondHandymanId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  if (visit && !visit.second)
    await reverseSecondHandyman(tx, appointmentId, actorId, "one handyman");
}

/** Booking with 'Two handymen': the fee, charged in the booking's transaction (once). */
export async function chargeTwoHandymen(tx: Tx, appointmentId: string, actorId: string) {
  const [visit] = await tx
    .select({ second: appointments.secondHandymanId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  if (visit?.second) await chargeSecondHandyman(tx, appointmentId, actorId);
}

/** Canceled: the fee back (once). */
export function reverseTwoHandymen(tx: Tx, appointmentId: string, actorId: string) {
  return reverseSecondHandyman(tx, appointmentId, actorId, "canceled");
}

/**
 * An e-mail's line naming who comes: "Your handyman: Dana Whitfield" or "Your handymen: Dana
 * Whitfield and Sam Okafor"; `names` (both, for the calendar file) only with two.
 */
export async function handymenNamesLine(
  database: DbOrTx,
  first: string,
  secondId: string | null | undefined,
) {
  if (!secondId) return { line: `Your handyman: ${first}`, names: null };
  const names = bothHandymen(first, await readPersonName(database, secondId));
  return { line: `Your handymen: ${names}`, names };
}

/**
 * Who is on the way, for the member's 'On my way' e-mail and text: "Dana Whitfield", or both
 * handymen of a two-handymen visit, "Dana Whitfield and Sam Okafor" (`two`). Null: nobody named.
 */
export async function onMyWayNames(database: DbOrTx, appointmentId: string) {
  const [visit] = await database
    .select({ first: appointments.assignedEmployeeId, second: appointments.secondHandymanId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  if (!visit?.first) return null;
  const first = await readPersonName(database, visit.first);
  const second = visit.second ? await readPersonName(database, visit.second) : null;
  return { names: bothHandymen(first, second), two: Boolean(second) };
}

/** "Second handyman: $95.00, charged to your membership." while the fee stands. */
export async function secondHandymanFeeMailLine(database: DbOrTx, appointmentId: string) {
  const fee = await secondHandymanFeeNet(database, appointmentId);
  return fee.netCents > 0
    ? `${secondHandymanFeeLine(fee.netCents)}, charged to your membership.`
    : null;
}

/** The visit's second handyman, named, and the fee as it stands (the visit's page). */
export async function secondHandymanDetails(appointmentId: string, database: DbOrTx = db()) {
  const [visit] = await database
    .select({ second: appointments.secondHandymanId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  if (!visit?.second) return null;
  const fee = await secondHandymanFeeNet(database, appointmentId);
  return {
    id: visit.second,
    name: await readPersonName(database, visit.second),
    feeLine: fee.netCents > 0 ? secondHandymanFeeLine(fee.netCents) : null,
  };
}

/**
 * Staff book a visit with two handymen at a time they chose: the second one's time off and
 * working hours, warned about as the first one's are (ADR 050, 099). Empty without a second.
 */
export function secondHandymanWarnings(input: {
  scheduledDate: IsoDate;
  startTime: string;
  endTime: string;
  secondHandymanId?: string | null;
}) {
  if (!input.secondHandymanId) return Promise.resolve([]);
  const time = {
    date: input.scheduledDate,
    start: minuteOfDay(input.startTime),
    end: minuteOfDay(input.endTime),
  };
  return handymanWarnings(time, input.secondHandymanId);
}

/** A visit this handyman works: as its first handyman or its second (ADR 091). */
export function handymanOnVisit(handymanId: string) {
  return or(
    eq(appointments.assignedEmployeeId, handymanId),
    eq(appointments.secondHandymanId, handymanId),
  )!;
}

/** The other handyman of a two-handymen visit, named, for the handyman's 'Today'. */
export function otherHandymanName(handymanId: string) {
  return sql<
    string | null
  >`(select nullif(btrim(coalesce(o.first_name, '') || ' ' || coalesce(o.last_name, '')), '') from profiles o where ${appointments.secondHandymanId} is not null and o.user_id = case when ${appointments.assignedEmployeeId} = ${handymanId} then ${appointments.secondHandymanId} else ${appointments.assignedEmployeeId} end)`;
}
