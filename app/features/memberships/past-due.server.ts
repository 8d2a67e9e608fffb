import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import { rowsOf } from "~/db/rows";
import { membershipMoneyLedger, memberships, profiles, user, type Membership } from "~/db/schema";
import {
  addDays,
  BUSINESS_TIME_ZONE,
  daysBetween,
  type IsoDate,
  businessNow,
} from "~/lib/business-calendar";
import { env } from "~/lib/env.server";
import { logger } from "~/lib/logger.server";
import { nudgeOutbox } from "~/lib/outbox.server";
import { mailPastDue } from "./emails.server";
import { lockMembership, nextChargeDate, postChargesDue } from "./ledger.server";
import { personName } from "~/lib/names";

/*
 * 'Past due' without a card processor (issue 39 item 7, ADR 083). A membership the office
 * collects by hand goes 'Past due' when a charge is still unpaid PAST_DUE_AFTER_DAYS after its
 * period began (a part or an extra visit: after the day it was charged). Payments pay the oldest
 * charges first, so what is owed is the newest charges: the oldest of those is how old the
 * balance is. The daily check (the payments' durable schedule, ADR 055) marks it, once, with a
 * reminder to the member and an alert to the office; booking waits after PAST_DUE_GRACE_DAYS,
 * as with a card that failed; recording the payment brings it back.
 */

export type Overdue = {
  /** What the member owes now (the balance). */
  owedCents: number;
  /** The first day of the oldest charge not yet paid; null when nothing is owed. */
  unpaidSince: IsoDate | null;
};

/**
 * The first day of the oldest charge each balance still owes, for any number of memberships in
 * one statement: payments pay the oldest charges first, so what is owed is the newest charges;
 * taken newest first (by the day each counts from: its period's first day, or the business day
 * it was charged), they are summed until they cover the balance, and the last one summed is the
 * oldest unpaid (when they never cover it, the oldest of all). A refund paid out settles a
 * credit: it is no charge of the member's. A balance of nothing owed is left out.
 */
async function unpaidSinceOf(
  database: DbOrTx,
  balances: { id: string; balanceCents: number }[],
): Promise<Map<string, IsoDate>> {
  const owing = balances.filter((b) => b.balanceCents > 0);
  if (!owing.length) return new Map();
  // Array literals of uuids and integers (nothing a user typed).
  const ids = `{${owing.map((b) => b.id).join(",")}}`;
  const cents = `{${owing.map((b) => Math.trunc(b.balanceCents)).join(",")}}`;
  const since = sql`coalesce(${membershipMoneyLedger.periodStart},
    (${membershipMoneyLedger.createdAt} at time zone ${BUSINESS_TIME_ZONE})::date)`;
  const rows = rowsOf<{ membershipId: string; since: IsoDate }>(
    await database.execute(sql`
      select distinct on (c.membership_id) c.membership_id as "membershipId",
        c.since::text as since
      from (
        select ${membershipMoneyLedger.membershipId} as membership_id, b.balance,
          ${since} as since,
          sum(${membershipMoneyLedger.amountCents}) over (
            partition by ${membershipMoneyLedger.membershipId}
            order by ${since} desc, ${membershipMoneyLedger.seq} desc
            rows between unbounded preceding and current row) as covered
        from unnest(${ids}::uuid[], ${cents}::bigint[]) as b(id, balance)
        join ${membershipMoneyLedger} on ${membershipMoneyLedger.membershipId} = b.id
        where ${membershipMoneyLedger.amountCents} > 0
          and ${membershipMoneyLedger.kind} <> 'refund_paid'
      ) c
      -- The first charge whose sum covers the balance; when none does, the last (oldest).
      order by c.membership_id, c.covered < c.balance,
        case when c.covered >= c.balance then c.covered else -c.covered end`),
  );
  return new Map(rows.map((row) => [row.membershipId, row.since]));
}

/** What a membership owes and since when (payments pay the oldest charges first). */
export async function overdueOf(database: DbOrTx, m: Membership): Promise<Overdue> {
  if (m.balanceCents <= 0) return { owedCents: m.balanceCents, unpaidSince: null };
  const since = await unpaidSinceOf(database, [m]);
  return { owedCents: m.balanceCents, unpaidSince: since.get(m.id) ?? null };
}

/** Whether a balance unpaid since `unpaidSince` is past due on `today`. */
export function isOverdue(overdue: Overdue, today: IsoDate, afterDays = env().pastDueAfterDays) {
  return overdue.unpaidSince !== null && addDays(overdue.unpaidSince, afterDays) <= today;
}

export type PastDueChange = "past due" | "cleared" | null;

