import { and, eq, inArray, isNull } from "drizzle-orm";
import { db } from "~/db/client.server";
import { membershipMoneyLedger, memberships, paymentSchedule } from "~/db/schema";
import {
  bringChargesUpToDate,
  checkPastDue,
  nextChargeDate,
} from "~/features/memberships/index.server";
import { alertOffice, siteUrl } from "~/features/notifications/index.server";
import { logger } from "~/lib/logger.server";
import { mailMember, MEMBERSHIP_TAB } from "./messages.server";
import { paymentProvider } from "./provider.server";
import { applyPaymentNow } from "./reconcile-apply.server";
import { postRefundsMadeInStripe } from "./refunds.server";
import { scheduleOnce } from "./schedule-once.server";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { addDays, businessNow, plainDate } from "~/lib/business-calendar";

export { scheduleOnce };

/*
 * The durable schedule (ADR 055), on the outbox: each occasion is a row of payment_schedule
 * keyed by job, membership and period ("charge:<membership>:<period start>"), inserted once
 * (ON CONFLICT DO NOTHING) together with the outbox item that runs it when due. However many
 * processes plan the schedule, an occasion is planned once; and a period's charge is posted
 * once anyway (the ledger's unique index per membership and period).
 */

/**
 * The annual renewal's notices, days before the renewal date: 45 (Georgia's O.C.G.A. 13-12-3
 * asks for 30 to 60 days, California's 15 to 45: 45 meets both) and a reminder 7 days ahead.
 */
export const RENEWAL_NOTICE_DAYS = [45, 7] as const;
/** How far back the daily reconciliation compares Stripe with the ledger. */
export const RECONCILE_DAYS = 3;

/** The instant a job of a business day runs: 12:00 UTC, early morning in Atlanta. */
function dayInstant(date: string) {
  return new Date(`${date}T12:00:00Z`);
}

export async function markDone(key: string) {
  await db()
    .update(paymentSchedule)
    .set({ doneAt: new Date() })
    .where(and(eq(paymentSchedule.key, key), isNull(paymentSchedule.doneAt)));
}

/**
 * Plans what is due next for every active membership (its next period's charge when staff
 * collect it by hand; an annual renewal's notices, 45 and 7 days ahead, and its day), the
 * daily 'Past due' check and
 * tomorrow's reconciliation.
 * Run at start and by each reconciliation; planning twice changes nothing.
 */
export async function planSchedule(now = new Date()) {
  const today = businessNow(now).date;
  const active = await db().select().from(memberships).where(eq(memberships.status, "active"));
  let planned = 0;
  for (const m of active) {
    const next = nextChargeDate(m);
    if (!m.paymentProvider) {
      if (
        await scheduleOnce(db(), {
          key: `charge:${m.id}:${next}`,
          kind: "charge",
          dueAt: dayInstant(next),
          payload: { membershipId: m.id, periodStart: next },
        })
      )
        planned++;
    }
    if (m.billing === "annual") planned += await planRenewal(m.id, next, today);
  }
  const tomorrow = addDays(today, 1);
  // The daily 'Past due' check of memberships collected by hand (ADR 083): today's (at once,
  // when the process starts after its hour) and tomorrow's, each once.
  for (const day of [today, tomorrow]) {
    if (
      await scheduleOnce(db(), {
        key: `past-due:${day}`,
        kind: "past_due",
        dueAt: dayInstant(day),
        payload: { day },
      })
    )
      planned++;
  }
  if (
    await scheduleOnce(db(), {
      key: `reconcile:${tomorrow}`,
      kind: "reconcile",
      dueAt: dayInstant(tomorrow),
      payload: { day: tomorrow },
    })
  )
    planned++;
  return planned;
}

/**
 * An annual membership's renewal: the notices 45 and 7 days ahead (one sent late, the day it is
 * planned, if its day has passed; the first is left out when even the second one's day has
 * passed), and the renewal day's job that ends a membership whose renewal was canceled.
 */
