import { and, eq, ne, sql } from "drizzle-orm";
import { claimActionKey } from "~/lib/action-keys.server";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import {
  appointments,
  membershipMinutesLedger,
  membershipVisits,
  type Membership,
} from "~/db/schema";
import { EXTRA_VISIT } from "~/content/plans";
import {
  decideVisit,
  membershipYear,
  minutesReturned,
  selfBookedExtraLimitMessage,
  WORKED_MINUTES_MESSAGE,
  type IsoDate,
  type VisitDecision,
} from "./bank";
import { business } from "~/lib/business.server";
import { hoursLeftText, hoursText } from "~/lib/hours";
import { bookingWaitsForPayment } from "./paid-periods.server";
import { MembershipRejectedError, VisitSpendRefusedError } from "./errors.server";
import {
  inTransaction,
  lockMembership,
  lockActiveMembershipOf,
  postMinutes,
  postMoney,
  termsOf,
  minutesAheadFor,
  postChargesDue,
} from "./ledger.server";
import { formatPrice } from "~/lib/money";
import { calendarMonth, businessNow, plainDate } from "~/lib/business-calendar";

/* ---------- visits: reserve, release, move, complete ---------- */

function minutesOfDay(time: string) {
  const [h, m] = time.split(":").map(Number);
  return h * 60 + m;
}

