import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { db, type Database, type DbOrTx, type Tx } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import {
  appointments,
  appointmentTasks,
  homes,
  membershipMinutesLedger,
  membershipMoneyLedger,
  membershipParts,
  memberships,
  membershipVisits,
  profiles,
  user,
  type Membership,
} from "~/db/schema";
import { planById, type PlanId } from "~/content/plans";
import { business } from "~/lib/business.server";
import {
  calendarMonth,
  chargeForPeriod,
  decideVisit,
  formatCents,
  formatMinutes,
  hourlyRateLabel,
  membershipYear,
  minutesReturned,
  monthlyVisitAllowance,
  quoteCancellation,
  selfBookedExtraLimitMessage,
  spendLabel,
  WORKED_MINUTES_MESSAGE,
  type Billing,
  type CancellationQuote,
  type IsoDate,
  type VisitDecision,
} from "./bank";
import { changeVisitState, withdrawFromCalendar } from "~/features/visits/index.server";
import { businessNow, longDate } from "./dates";
import type { BankSummary, MemberVisitRow, PartRow } from "./types";

export type { BankSummary, MemberVisitRow, PartRow };
import {
  mailMembershipCanceled,
  mailMembershipStarted,
  mailPartDecision,
  mailPartsApprovalNeeded,
} from "./emails.server";

/*
 * Memberships on the database: every change to the hours bank or the money happens in a
 * transaction that first locks the membership row (SELECT ... FOR UPDATE), appends a ledger row
 * and moves the row's running total by the same amount. Concurrent bookings therefore take
 * turns on the row, and the CHECK on minutes_available refuses a negative bank even if a rule
 * were wrong. The API other features call is described in docs and /work/notes/members-api.md:
 * reserveVisitMinutes, releaseVisitMinutes, moveVisitMinutes, memberBankSummary, visitSpend.
 */

/** A rule refused the change; the message is shown as is. Nothing was written. */
export class MembershipRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MembershipRejectedError";
  }
}

export const ALREADY_MEMBER = "This customer already has an active membership.";
export const NO_HOME = "The customer needs a home address before a membership can start.";
export const NOT_FOUND = "Membership not found.";

type Actor = { id: string; isEmployee: boolean };

/** Runs `fn` in a transaction of `database` (a savepoint when it is already a transaction). */
function inTransaction<T>(database: DbOrTx, fn: (tx: Tx) => Promise<T>) {
  return (database as Database).transaction(fn);
}

function isUniqueViolation(error: unknown, constraint?: string) {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const e = cause as { code?: string; constraint?: string };
  return e?.code === "23505" && (!constraint || e.constraint === constraint);
}

/* ---------- ledgers ---------- */

async function lockMembership(tx: Tx, membershipId: string) {
  const [row] = await tx
    .select()
    .from(memberships)
    .where(eq(memberships.id, membershipId))
    .for("update");
  return row;
}

async function lockActiveMembershipOf(tx: Tx, customerId: string) {
  const [row] = await tx
    .select()
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active")))
    .for("update");
  return row;
}

type MinutesEntry = {
  kind: "accrual" | "reserve" | "release" | "return" | "refund" | "correction";
  minutes: number;
  note: string;
  appointmentId?: string | null;
  createdBy?: string | null;
};

/** Appends to the hours ledger and moves the bank by the same minutes (row already locked). */
async function postMinutes(tx: Tx, membership: Membership, entry: MinutesEntry) {
  const [row] = await tx
    .update(memberships)
    .set({ minutesAvailable: sql`${memberships.minutesAvailable} + ${entry.minutes}` })
    .where(eq(memberships.id, membership.id))
    .returning({ minutesAvailable: memberships.minutesAvailable });
  await tx.insert(membershipMinutesLedger).values({
    membershipId: membership.id,
    kind: entry.kind,
    minutes: entry.minutes,
    balanceAfter: row.minutesAvailable,
    appointmentId: entry.appointmentId ?? null,
    note: entry.note,
    createdBy: entry.createdBy ?? null,
  });
  membership.minutesAvailable = row.minutesAvailable;
  return row.minutesAvailable;
}

type MoneyEntry = {
  kind:
    | "membership_charge"
    | "extra_visit"
    | "part"
    | "shopping_fee"
    | "payment"
    | "refund"
    | "correction";
  amountCents: number;
  description: string;
  periodStart?: IsoDate | null;
  appointmentId?: string | null;
  partId?: string | null;
  paymentMethod?: PaymentMethod | null;
  reference?: string | null;
  createdBy?: string | null;
};

/** Appends to the money ledger and moves the balance by the same cents (row already locked). */
async function postMoney(tx: Tx, membership: Membership, entry: MoneyEntry) {
  const [row] = await tx
    .update(memberships)
    .set({ balanceCents: sql`${memberships.balanceCents} + ${entry.amountCents}` })
    .where(eq(memberships.id, membership.id))
    .returning({ balanceCents: memberships.balanceCents });
  await tx.insert(membershipMoneyLedger).values({
    membershipId: membership.id,
    kind: entry.kind,
    amountCents: entry.amountCents,
    balanceAfter: row.balanceCents,
    description: entry.description,
    periodStart: entry.periodStart ?? null,
    appointmentId: entry.appointmentId ?? null,
    partId: entry.partId ?? null,
    paymentMethod: entry.paymentMethod ?? null,
    reference: entry.reference ?? null,
    createdBy: entry.createdBy ?? null,
  });
  membership.balanceCents = row.balanceCents;
  return row.balanceCents;
}