async function planRenewal(membershipId: string, renewal: string, today: string) {
  let planned = 0;
  const [first, last] = RENEWAL_NOTICE_DAYS;
  for (const days of RENEWAL_NOTICE_DAYS) {
    const day = addDays(renewal, -days);
    if (days === first && addDays(renewal, -last) <= today) continue;
    if (
      await scheduleOnce(db(), {
        key: `renewal-notice-${days}:${membershipId}:${renewal}`,
        kind: "renewal_notice",
        dueAt: dayInstant(day < today ? today : day),
        payload: { membershipId, periodStart: renewal, days },
      })
    )
      planned++;
  }
  if (
    await scheduleOnce(db(), {
      key: `renewal-end:${membershipId}:${renewal}`,
      kind: "renewal_end",
      // Ahead of the day's charge (12:00 UTC): a canceled renewal is never charged anyway.
      dueAt: new Date(dayInstant(renewal).getTime() - 60_000),
      payload: { membershipId, periodStart: renewal },
    })
  )
    planned++;
  return planned;
}

/** A period's charge on its first day (manual mode), then the next one planned. */
export async function runScheduledCharge(key: string, membershipId: string, now = new Date()) {
  await bringChargesUpToDate(membershipId, businessNow(now).date);
  await markDone(key);
  await planSchedule(now);
}

/** The Plan tab's renewal forms, where an e-mail's links lead (signed in). */
const RENEWAL_FORMS = `${MEMBERSHIP_TAB}#renewal`;

/**
 * A renewal notice (45 or 7 days ahead): the date, the year's price and hours, what monthly
 * billing would cost, and the links to 'Switch to monthly' and 'Cancel renewal' on the Plan tab.
 * A member who chose already is told what happens on that day instead. Sent once (its key), and
 * only while the renewal it was planned for is still the next one.
 */
export async function runRenewalNotice(
  key: string,
  membershipId: string,
  periodStart: string,
  days?: number,
) {
  // A notice planned before the 45/7-day notices (no `days`): those replace it.
  if (days !== undefined) {
    await db().transaction(async (tx) => {
      const [m] = await tx.select().from(memberships).where(eq(memberships.id, membershipId));
      if (!m || m.status !== "active" || m.billing !== "annual") return;
      if (nextChargeDate(m) !== periodStart) return;
      await mailMember(tx, m.customerId, renewalNotice(m, periodStart, days));
    });
  }
  await markDone(key);
}

function renewalNotice(m: typeof memberships.$inferSelect, renewal: string, days: number) {
  const date = plainDate(renewal);
  const year = formatCents(m.monthlyPriceCents * 12);
  const month = formatCents(m.monthlyPriceCents);
  const hours = hoursText(m.minutesPerYear);
  const when = days === 7 ? "in 7 days" : `in ${days} days`;
  const how =
    m.paymentProvider === "stripe"
      ? "It is charged to your card on file on that day."
      : "The office will collect it on that day, as before.";
  if (m.renewalChoice === "cancel") {
    return {
      subject: `Your ${m.planName} membership ends on ${date}`,
      heading: `Your membership ends ${when}`,
      lines: [
        `You chose 'Cancel renewal': your ${m.planName} membership ends on ${date} and is not charged again. Unused hours are refunded then.`,
        `Changed your mind? 'Keep annual renewal' on your Plan tab: ${siteUrl(RENEWAL_FORMS)}`,
      ],
      action: "See your plan",
    };
  }
  if (m.renewalChoice === "monthly") {
    return {
      subject: `Your ${m.planName} membership switches to monthly on ${date}`,
      heading: `Monthly billing begins ${when}`,
      lines: [
        `You chose 'Switch to monthly': from ${date} your ${m.planName} membership is billed ${month} a month, for ${hours} of handyman time a year, paid month by month.`,
        how,
        `Changed your mind? 'Keep annual renewal' or 'Cancel renewal' on your Plan tab: ${siteUrl(RENEWAL_FORMS)}`,
      ],
      action: "See your plan",
    };
  }
  return {
    subject: `Your ${m.planName} membership renews on ${date}: ${year}`,
    heading: `Your membership renews ${when}`,
    lines: [
      `Your ${m.planName} membership renews on ${date} for another year: ${year} for ${hours} of handyman time and ${m.visitsPerYear} visits.`,
      how,
      `Rather pay monthly? Switch to monthly (${month} a month from ${date}): ${siteUrl(RENEWAL_FORMS)}`,
      `Not renewing? Cancel renewal (your membership ends on ${date}; unused hours are refunded): ${siteUrl(RENEWAL_FORMS)}`,
      "Nothing to do if you wish to continue.",
    ],
    action: "Switch to monthly or cancel renewal",
  };
}

