import { and, eq, inArray, isNull } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { membershipMoneyLedger, memberships, paymentSchedule } from "~/db/schema";
import {
  bringChargesUpToDate,
  businessNow,
  formatCents,
  longDate,
  nextChargeDate,
} from "~/features/memberships/index.server";
import { alertOffice } from "~/features/notifications/index.server";
import { logger } from "~/lib/logger.server";
import { enqueue } from "~/lib/outbox.server";
import { mailMember } from "./messages.server";
import { paymentProvider } from "./provider.server";
import { applyPaymentNow } from "./reconcile-apply.server";

/*
 * The durable schedule (ADR 055), on the outbox: each occasion is a row of payment_schedule
 * keyed by job, membership and period ("charge:<membership>:<period start>"), inserted once
 * (ON CONFLICT DO NOTHING) together with the outbox item that runs it when due. However many
 * processes plan the schedule, an occasion is planned once; and a period's charge is posted
 * once anyway (the ledger's unique index per membership and period).
 */

const RENEWAL_NOTICE_DAYS = 30;
/** How far back the daily reconciliation compares Stripe with the ledger. */
export const RECONCILE_DAYS = 3;

/** The instant a job of a business day runs: 12:00 UTC, early morning in Atlanta. */
function dayInstant(date: string) {
  return new Date(`${date}T12:00:00Z`);
}

function addDaysIso(date: string, days: number) {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export async function scheduleOnce(
  database: DbOrTx,
  occasion: { key: string; kind: string; dueAt: Date; payload: Record<string, unknown> },
) {
  const [row] = await database
    .insert(paymentSchedule)
    .values({ key: occasion.key, kind: occasion.kind, dueAt: occasion.dueAt })
    .onConflictDoNothing({ target: paymentSchedule.key })
    .returning({ key: paymentSchedule.key });
  if (!row) return false;
  await enqueue(
    database,
    "payment_job",
    { job: occasion.kind, key: occasion.key, ...occasion.payload },
    { notBefore: occasion.dueAt },
  );
  return true;
}

async function markDone(key: string) {
  await db()
    .update(paymentSchedule)
    .set({ doneAt: new Date() })
    .where(and(eq(paymentSchedule.key, key), isNull(paymentSchedule.doneAt)));
}

/**
 * Plans what is due next for every active membership (its next period's charge when staff
 * collect it by hand; the annual renewal notice 30 days ahead) and tomorrow's reconciliation.
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
    if (m.billing === "annual") {
      const noticeDay = addDaysIso(next, -RENEWAL_NOTICE_DAYS);
      if (
        await scheduleOnce(db(), {
          key: `renewal-notice:${m.id}:${next}`,
          kind: "renewal_notice",
          dueAt: dayInstant(noticeDay < today ? today : noticeDay),
          payload: { membershipId: m.id, periodStart: next },
        })
      )
        planned++;
    }
  }
  const tomorrow = addDaysIso(today, 1);
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

/** A period's charge on its first day (manual mode), then the next one planned. */
export async function runScheduledCharge(key: string, membershipId: string, now = new Date()) {
  await bringChargesUpToDate(membershipId, businessNow(now).date);
  await markDone(key);
  await planSchedule(now);
}

export async function runRenewalNotice(key: string, membershipId: string, periodStart: string) {
  await db().transaction(async (tx) => {
    const [m] = await tx.select().from(memberships).where(eq(memberships.id, membershipId));
    if (!m || m.status !== "active" || nextChargeDate(m) !== periodStart) return;
    await mailMember(tx, m.customerId, {
      subject: `Your ${m.planName} membership renews on ${longDate(periodStart)}`,
      heading: "Your membership renews in 30 days",
      lines: [
        `Your ${m.planName} membership renews on ${longDate(periodStart)} for another year: ${formatCents(m.monthlyPriceCents * 12)}.`,
        "Nothing to do if you wish to continue. You can cancel any time; unused hours are refunded.",
      ],
      action: "See your membership",
    });
  });
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
    if (outcome === "no membership") {
      unexplained.push(
        `Stripe payment ${payment.id} (${formatCents(payment.amountPaidCents)}) belongs to no membership.`,
      );
    }
  }
  if (refunds.length) {
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
      if (!known.has(refund.id)) {
        unexplained.push(
          `Stripe refund ${refund.id} (${formatCents(refund.amountCents)}) is not in the ledger.`,
        );
      }
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

export async function runReconciliation(key: string, now = new Date()) {
  await reconcile(now);
  await markDone(key);
  await planSchedule(now);
}