function termsOf(m: Membership) {
  return {
    monthlyPriceCents: m.monthlyPriceCents,
    minutesPerYear: m.minutesPerYear,
    visitsPerYear: m.visitsPerYear,
  };
}

/** The first day of the next billing period not yet charged. */
export function nextChargeDate(m: Membership) {
  return chargeForPeriod(termsOf(m), m.billing, m.startDate, m.periodsCharged).periodStart;
}

/**
 * Posts every charge due up to `today` on a locked, active membership: the period's price to
 * the money ledger and the minutes it buys to the bank (monthly: hours per year / 12; annual:
 * the year's hours upfront). Idempotent: a period is charged once (a unique index too).
 */
async function postChargesDue(tx: Tx, m: Membership, today: IsoDate) {
  if (m.status !== "active") return;
  const billingLabel = m.billing === "annual" ? "annual" : "monthly";
  for (;;) {
    const charge = chargeForPeriod(termsOf(m), m.billing, m.startDate, m.periodsCharged);
    if (charge.periodStart > today) break;
    const through = chargeForPeriod(termsOf(m), m.billing, m.startDate, m.periodsCharged + 1);
    const period = `${longDate(charge.periodStart)} to the day before ${longDate(through.periodStart)}`;
    await postMoney(tx, m, {
      kind: "membership_charge",
      amountCents: charge.amountCents,
      description: `${m.planName}, ${billingLabel}: ${period}`,
      periodStart: charge.periodStart,
    });
    await postMinutes(tx, m, {
      kind: "accrual",
      minutes: charge.minutes,
      note: `Hours paid for ${period}`,
    });
    m.periodsCharged += 1;
    await tx
      .update(memberships)
      .set({ periodsCharged: m.periodsCharged })
      .where(eq(memberships.id, m.id));
  }
}

/**
 * Charges whatever billing periods have begun since the last look (cheap when none has: one
 * read). Called by every page and action that shows or spends the bank.
 */
export async function bringChargesUpToDate(membershipId: string, today = businessNow().date) {
  const [m] = await db().select().from(memberships).where(eq(memberships.id, membershipId));
  if (!m || m.status !== "active" || nextChargeDate(m) > today) return;
  await db().transaction(async (tx) => {
    const locked = await lockMembership(tx, membershipId);
    if (locked) await postChargesDue(tx, locked, today);
  });
}

/* ---------- start ---------- */

export type StartMembershipInput = {
  customerId: string;
  plan: PlanId;
  billing: Billing;
  startDate: IsoDate;
};

/**
 * Starts a membership for a customer's home, copying the plan's terms, and charges the first
 * period when it has begun. One active membership per home and per customer (unique indexes).
 */