/**
 * How a membership ends on its renewal day: the memberships feature's cancel, which ends its
 * visits and queues its refund. It composes features (payments among them), so payments does
 * not import it: the start-up hands it over with registerPaymentJobs (ADR 090).
 */
export type EndMembership = (
  customerId: string,
  at: ReturnType<typeof businessNow>,
) => Promise<{ membership: { id: string }; quote: { refundCents: number } }>;

let endMembership: EndMembership | null = null;

export function setEndMembership(end: EndMembership) {
  endMembership = end;
}

/**
 * The renewal day (just before its charge): a membership whose member chose 'Cancel renewal'
 * ends, settled as any cancel (unused hours refunded); with Stripe the subscription was set to
 * end on that day when the member chose.
 */
export async function runRenewalEnd(
  key: string,
  membershipId: string,
  periodStart: string,
  now = new Date(),
) {
  const [m] = await db().select().from(memberships).where(eq(memberships.id, membershipId));
  if (
    m &&
    m.status === "active" &&
    m.billing === "annual" &&
    m.renewalChoice === "cancel" &&
    nextChargeDate(m) === periodStart &&
    businessNow(now).date >= periodStart
  ) {
    if (!endMembership) throw new Error("registerPaymentJobs was not given how a membership ends");
    const { membership, quote } = await endMembership(m.customerId, businessNow(now));
    logger.info(
      { membershipId: membership.id, refundCents: quote.refundCents },
      "membership ended on its renewal date ('Cancel renewal')",
    );
  }
  await markDone(key);
}

/**
 * The daily reconciliation: Stripe's paid invoices and payments, and its refunds, of the last
 * days against the ledger. A payment a lost webhook missed is posted (once: the ledger's unique
 * Stripe ids); a refund the ledger does not know is reported to the office.
 */
export async function reconcile(now = new Date()) {
  const provider = paymentProvider();
  const since = new Date(now.getTime() - RECONCILE_DAYS * 86_400_000);
  const payments = (await provider.paymentsSince(since)).filter((p) => p.status === "paid");
  const refunds = await provider.refundsSince(since);
  let posted = 0;
  const unexplained: string[] = [];
  for (const payment of payments) {
    const outcome = await applyPaymentNow(payment, businessNow(now).date);
    if (outcome === "posted") posted++;
    if (outcome === "duplicate") continue;
    if (outcome === "no membership") {
      unexplained.push(
        `Stripe payment ${payment.id} (${formatCents(payment.amountPaidCents)}) belongs to no membership.`,
      );
    }
  }
  if (refunds.length) {
    // Refunds made in Stripe's dashboard whose webhook was lost are posted now (once).
    const { unmatched } = await db().transaction((tx) => postRefundsMadeInStripe(tx, refunds));
    const known = new Set(
      (
        await db()
          .select({ ref: membershipMoneyLedger.providerRef })
          .from(membershipMoneyLedger)
          .where(
            inArray(
              membershipMoneyLedger.providerRef,
              refunds.map((r) => r.id),
            ),
          )
      ).map((r) => r.ref),
    );
    for (const refund of refunds) {
      // A duplicate payment's refund is not in the ledger by design (the payment never was).
      if (refund.source === "duplicate" || known.has(refund.id)) continue;
      // Not yet succeeded (a card refund takes days): its own event posts it when it is.
      if (!refund.source && refund.status !== "succeeded" && !unmatched.includes(refund)) continue;
      unexplained.push(
        `Stripe refund ${refund.id} (${formatCents(refund.amountCents)}) is not in the ledger.`,
      );
    }
  }
  if (unexplained.length) {
    await db().transaction((tx) =>
      alertOffice(tx, {
        subject: `Payments to check: ${unexplained.length} difference${unexplained.length === 1 ? "" : "s"} with Stripe`,
        lines: unexplained,
        staffPath: "/employee?tab=customers",
        customerName: "",
      }),
    );
  }
  logger.info({ posted, unexplained: unexplained.length }, "payments reconciled");
  return { posted, unexplained };
}

/** The day's 'Past due' check (ADR 083), then the next one planned. */
export async function runPastDueCheck(key: string, now = new Date()) {
  await checkPastDue(now);
  await markDone(key);
  await planSchedule(now);
}

export async function runReconciliation(key: string, now = new Date()) {
  await reconcile(now);
  await markDone(key);
  await planSchedule(now);
}