/**
 * Brings a locked membership's 'Past due' up to date when the office collects it by hand: set
 * from `today` when a charge is overdue, cleared when nothing overdue is left. A membership
 * Stripe collects keeps Stripe's word (a failed card payment). Returns what changed.
 */
export async function applyPastDue(
  tx: Tx,
  m: Membership,
  today: IsoDate,
): Promise<{ change: PastDueChange; overdue: Overdue }> {
  if (m.status !== "active" || m.paymentProvider) {
    return { change: null, overdue: { owedCents: m.balanceCents, unpaidSince: null } };
  }
  const overdue = await overdueOf(tx, m);
  const due = isOverdue(overdue, today);
  if (due && !m.pastDueSince) {
    await tx.update(memberships).set({ pastDueSince: today }).where(eq(memberships.id, m.id));
    m.pastDueSince = today;
    return { change: "past due", overdue };
  }
  if (!due && m.pastDueSince) {
    await tx.update(memberships).set({ pastDueSince: null }).where(eq(memberships.id, m.id));
    m.pastDueSince = null;
    return { change: "cleared", overdue };
  }
  return { change: null, overdue };
}

/**
 * The daily check: every active membership collected by hand that owes something, or is 'Past
 * due', has its charges due posted and its 'Past due' brought up to date, each in its own
 * transaction under the membership's lock. A membership newly past due gets its reminder (the
 * member: the amount and how to pay; the office: an alert) in the same transaction, so it is
 * sent once however many times the check runs.
 */
export async function checkPastDue(now = new Date()) {
  const today = businessNow(now).date;
  const active = await db()
    .select()
    .from(memberships)
    .where(and(eq(memberships.status, "active"), isNull(memberships.paymentProvider)));
  // Those owing something, 'Past due', or with a period's charge to post first.
  const candidates = active.filter(
    (m) => m.balanceCents > 0 || m.pastDueSince || nextChargeDate(m) <= today,
  );
  let pastDue = 0;
  let cleared = 0;
  for (const { id } of candidates) {
    await db().transaction(async (tx) => {
      const m = await lockMembership(tx, id);
      if (!m) return;
      await postChargesDue(tx, m, today);
      const { change, overdue } = await applyPastDue(tx, m, today);
      if (change === "past due") {
        pastDue++;
        await mailPastDue(tx, m, {
          owedCents: overdue.owedCents,
          unpaidSince: overdue.unpaidSince!,
          waitsFrom: addDays(today, env().pastDueGraceDays),
        });
      }
      if (change === "cleared") cleared++;
    });
  }
  if (pastDue) nudgeOutbox();
  if (pastDue || cleared) logger.info({ pastDue, cleared }, "past due checked");
  return { pastDue, cleared };
}

export type PastDueRow = {
  membershipId: string;
  customerId: string;
  customerName: string;
  planName: string;
  /** What is owed now. */
  owedCents: number;
  /** The first day of the oldest unpaid charge (by hand) or of the failed card payment. */
  unpaidSince: IsoDate;
  /** Days since `unpaidSince`: the balance's age. */
  ageDays: number;
  /** Stripe collects it: a card payment failed. */
  byCard: boolean;
  /** The day booking starts waiting for the payment. */
  bookingWaitsFrom: IsoDate;
};

/** The office's 'Past due' list: every 'Past due' membership, the oldest balance first. */
export async function pastDueMemberships(today = businessNow().date): Promise<PastDueRow[]> {
  const rows = await db()
    .select({
      membership: memberships,
      first: profiles.firstName,
      last: profiles.lastName,
      email: user.email,
    })
    .from(memberships)
    .innerJoin(user, eq(user.id, memberships.customerId))
    .leftJoin(profiles, eq(profiles.userId, memberships.customerId))
    .where(and(eq(memberships.status, "active"), isNotNull(memberships.pastDueSince)))
    .limit(200);
  // How old the balances collected by hand are, in one statement (not one per membership).
  const byHand = rows.map((r) => r.membership).filter((m) => !m.paymentProvider);
  const since = await unpaidSinceOf(db(), byHand);
  const list = rows.map(({ membership: m, first, last, email }) => {
    const unpaidSince = (!m.paymentProvider && since.get(m.id)) || m.pastDueSince!;
    return {
      membershipId: m.id,
      customerId: m.customerId,
      customerName: personName(first, last) || email,
      planName: m.planName,
      owedCents: m.balanceCents,
      unpaidSince,
      ageDays: daysBetween(unpaidSince, today),
      byCard: Boolean(m.paymentProvider),
      bookingWaitsFrom: addDays(m.pastDueSince!, env().pastDueGraceDays),
    };
  });
  return list.sort((a, b) => b.ageDays - a.ageDays);
}