/** Bank visits (not extra, not released) in the visit's membership year and calendar month. */
export async function visitCounts(
  database: DbOrTx,
  m: Membership,
  visitDate: IsoDate,
  excludeAppointmentId?: string,
) {
  const year = membershipYear(m.startDate, visitDate);
  const month = calendarMonth(visitDate);
  const [row] = await database
    .select({
      thisYear:
        sql<number>`count(*) filter (where ${appointments.scheduledDate} between ${year.first} and ${year.last})`.mapWith(
          Number,
        ),
      thisMonth:
        sql<number>`count(*) filter (where ${appointments.scheduledDate} between ${month.first} and ${month.last})`.mapWith(
          Number,
        ),
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(
      and(
        eq(membershipVisits.membershipId, m.id),
        ne(membershipVisits.status, "released"),
        eq(membershipVisits.isExtra, false),
        excludeAppointmentId ? ne(membershipVisits.appointmentId, excludeAppointmentId) : undefined,
      ),
    );
  return { thisYear: row?.thisYear ?? 0, thisMonth: row?.thisMonth ?? 0 };
}

/**
 * Extra visits the member booked themselves (the appointment created by the customer) in the
 * calendar month of `visitDate`, still held: what the online limit counts (ADR 042).
 */
async function selfBookedExtras(
  database: DbOrTx,
  m: Membership,
  visitDate: IsoDate,
  excludeAppointmentId?: string,
) {
  const month = calendarMonth(visitDate);
  const [row] = await database
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(
      and(
        eq(membershipVisits.membershipId, m.id),
        eq(membershipVisits.isExtra, true),
        ne(membershipVisits.status, "released"),
        eq(appointments.createdBy, m.customerId),
        sql`${appointments.scheduledDate} between ${month.first} and ${month.last}`,
        excludeAppointmentId ? ne(membershipVisits.appointmentId, excludeAppointmentId) : undefined,
      ),
    );
  return row?.count ?? 0;
}

/** The member's own booking: the online limit on extra visits, with its refusal. */
export async function selfBookedLimit(
  database: DbOrTx,
  m: Membership,
  visitDate: IsoDate,
  excludeAppointmentId?: string,
) {
  const { selfBookedExtraVisitsPerMonth: limit, phone } = business();
  return {
    extrasThisMonth: await selfBookedExtras(database, m, visitDate, excludeAppointmentId),
    limit,
    refusal: selfBookedExtraLimitMessage(limit, visitDate, phone),
  };
}

export type ReserveResult = {
  membershipId: string;
  decision: Exclude<VisitDecision, { kind: "refused" }>;
  /** The bank after the reservation. */
  minutesLeft: number;
};

/**
 * Call inside the transaction that creates (or re-dates) an appointment, after its row exists.
 * When the customer has an active membership, the visit takes its block (1 h 45 min or
 * 3 h 30 min, from the appointment's times) from the bank, or becomes an extra visit charged
 * $150 (beyond the year's visits or the month's allowance, or when staff ask with `asExtra`).
 * Returns null for a customer without a membership (an ordinary appointment). Throws
 * VisitSpendRefusedError when the bank lacks the block: roll the transaction back.
 * Calling it again for the same appointment first releases what it held (a move).
 */
export async function reserveVisitMinutes(
  tx: Tx,
  appointmentId: string,
  options: { actorId?: string | null; asExtra?: boolean; today?: IsoDate } = {},
): Promise<ReserveResult | null> {
  const [visit] = await tx
    .select({
      customerId: appointments.customerId,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
    })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  if (!visit) throw new VisitSpendRefusedError("Appointment not found.");
  // A walk-thru has no customer yet, or one without membership: it spends no hours (ADR 061).
  const m = visit.customerId ? await lockActiveMembershipOf(tx, visit.customerId) : null;
  if (!m) return null;
  await postChargesDue(tx, m, options.today ?? businessNow().date);
  const waiting = bookingWaitsForPayment(m, options.today ?? businessNow().date);
  if (waiting) throw new VisitSpendRefusedError(waiting);

  const [held] = await tx
    .select()
    .from(membershipVisits)
    .where(eq(membershipVisits.appointmentId, appointmentId))
    .for("update");
  if (held?.status === "completed") {
    throw new VisitSpendRefusedError("This visit is already completed.");
  }
  if (held?.status === "reserved") await releaseHeld(tx, m, held, options.actorId, "moved");

  const block = minutesOfDay(visit.endTime) - minutesOfDay(visit.startTime);
  const counts = await visitCounts(tx, m, visit.scheduledDate, appointmentId);
  // The member booking (or moving) their own visit: extra visits online are limited.
  const byMember = Boolean(options.actorId) && options.actorId === visit.customerId;
  const decision = decideVisit({
    terms: termsOf(m),
    minutesAvailable: m.minutesAvailable,
    minutesAhead: minutesAheadFor(m, visit.scheduledDate),
    block,
    counts,
    asExtra: options.asExtra,
    selfBooked: byMember
      ? await selfBookedLimit(tx, m, visit.scheduledDate, appointmentId)
      : undefined,
  });
  if (decision.kind === "refused") throw new VisitSpendRefusedError(decision.reason);

  const when = plainDate(visit.scheduledDate);
  if (decision.kind === "bank") {
    await postMinutes(tx, m, {
      kind: "reserve",
      minutes: -decision.minutes,
      appointmentId,
      note: `Visit on ${when} (${hoursText(decision.minutes)} reserved)`,
      createdBy: options.actorId,
    });
  } else {
    await postMoney(tx, m, {
      kind: "extra_visit",
      amountCents: decision.chargeCents,
      appointmentId,
      description: `Extra visit on ${when} (${hoursText(decision.minutes)}): ${decision.reason}`,
      createdBy: options.actorId,
    });
  }
  const values = {
    membershipId: m.id,
    blockMinutes: block,
    isExtra: decision.kind === "extra",
    extraReason: decision.kind === "extra" ? decision.reason : null,
    status: "reserved" as const,
    minutesWorked: null,
  };
  await tx
    .insert(membershipVisits)
    .values({ appointmentId, ...values })
    .onConflictDoUpdate({ target: membershipVisits.appointmentId, set: values });
  return { membershipId: m.id, decision, minutesLeft: m.minutesAvailable };
}

export async function releaseHeld(
  tx: Tx,
  m: Membership,
  held: typeof membershipVisits.$inferSelect,
  actorId: string | null | undefined,
  why: "canceled" | "moved",
) {
  const [appointment] = await tx
    .select({ scheduledDate: appointments.scheduledDate })
    .from(appointments)
    .where(eq(appointments.id, held.appointmentId));
  // A move has re-dated the visit already: its entries show that new day (ADR 089), and so
  // does what this one says.
  const day = appointment ? plainDate(appointment.scheduledDate) : null;
  const what =
    why === "moved" ? (day ? ` moved to ${day}` : " moved") : `${day ? ` on ${day}` : ""} canceled`;
  if (held.isExtra) {
    await postMoney(tx, m, {
      kind: "correction",
      amountCents: -15_000,
      appointmentId: held.appointmentId,
      description: `Extra visit${what}: charge reversed`,
      createdBy: actorId,
    });
  } else {
    await postMinutes(tx, m, {
      kind: "release",
      minutes: held.blockMinutes,
      appointmentId: held.appointmentId,
      note: `Visit${what}: ${hoursText(held.blockMinutes)} back`,
      createdBy: actorId,
    });
  }
  await tx
    .update(membershipVisits)
    .set({ status: "released" })
    .where(eq(membershipVisits.appointmentId, held.appointmentId));
}

/**
 * Call inside the transaction that cancels an appointment: its reserved block goes back to the
 * bank (or an extra visit's $150 is reversed). Returns the minutes returned, 0 when the
 * appointment held nothing (not a member's visit, already released, or completed).
 */
export async function releaseVisitMinutes(
  tx: Tx,
  appointmentId: string,
  options: { actorId?: string | null } = {},
) {
  const [held] = await tx
    .select()
    .from(membershipVisits)
    .where(eq(membershipVisits.appointmentId, appointmentId));
  if (!held || held.status !== "reserved") return 0;
  const m = await lockMembership(tx, held.membershipId);
  // Re-read under the membership lock: a concurrent release may have won.
  const [still] = await tx
    .select()
    .from(membershipVisits)
    .where(eq(membershipVisits.appointmentId, appointmentId))
    .for("update");
  if (!still || still.status !== "reserved") return 0;
  await releaseHeld(tx, m, still, options.actorId, "canceled");
  return still.isExtra ? 0 : still.blockMinutes;
}

/**
 * Call inside the transaction that moves an appointment (after its date and times changed):
 * releases what it held and decides again for the new date (the month's allowance may differ).
 */
export function moveVisitMinutes(
  tx: Tx,
  appointmentId: string,
  options: { actorId?: string | null; asExtra?: boolean; today?: IsoDate } = {},
) {
  return reserveVisitMinutes(tx, appointmentId, options);
}

export type SettledVisit = {
  membership: Membership;
  isExtra: boolean;
  blockMinutes: number;
  /** Minutes that went back to the bank (0 for an extra visit). */
  minutesBack: number;
};

/**
 * Call inside the transaction that completes a visit (the visits feature's completeVisit,
 * which owns the visit's state and has already locked the appointment): the time worked is
 * recorded on the member's visit and the rest of the block goes back to the bank. Returns null
 * for a visit that is not a member's. Nothing is e-mailed here: the visit sends one 'Visit
 * completed' e-mail with the tasks and the hours left.
 */
export async function settleVisitMinutes(
  tx: Tx,
  appointmentId: string,
  input: { minutesWorked: number; actorId: string },
): Promise<SettledVisit | null> {
  const [visit] = await tx
    .select({
      membershipId: membershipVisits.membershipId,
      scheduledDate: appointments.scheduledDate,
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(eq(membershipVisits.appointmentId, appointmentId));
  if (!visit) return null;
  const m = await lockMembership(tx, visit.membershipId);
  const [held] = await tx
    .select()
    .from(membershipVisits)
    .where(eq(membershipVisits.appointmentId, appointmentId))
    .for("update");
  if (held.status !== "reserved") {
    throw new MembershipRejectedError(
      held.status === "completed" ? "This visit is already completed." : "This visit was canceled.",
    );
  }
  const back = minutesReturned(held.blockMinutes, input.minutesWorked);
  if (back === null) throw new MembershipRejectedError(WORKED_MINUTES_MESSAGE);
  if (!held.isExtra && back > 0) {
    await postMinutes(tx, m, {
      kind: "return",
      minutes: back,
      appointmentId: held.appointmentId,
      note: `Visit on ${plainDate(visit.scheduledDate)}: ${hoursText(input.minutesWorked)} worked, ${hoursText(back)} back`,
      createdBy: input.actorId,
    });
  }
  await tx
    .update(membershipVisits)
    .set({
      status: "completed",
      minutesWorked: input.minutesWorked,
      completedAt: new Date(),
      completedBy: input.actorId,
    })
    .where(eq(membershipVisits.appointmentId, held.appointmentId));
  return {
    membership: m,
    isExtra: held.isExtra,
    blockMinutes: held.blockMinutes,
    minutesBack: held.isExtra ? 0 : back,
  };
}

/** The time worked on a completed visit: as recorded, plus every correction since. */
export async function timeWorked(database: DbOrTx, appointmentId: string) {
  // The subquery names the visit by the parameter: in a select from one table Drizzle writes
  // columns without their table, so `ledger.appointment_id = visits.appointment_id` became
  // "appointment_id" = "appointment_id" inside the subquery, true for every correction of
  // every visit (a full run's page showed another member's correction).
  const [row] = await database
    .select({
      recorded: membershipVisits.minutesWorked,
      corrections:
        sql<number>`coalesce((select sum(-${membershipMinutesLedger.minutes}) from ${membershipMinutesLedger} where ${membershipMinutesLedger.appointmentId} = ${appointmentId} and ${membershipMinutesLedger.kind} = 'correction'), 0)`.mapWith(
          Number,
        ),
    })
    .from(membershipVisits)
    .where(eq(membershipVisits.appointmentId, appointmentId));
  if (!row || row.recorded === null) return null;
  return row.recorded + row.corrections;
}

export const CORRECTION_REASON_MESSAGE = "Please give the reason for the correction";

/**
 * Staff's 'Correct time worked' on a completed member's visit: never an edit of what was
 * recorded, but an entry of its own in the hours ledger (kind 'correction', with the reason),
 * shown on the statement. Worked more: the difference leaves the bank; less: it comes back.
 * An extra visit's time is not the bank's, so it has nothing to correct.
 */
export async function correctTimeWorked(
  input: { appointmentId: string; minutesWorked: number; reason: string; key?: string },
  staffId: string,
  database: DbOrTx = db(),
) {
  const reason = input.reason.trim();
  if (!reason) throw new MembershipRejectedError(CORRECTION_REASON_MESSAGE);
  return inTransaction(database, async (tx) => {
    const [visit] = await tx
      .select({
        membershipId: membershipVisits.membershipId,
        scheduledDate: appointments.scheduledDate,
      })
      .from(membershipVisits)
      .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
      .where(eq(membershipVisits.appointmentId, input.appointmentId));
    if (!visit) throw new MembershipRejectedError("This appointment is not a member's visit.");
    const m = await lockMembership(tx, visit.membershipId);
    const [held] = await tx
      .select()
      .from(membershipVisits)
      .where(eq(membershipVisits.appointmentId, input.appointmentId))
      .for("update");
    // The form's key (ADR 048), claimed under the membership's lock: the same correction sent
    // twice is written once (null: already applied).
    if (input.key) {
      const fresh = await claimActionKey(tx, {
        key: input.key,
        actorId: staffId,
        action: `correct-time:${input.appointmentId}`,
      });
      if (!fresh) return null;
    }
    if (held.status !== "completed")
      throw new MembershipRejectedError("Only a completed visit's time can be corrected.");
    if (held.isExtra)
      throw new MembershipRejectedError(
        "An extra visit's time is not taken from the hours, so there is nothing to correct.",
      );
    if (minutesReturned(held.blockMinutes, input.minutesWorked) === null)
      throw new MembershipRejectedError(WORKED_MINUTES_MESSAGE);
    const before = (await timeWorked(tx, input.appointmentId))!;
    const difference = input.minutesWorked - before;
    if (difference === 0)
      throw new MembershipRejectedError(`The time worked is already ${hoursText(before)}.`);
    if (difference > m.minutesAvailable)
      throw new MembershipRejectedError(
        `The bank has ${hoursLeftText(m.minutesAvailable)}, less than the ${hoursText(difference)} to take.`,
      );
    await postMinutes(tx, m, {
      kind: "correction",
      minutes: -difference,
      appointmentId: input.appointmentId,
      note: `Visit on ${plainDate(visit.scheduledDate)}: time worked corrected from ${hoursText(before)} to ${hoursText(input.minutesWorked)} (${reason})`,
      createdBy: staffId,
    });
    return { minutesWorked: input.minutesWorked, minutesLeft: m.minutesAvailable };
  });
}

/**
 * A member's extra visit's charge, for its confirmation page and e-mail (issue 27, item 13):
 * 'Extra visit: $150, charged to your membership' and why it is one. Null for a visit that is
 * not an extra visit held by a membership (a bank visit, released, or not a member's).
 */
export async function extraVisitCharge(database: DbOrTx, appointmentId: string) {
  const [held] = await database
    .select({
      isExtra: membershipVisits.isExtra,
      status: membershipVisits.status,
      reason: membershipVisits.extraReason,
    })
    .from(membershipVisits)
    .where(eq(membershipVisits.appointmentId, appointmentId));
  if (!held?.isExtra || held.status === "released") return null;
  return {
    chargeCents: EXTRA_VISIT.priceCents,
    label: `Extra visit: ${formatPrice(EXTRA_VISIT.priceCents)}, charged to your membership`,
    reason: held.reason,
  };
}

/**
 * What a visit holds from its membership, for the words before canceling it: the block taken
 * from the bank, or an extra visit's charge. Null: it holds nothing (not a member's visit, or
 * already settled).
 */
export async function visitHold(appointmentId: string) {
  const [held] = await db()
    .select({ minutes: membershipVisits.blockMinutes, isExtra: membershipVisits.isExtra })
    .from(membershipVisits)
    .where(
      and(
        eq(membershipVisits.appointmentId, appointmentId),
        eq(membershipVisits.status, "reserved"),
      ),
    );
  return held ?? null;
}