export async function startMembership(
  input: StartMembershipInput,
  staffId: string | null,
  options: { today?: IsoDate; database?: DbOrTx; notify?: boolean } = {},
) {
  const today = options.today ?? businessNow().date;
  const database = options.database ?? db();
  const plan = planById(input.plan);
  try {
    return await inTransaction(database, async (tx) => {
      const [home] = await tx
        .select({ id: homes.id })
        .from(homes)
        .innerJoin(profiles, eq(profiles.userId, homes.customerId))
        .where(and(eq(homes.customerId, input.customerId), eq(profiles.isEmployee, false)))
        .limit(1);
      if (!home) throw new MembershipRejectedError(NO_HOME);
      const [created] = await tx
        .insert(memberships)
        .values({
          customerId: input.customerId,
          homeId: home.id,
          plan: plan.id,
          planName: plan.name,
          monthlyPriceCents: plan.monthlyPriceCents,
          minutesPerYear: plan.minutesPerYear,
          visitsPerYear: plan.visitsPerYear,
          billing: input.billing,
          startDate: input.startDate,
          createdBy: staffId,
        })
        .returning();
      await postChargesDue(tx, created, today);
      if (options.notify !== false) await mailMembershipStarted(tx, created);
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new MembershipRejectedError(ALREADY_MEMBER);
    throw error;
  }
}

/* ---------- visits: reserve, release, move, complete ---------- */

/** A visit cannot be booked as asked; the reason is worded for the person booking. */
export class VisitSpendRefusedError extends MembershipRejectedError {
  constructor(message: string) {
    super(message);
    this.name = "VisitSpendRefusedError";
  }
}

function minutesOfDay(time: string) {
  const [h, m] = time.split(":").map(Number);
  return h * 60 + m;
}

/** Bank visits (not extra, not released) in the visit's membership year and calendar month. */
async function visitCounts(
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
async function selfBookedLimit(
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
  const m = await lockActiveMembershipOf(tx, visit.customerId);
  if (!m) return null;
  await postChargesDue(tx, m, options.today ?? businessNow().date);

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
    block,
    counts,
    asExtra: options.asExtra,
    selfBooked: byMember
      ? await selfBookedLimit(tx, m, visit.scheduledDate, appointmentId)
      : undefined,
  });
  if (decision.kind === "refused") throw new VisitSpendRefusedError(decision.reason);

  const when = longDate(visit.scheduledDate);
  if (decision.kind === "bank") {
    await postMinutes(tx, m, {
      kind: "reserve",
      minutes: -decision.minutes,
      appointmentId,
      note: `Visit on ${when} (${formatMinutes(decision.minutes)} reserved)`,
      createdBy: options.actorId,
    });
  } else {
    await postMoney(tx, m, {
      kind: "extra_visit",
      amountCents: decision.chargeCents,
      appointmentId,
      description: `Extra visit on ${when} (${formatMinutes(decision.minutes)}): ${decision.reason}`,
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

async function releaseHeld(
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
  const when = appointment ? ` on ${longDate(appointment.scheduledDate)}` : "";
  if (held.isExtra) {
    await postMoney(tx, m, {
      kind: "correction",
      amountCents: -15_000,
      appointmentId: held.appointmentId,
      description: `Extra visit${when} ${why}: charge reversed`,
      createdBy: actorId,
    });
  } else {
    await postMinutes(tx, m, {
      kind: "release",
      minutes: held.blockMinutes,
      appointmentId: held.appointmentId,
      note: `Visit${when} ${why}: ${formatMinutes(held.blockMinutes)} back`,
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
      note: `Visit on ${longDate(visit.scheduledDate)}: ${formatMinutes(input.minutesWorked)} worked, ${formatMinutes(back)} back`,
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
  const [row] = await database
    .select({
      recorded: membershipVisits.minutesWorked,
      corrections:
        sql<number>`coalesce((select sum(-${membershipMinutesLedger.minutes}) from ${membershipMinutesLedger} where ${membershipMinutesLedger.appointmentId} = ${membershipVisits.appointmentId} and ${membershipMinutesLedger.kind} = 'correction'), 0)`.mapWith(
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
  input: { appointmentId: string; minutesWorked: number; reason: string },
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
      throw new MembershipRejectedError(`The time worked is already ${formatMinutes(before)}.`);
    if (difference > m.minutesAvailable)
      throw new MembershipRejectedError(
        `The bank has ${formatMinutes(m.minutesAvailable)} left, less than the ${formatMinutes(difference)} to take.`,
      );
    await postMinutes(tx, m, {
      kind: "correction",
      minutes: -difference,
      appointmentId: input.appointmentId,
      note: `Visit on ${longDate(visit.scheduledDate)}: time worked corrected from ${formatMinutes(before)} to ${formatMinutes(input.minutesWorked)} (${reason})`,
      createdBy: staffId,
    });
    return { minutesWorked: input.minutesWorked, minutesLeft: m.minutesAvailable };
  });
}

/* ---------- money: payments ---------- */

export const PAYMENT_METHODS = ["card", "check", "cash", "bank_transfer"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: "Card",
  check: "Check",
  cash: "Cash",
  bank_transfer: "Bank transfer",
};

/** Staff record a payment received (the ledger a payment provider could write to later). */
export async function recordPayment(
  input: { membershipId: string; amountCents: number; method: PaymentMethod; reference: string },
  staffId: string | null,
  database: DbOrTx = db(),
) {
  return inTransaction(database, async (tx) => {
    const m = await lockMembership(tx, input.membershipId);
    if (!m) throw new MembershipRejectedError(NOT_FOUND);
    await postMoney(tx, m, {
      kind: "payment",
      amountCents: -input.amountCents,
      description: `Payment by ${PAYMENT_METHOD_LABELS[input.method].toLowerCase()}${input.reference ? ` (${input.reference})` : ""}`,
      paymentMethod: input.method,
      reference: input.reference || null,
      createdBy: staffId,
    });
    return m;
  });
}

/* ---------- parts ---------- */

/**
 * Staff record a part for a member's visit. Over $100 it waits for the member's approval (an
 * e-mail and an 'Approve' / 'Decline' card); otherwise it is approved at once.
 */
export async function addPart(
  input: { appointmentId: string; description: string; costCents: number },
  staffId: string | null,
  database: DbOrTx = db(),
  notify = true,
) {
  return inTransaction(database, async (tx) => {
    const [visit] = await tx
      .select({ membershipId: membershipVisits.membershipId, status: membershipVisits.status })
      .from(membershipVisits)
      .where(eq(membershipVisits.appointmentId, input.appointmentId));
    if (!visit || visit.status === "released") {
      throw new MembershipRejectedError("Parts are recorded for a member's visit.");
    }
    const m = await lockMembership(tx, visit.membershipId);
    if (m.status !== "active") throw new MembershipRejectedError("This membership is canceled.");
    const needsApproval = input.costCents > 10_000;
    const [part] = await tx
      .insert(membershipParts)
      .values({
        membershipId: m.id,
        appointmentId: input.appointmentId,
        description: input.description,
        costCents: input.costCents,
        needsApproval,
        status: needsApproval ? "pending_approval" : "approved",
        createdBy: staffId,
      })
      .returning();
    if (needsApproval && notify) await mailPartsApprovalNeeded(tx, m, part);
    return part;
  });
}

/** The member answers a parts approval request of their own membership only. */
export async function decidePart(
  customerId: string,
  partId: string,
  decision: "approve" | "decline",
  database: DbOrTx = db(),
) {
  return inTransaction(database, async (tx) => {
    const [part] = await tx
      .update(membershipParts)
      .set({
        status: decision === "approve" ? "approved" : "declined",
        decidedAt: new Date(),
        decidedBy: customerId,
      })
      .where(
        and(
          eq(membershipParts.id, partId),
          eq(membershipParts.status, "pending_approval"),
          inArray(
            membershipParts.membershipId,
            tx
              .select({ id: memberships.id })
              .from(memberships)
              .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active"))),
          ),
        ),
      )
      .returning();
    if (!part) throw new MembershipRejectedError("This part is not waiting for your approval.");
    const [m] = await tx.select().from(memberships).where(eq(memberships.id, part.membershipId));
    await mailPartDecision(tx, m, part);
    return part;
  });
}

/**
 * Staff mark an approved part bought: the part is charged, and the visit's $10 shopping fee
 * once (never per part; a unique index holds it to one per visit).
 */
export async function markPartBought(partId: string, staffId: string, database: DbOrTx = db()) {
  return inTransaction(database, async (tx) => {
    const [found] = await tx
      .select({ membershipId: membershipParts.membershipId })
      .from(membershipParts)
      .where(eq(membershipParts.id, partId));
    if (!found) throw new MembershipRejectedError("Part not found.");
    const m = await lockMembership(tx, found.membershipId);
    const [part] = await tx
      .select()
      .from(membershipParts)
      .where(eq(membershipParts.id, partId))
      .for("update");
    if (part.status !== "approved") {
      throw new MembershipRejectedError(
        part.status === "bought"
          ? "This part is already marked bought."
          : "Only an approved part can be marked bought.",
      );
    }
    await tx
      .update(membershipParts)
      .set({ status: "bought", boughtAt: new Date(), boughtBy: staffId })
      .where(eq(membershipParts.id, partId));
    const [appointment] = await tx
      .select({ scheduledDate: appointments.scheduledDate })
      .from(appointments)
      .where(eq(appointments.id, part.appointmentId));
    const when = appointment ? ` (visit on ${longDate(appointment.scheduledDate)})` : "";
    await postMoney(tx, m, {
      kind: "part",
      amountCents: part.costCents,
      description: `Part: ${part.description}${when}`,
      partId: part.id,
      appointmentId: part.appointmentId,
      createdBy: staffId,
    });
    const [fee] = await tx
      .select({ id: membershipMoneyLedger.id })
      .from(membershipMoneyLedger)
      .where(
        and(
          eq(membershipMoneyLedger.appointmentId, part.appointmentId),
          eq(membershipMoneyLedger.kind, "shopping_fee"),
        ),
      );
    if (!fee) {
      await postMoney(tx, m, {
        kind: "shopping_fee",
        amountCents: 1_000,
        description: `Shopping fee${when}`,
        appointmentId: part.appointmentId,
        createdBy: staffId,
      });
    }
    return part;
  });
}

/* ---------- cancel ---------- */

/** Future visits of a membership still holding minutes or an extra-visit charge. */
async function futureVisits(database: DbOrTx, membershipId: string, now = businessNow()) {
  return database
    .select({
      appointmentId: membershipVisits.appointmentId,
      blockMinutes: membershipVisits.blockMinutes,
      isExtra: membershipVisits.isExtra,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(
      and(
        eq(membershipVisits.membershipId, membershipId),
        eq(membershipVisits.status, "reserved"),
        eq(appointments.status, "booked"),
        sql`(${appointments.scheduledDate} > ${now.date} or (${appointments.scheduledDate} = ${now.date} and ${appointments.startTime} > ${now.time}))`,
      ),
    )
    .orderBy(asc(appointments.scheduledDate), asc(appointments.startTime));
}

async function chargesTotal(database: DbOrTx, membershipId: string) {
  const [row] = await database
    .select({
      total: sql<number>`coalesce(sum(${membershipMoneyLedger.amountCents}), 0)`.mapWith(Number),
    })
    .from(membershipMoneyLedger)
    .where(
      and(
        eq(membershipMoneyLedger.membershipId, membershipId),
        eq(membershipMoneyLedger.kind, "membership_charge"),
      ),
    );
  return row?.total ?? 0;
}

async function quoteFor(database: DbOrTx, m: Membership, now = businessNow()) {
  const future = await futureVisits(database, m.id, now);
  const released = future.reduce((sum, v) => sum + (v.isExtra ? 0 : v.blockMinutes), 0);
  const quote = quoteCancellation({
    terms: termsOf(m),
    startDate: m.startDate,
    cancelDate: now.date,
    guaranteeDays: business().guaranteeDays,
    minutesLeft: m.minutesAvailable + released,
    membershipChargesCents: await chargesTotal(database, m.id),
  });
  return { quote, futureVisits: future };
}

export type CancellationPreview = CancellationQuote & {
  futureVisitCount: number;
  hourlyRate: string;
  guaranteeDays: number;
};

/**
 * What canceling now would refund, computed exactly as cancelMembership will (after posting the
 * charges due): shown in the confirmation dialog before anyone confirms.
 */
export async function previewCancellation(
  membershipId: string,
  now = businessNow(),
): Promise<CancellationPreview | null> {
  await bringChargesUpToDate(membershipId, now.date);
  const [m] = await db().select().from(memberships).where(eq(memberships.id, membershipId));
  if (!m || m.status !== "active") return null;
  const { quote, futureVisits: future } = await quoteFor(db(), m, now);
  return {
    ...quote,
    futureVisitCount: future.length,
    hourlyRate: hourlyRateLabel(termsOf(m)),
    guaranteeDays: business().guaranteeDays,
  };
}

export function refundSentence(quote: CancellationQuote, hourlyRate: string, days: number) {
  if (quote.rule === "guarantee") {
    return `Within the ${days}-day guarantee: every membership charge is refunded in full, ${formatCents(quote.refundCents)}.`;
  }
  return `Unused hours refunded: ${formatMinutes(quote.minutesRefunded)} at ${hourlyRate}, ${formatCents(quote.refundCents)}.`;
}

/**
 * Cancels an active membership, by the member (their own only: pass `customerId`) or by staff.
 * Future visits are canceled (their minutes return first, their calendar entries withdrawn by
 * an .ics METHOD:CANCEL e-mail), then the refund is computed as the dialog showed it and
 * written to both ledgers, and the member gets an e-mail.
 */
export async function cancelMembership(
  input: { membershipId: string; customerId?: string },
  actor: Actor,
  now = businessNow(),
) {
  const result = await db().transaction(async (tx) => {
    const m = await lockMembership(tx, input.membershipId);
    if (!m || (input.customerId && m.customerId !== input.customerId)) {
      throw new MembershipRejectedError(NOT_FOUND);
    }
    if (m.status !== "active")
      throw new MembershipRejectedError("This membership is already canceled.");
    await postChargesDue(tx, m, now.date);
    const { quote, futureVisits: future } = await quoteFor(tx, m, now);
    for (const visit of future) {
      const [held] = await tx
        .select()
        .from(membershipVisits)
        .where(eq(membershipVisits.appointmentId, visit.appointmentId))
        .for("update");
      await releaseHeld(tx, m, held, actor.id, "canceled");
      const canceled = await changeVisitState(tx, visit.appointmentId, "canceled");
      await withdrawFromCalendar(tx, canceled, actor.id);
    }
    const hourlyRate = hourlyRateLabel(termsOf(m));
    if (quote.minutesRefunded > 0) {
      await postMinutes(tx, m, {
        kind: "refund",
        minutes: -quote.minutesRefunded,
        note: `Membership canceled: ${formatMinutes(quote.minutesRefunded)} unused`,
        createdBy: actor.id,
      });
    }
    if (quote.refundCents > 0) {
      await postMoney(tx, m, {
        kind: "refund",
        amountCents: -quote.refundCents,
        description:
          quote.rule === "guarantee"
            ? `Refund: ${business().guaranteeDays}-day guarantee, membership charges in full`
            : `Refund: ${formatMinutes(quote.minutesRefunded)} unused at ${hourlyRate}`,
        createdBy: actor.id,
      });
    }
    const [canceled] = await tx
      .update(memberships)
      .set({
        status: "canceled",
        canceledOn: now.date,
        canceledAt: new Date(),
        canceledBy: actor.id,
      })
      .where(eq(memberships.id, m.id))
      .returning();
    await mailMembershipCanceled(tx, canceled, {
      ...quote,
      sentence: refundSentence(quote, hourlyRate, business().guaranteeDays),
      visitsCanceled: future.length,
    });
    return { quote, membership: canceled, visitsCanceled: future.length };
  });
  return result;
}

/* ---------- reading ---------- */

/** The customer's active membership, or else their latest one, or null. */
export async function currentMembership(customerId: string, database: DbOrTx = db()) {
  const [m] = await database
    .select()
    .from(memberships)
    .where(eq(memberships.customerId, customerId))
    .orderBy(sql`${memberships.status} = 'active' desc`, desc(memberships.createdAt))
    .limit(1);
  return m ?? null;
}

/**
 * A member's bank for pages and the booking summary: minutes left, visits left this membership
 * year and this calendar month (counted on `today`), renewal date. Posts charges due first.
 */
export async function memberBankSummary(
  customerId: string,
  today = businessNow().date,
): Promise<BankSummary | null> {
  let m = await currentMembership(customerId);
  if (!m) return null;
  if (m.status === "active" && nextChargeDate(m) <= today) {
    await bringChargesUpToDate(m.id, today);
    m = (await currentMembership(customerId))!;
  }
  return summarize(m, today);
}

async function summarize(m: Membership, today: IsoDate): Promise<BankSummary> {
  return summaryOf(m, today, await visitCounts(db(), m, today));
}

/** The bank summary of a membership row, given its visit counts for `today`'s year and month. */
function summaryOf(
  m: Membership,
  today: IsoDate,
  counts: { thisYear: number; thisMonth: number },
): BankSummary {
  const year = membershipYear(m.startDate, today < m.startDate ? m.startDate : today);
  const allowance = monthlyVisitAllowance(m.visitsPerYear);
  return {
    membershipId: m.id,
    customerId: m.customerId,
    plan: m.plan,
    planName: m.planName,
    billing: m.billing,
    status: m.status,
    startDate: m.startDate,
    canceledOn: m.canceledOn,
    renewsOn: year.renewsOn,
    minutesLeft: m.minutesAvailable,
    minutesPerYear: m.minutesPerYear,
    meterLabel: `${formatMinutes(m.minutesAvailable)} of ${formatMinutes(m.minutesPerYear)} left`,
    visitsPerYear: m.visitsPerYear,
    visitsLeftThisYear: Math.max(0, m.visitsPerYear - counts.thisYear),
    monthlyAllowance: allowance,
    visitsLeftThisMonth: Math.max(0, allowance - counts.thisMonth),
    hourlyRate: hourlyRateLabel(termsOf(m)),
    balanceCents: m.balanceCents,
    monthlyPriceCents: m.monthlyPriceCents,
  };
}

/* ---------- a membership page, read at once ---------- */

/**
 * What a membership page shows beside the membership row, in one read (ADR 066): the bank
 * visits counted in `now`'s membership year and calendar month (as visitCounts), the future
 * visits still holding minutes or a charge and the minutes they hold (as futureVisits), and the
 * membership charges so far (as chargesTotal).
 */
function prepareFigures(database: Database) {
  const p = (name: string) => sql.placeholder(name);
  const counted = sql`${membershipVisits.status} <> 'released' and not ${membershipVisits.isExtra}`;
  const future = sql`${membershipVisits.status} = 'reserved' and ${appointments.status} = 'booked' and (${appointments.scheduledDate} > ${p("today")} or (${appointments.scheduledDate} = ${p("today")} and ${appointments.startTime} > ${p("time")}))`;
  return database
    .select({
      thisYear:
        sql<number>`count(*) filter (where ${counted} and ${appointments.scheduledDate} between ${p("yearFirst")} and ${p("yearLast")})`.mapWith(
          Number,
        ),
      thisMonth:
        sql<number>`count(*) filter (where ${counted} and ${appointments.scheduledDate} between ${p("monthFirst")} and ${p("monthLast")})`.mapWith(
          Number,
        ),
      futureVisits: sql<number>`count(*) filter (where ${future})`.mapWith(Number),
      futureMinutes:
        sql<number>`coalesce(sum(${membershipVisits.blockMinutes}) filter (where ${future} and not ${membershipVisits.isExtra}), 0)`.mapWith(
          Number,
        ),
      charges:
        sql<number>`(select coalesce(sum(${membershipMoneyLedger.amountCents}), 0) from ${membershipMoneyLedger} where ${membershipMoneyLedger.membershipId} = ${p("id")} and ${membershipMoneyLedger.kind} = 'membership_charge')`.mapWith(
          Number,
        ),
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(eq(membershipVisits.membershipId, p("id")))
    .prepare("membership_figures");
}

async function membershipFigures(m: Membership, now: { date: IsoDate; time: string }) {
  const year = membershipYear(m.startDate, now.date);
  const month = calendarMonth(now.date);
  const [row] = await prepared("membership_figures", prepareFigures).execute({
    id: m.id,
    today: now.date,
    time: now.time,
    yearFirst: year.first,
    yearLast: year.last,
    monthFirst: month.first,
    monthLast: month.last,
  });
  return {
    counts: { thisYear: row?.thisYear ?? 0, thisMonth: row?.thisMonth ?? 0 },
    futureVisits: row?.futureVisits ?? 0,
    futureMinutes: row?.futureMinutes ?? 0,
    charges: row?.charges ?? 0,
  };
}

export type MembershipPage = {
  summary: BankSummary;
  /** The entries of the page shown, newest first. */
  statement: StatementEntry[];
  statementPage: { page: number; pages: number; total: number };
  parts: PartRow[];
  /** What canceling now would refund (an active membership only). */
  cancel: CancellationPreview | null;
};

/**
 * A customer's membership (their active one, or else their latest) as its pages show it: the
 * bank summary (charges due posted first), one page of the statement, the parts, and for an
 * active membership what canceling now would refund. The same figures as memberBankSummary,
 * membershipStatement and previewCancellation, in four reads however long the history: the
 * membership, its figures, the statement's page and the parts (ADR 066). Null: no membership.
 */
export async function membershipPage(
  customerId: string,
  statementPage: number,
  pageSize: number,
  now = businessNow(),
): Promise<MembershipPage | null> {
  let m = await currentMembership(customerId);
  if (!m) return null;
  if (m.status === "active" && nextChargeDate(m) <= now.date) {
    await bringChargesUpToDate(m.id, now.date);
    m = (await currentMembership(customerId))!;
  }
  const [figures, statement, parts] = await Promise.all([
    membershipFigures(m, now),
    membershipStatementPage(m.id, statementPage, pageSize),
    membershipPartsList(m.id),
  ]);
  let cancel: CancellationPreview | null = null;
  if (m.status === "active") {
    const quote = quoteCancellation({
      terms: termsOf(m),
      startDate: m.startDate,
      cancelDate: now.date,
      guaranteeDays: business().guaranteeDays,
      minutesLeft: m.minutesAvailable + figures.futureMinutes,
      membershipChargesCents: figures.charges,
    });
    cancel = {
      ...quote,
      futureVisitCount: figures.futureVisits,
      hourlyRate: hourlyRateLabel(termsOf(m)),
      guaranteeDays: business().guaranteeDays,
    };
  }
  return {
    summary: summaryOf(m, now.date, figures.counts),
    statement: statement.entries,
    statementPage: { page: statement.page, pages: statement.pages, total: statement.total },
    parts,
    cancel,
  };
}

export type VisitSpend = {
  decision: VisitDecision;
  minutesLeft: number;
  /** 'Uses 1 h 45 min of 12 h 15 min left', 'Extra visit: $150' or why it cannot be booked. */
  label: string;
  /** For an extra visit: why it is one. */
  reason: string | null;
};

/**
 * What a visit on `date` of `block` minutes would spend, shown before anyone confirms it (the
 * same rule reserveVisitMinutes applies inside the booking transaction). Null: not a member.
 */
export async function visitSpend(
  customerId: string,
  input: {
    date: IsoDate;
    block: number;
    asExtra?: boolean;
    excludeAppointmentId?: string;
    /** The member is booking it themselves (the online limit on extra visits applies). */
    byMember?: boolean;
  },
  today = businessNow().date,
): Promise<VisitSpend | null> {
  const [m] = await db()
    .select()
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active")));
  if (!m) return null;
  if (nextChargeDate(m) <= today) await bringChargesUpToDate(m.id, today);
  const [fresh] = await db().select().from(memberships).where(eq(memberships.id, m.id));
  const counts = await visitCounts(db(), fresh, input.date, input.excludeAppointmentId);
  const decision = decideVisit({
    terms: termsOf(fresh),
    minutesAvailable: fresh.minutesAvailable,
    block: input.block,
    counts,
    asExtra: input.asExtra,
    selfBooked: input.byMember
      ? await selfBookedLimit(db(), fresh, input.date, input.excludeAppointmentId)
      : undefined,
  });
  return {
    decision,
    minutesLeft: fresh.minutesAvailable,
    label: spendLabel(decision, fresh.minutesAvailable),
    reason: decision.kind === "extra" ? decision.reason : null,
  };
}

export type StatementEntry = {
  key: string;
  at: Date;
  ledger: "money" | "hours";
  kind: string;
  description: string;
  amountCents: number | null;
  balanceCents: number | null;
  minutes: number | null;
  minutesBalance: number | null;
};

/**
 * Every ledger entry of a membership, newest first, each with the running balance after it
 * (stored on the row when it was written, so the statement is one indexed read per ledger).
 * "Newest" is the ledgers' own order (`seq`, ADR 041), the order the balances were computed
 * in: a row's time is when its transaction began, which parallel bookings on PostgreSQL
 * commit in another order, so each balance follows from the row below only by `seq`.
 */
export async function membershipStatement(membershipId: string): Promise<StatementEntry[]> {
  const [money, minutes] = await Promise.all([
    db()
      .select()
      .from(membershipMoneyLedger)
      .where(eq(membershipMoneyLedger.membershipId, membershipId))
      .orderBy(desc(membershipMoneyLedger.seq)),
    db()
      .select()
      .from(membershipMinutesLedger)
      .where(eq(membershipMinutesLedger.membershipId, membershipId))
      .orderBy(desc(membershipMinutesLedger.seq)),
  ]);
  const entries: (StatementEntry & { order: number })[] = [
    ...money.map((e) => ({
      key: `m${e.id}`,
      at: e.createdAt,
      ledger: "money" as const,
      kind: e.kind,
      description: e.description,
      amountCents: e.amountCents,
      balanceCents: e.balanceAfter,
      minutes: null,
      minutesBalance: null,
      order: e.seq,
    })),
    ...minutes.map((e) => ({
      key: `h${e.id}`,
      at: e.createdAt,
      ledger: "hours" as const,
      kind: e.kind,
      description: e.note,
      amountCents: null,
      balanceCents: null,
      minutes: e.minutes,
      minutesBalance: e.balanceAfter,
      order: e.seq,
    })),
  ];
  entries.sort((a, b) => b.order - a.order);
  return entries.map(({ order: _order, ...rest }) => rest);
}

type StatementRow = {
  total: string | number;
  key: string | null;
  at: string | null;
  ledger: "money" | "hours" | null;
  kind: string | null;
  description: string | null;
  amount_cents: number | null;
  balance_cents: number | null;
  minutes: number | null;
  minutes_balance: number | null;
};

/**
 * One page of membershipStatement (newest first, `pageSize` entries; a page past the end shows
 * the last), read as one page: both ledgers' entries of the page through their (membership,
 * seq) indexes, and the count of all, in one query, never the whole history (ADR 066).
 */
export async function membershipStatementPage(
  membershipId: string,
  page: number,
  pageSize: number,
): Promise<{ entries: StatementEntry[]; page: number; pages: number; total: number }> {
  const money = membershipMoneyLedger;
  const hours = membershipMinutesLedger;
  const asked = Math.max(1, Math.floor(page));
  const result = await db().execute(sql`
    select t.total, e.key, e.at, e.ledger, e.kind, e.description, e.amount_cents,
      e.balance_cents, e.minutes, e.minutes_balance
    from (
      select (select count(*) from ${money} where ${money.membershipId} = ${membershipId})
        + (select count(*) from ${hours} where ${hours.membershipId} = ${membershipId}) as total
    ) t
    left join lateral (
      (select 'm' || ${money.id} as key, ${money.createdAt} as at, 'money' as ledger,
        ${money.kind}::text as kind, ${money.description} as description,
        ${money.amountCents} as amount_cents, ${money.balanceAfter} as balance_cents,
        null::integer as minutes, null::integer as minutes_balance, ${money.seq} as seq
      from ${money} where ${money.membershipId} = ${membershipId})
      union all
      (select 'h' || ${hours.id}, ${hours.createdAt}, 'hours', ${hours.kind}::text, ${hours.note},
        null::integer, null::integer, ${hours.minutes}, ${hours.balanceAfter}, ${hours.seq}
      from ${hours} where ${hours.membershipId} = ${membershipId})
      order by seq desc
      limit ${pageSize}
      offset (least(${asked}::integer, greatest(1, ceil(t.total::numeric / ${pageSize}::integer)::integer)) - 1) * ${pageSize}::integer
    ) e on true`);
  const rows = result.rows as StatementRow[];
  const total = Number(rows[0]?.total ?? 0);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const entries: StatementEntry[] = rows
    .filter((r) => r.key !== null)
    .map((r) => ({
      key: r.key!,
      at: money.createdAt.mapFromDriverValue(r.at!) as Date,
      ledger: r.ledger!,
      kind: r.kind!,
      description: r.description!,
      amountCents: r.amount_cents,
      balanceCents: r.balance_cents,
      minutes: r.minutes,
      minutesBalance: r.minutes_balance,
    }));
  return { entries, page: Math.min(asked, pages), pages, total };
}

/** A membership's parts, newest first (with the visit's date). */
export async function membershipPartsList(membershipId: string): Promise<PartRow[]> {
  return db()
    .select({
      id: membershipParts.id,
      appointmentId: membershipParts.appointmentId,
      description: membershipParts.description,
      costCents: membershipParts.costCents,
      needsApproval: membershipParts.needsApproval,
      status: membershipParts.status,
      scheduledDate: appointments.scheduledDate,
      createdAt: membershipParts.createdAt,
    })
    .from(membershipParts)
    .innerJoin(appointments, eq(appointments.id, membershipParts.appointmentId))
    .where(eq(membershipParts.membershipId, membershipId))
    .orderBy(desc(membershipParts.createdAt));
}

/** A membership's visits (newest first), with their tasks and the corrected time worked. */
export async function membershipVisitList(membershipId: string): Promise<MemberVisitRow[]> {
  const rows = await db()
    .select({
      appointmentId: membershipVisits.appointmentId,
      scheduledDate: appointments.scheduledDate,
      startTime: appointments.startTime,
      endTime: appointments.endTime,
      blockMinutes: membershipVisits.blockMinutes,
      isExtra: membershipVisits.isExtra,
      extraReason: membershipVisits.extraReason,
      status: membershipVisits.status,
      minutesWorked: sql<
        number | null
      >`${membershipVisits.minutesWorked} + coalesce((select sum(-${membershipMinutesLedger.minutes}) from ${membershipMinutesLedger} where ${membershipMinutesLedger.appointmentId} = ${membershipVisits.appointmentId} and ${membershipMinutesLedger.kind} = 'correction'), 0)`.mapWith(
        (v) => (v === null ? null : Number(v)),
      ),
      appointmentStatus: appointments.status,
    })
    .from(membershipVisits)
    .innerJoin(appointments, eq(appointments.id, membershipVisits.appointmentId))
    .where(eq(membershipVisits.membershipId, membershipId))
    .orderBy(desc(appointments.scheduledDate), desc(appointments.startTime));
  const tasks = rows.length
    ? await db()
        .select({
          id: appointmentTasks.id,
          appointmentId: appointmentTasks.appointmentId,
          description: appointmentTasks.taskDescription,
          outcome: appointmentTasks.outcome,
        })
        .from(appointmentTasks)
        .where(
          inArray(
            appointmentTasks.appointmentId,
            rows.map((r) => r.appointmentId),
          ),
        )
    : [];
  return rows.map((row) => ({
    ...row,
    tasks: tasks
      .filter((t) => t.appointmentId === row.appointmentId)
      .map(({ id, description, outcome }) => ({ id, description, outcome })),
  }));
}

export type MembershipCounters = { activeMembers: number; partsAwaitingApproval: number };

/** The employee dashboard's counters: 'Active Members' and 'Parts awaiting approval'. */
export async function membershipCounters(database: DbOrTx = db()): Promise<MembershipCounters> {
  const [row] = await database
    .select({
      activeMembers:
        sql<number>`(select count(*) from ${memberships} where ${memberships.status} = 'active')`.mapWith(
          Number,
        ),
      partsAwaitingApproval:
        sql<number>`(select count(*) from ${membershipParts} where ${membershipParts.status} = 'pending_approval')`.mapWith(
          Number,
        ),
    })
    .from(sql`(select 1) as one`);
  return row;
}

/** A customer's active membership as staff's customer views show it (ADR 014). */
export type ActiveMembership = { planName: string; minutesLeft: number };

/** Active memberships of these customers (the employee Customers tab), keyed by customer. */
export async function activeMembershipsOf(
  customerIds: string[],
): Promise<Map<string, ActiveMembership>> {
  if (!customerIds.length) return new Map();
  const rows = await db()
    .select({
      customerId: memberships.customerId,
      planName: memberships.planName,
      minutesLeft: memberships.minutesAvailable,
    })
    .from(memberships)
    .where(and(inArray(memberships.customerId, customerIds), eq(memberships.status, "active")));
  return new Map(rows.map((r) => [r.customerId, r]));
}

/** The member's e-mail and first name, for mail. */
export async function memberContact(database: DbOrTx, customerId: string) {
  const [row] = await database
    .select({ email: user.email, firstName: profiles.firstName })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, customerId));
  return row;
}
