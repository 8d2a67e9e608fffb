import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  membershipMoneyLedger,
  membershipOffers,
  memberships,
  outbox,
  paymentEvents,
  paymentSchedule,
} from "~/db/schema";
import { cancelOwnMembership } from "~/workflows/cancel-membership.server";
import {
  chooseRenewal,
  paymentProvider,
  planSchedule,
  reconcile,
  registerPaymentJobs,
  runPaymentJob,
  sendMembershipOffer,
  startOfferCheckout,
} from "~/features/payments/index.server";
import { resetEnvForTests } from "~/lib/env.server";
import { failedDeliveries, processOutboxBatch, retryFailedDelivery } from "~/lib/outbox.server";
import { action as stripeWebhook } from "~/routes/webhooks.stripe";
import { createHome, createUser } from "../../server/seed/factories";
import { startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in";
import { useTestDatabase, type TestDatabase } from "../support/test-database";
import { addDays, businessNow } from "~/lib/business-calendar";

/*
 * Issue 39's Stripe edges, through the real SDK against the stand-in (STRIPE_API_URL), webhook
 * bodies signed with the SDK's own generateTestHeaderString: a signed body that is not an event
 * and a signature from the future are refused with 400; ten 'Start membership' at once open one
 * Checkout Session; a second payment of one offer is refunded and its subscription canceled;
 * refunds made in Stripe's dashboard are posted once; an outbox job that keeps failing is given
 * up after OUTBOX_MAX_ATTEMPTS and retried from 'Failed deliveries'; annual renewals are noticed
 * 45 and 7 days ahead (a moved clock), switched to monthly, canceled, or go 'Past due'.
 */

const SECRET = { secretKey: "sk_test_edges", webhookSecret: "whsec_edges_secret" };
const ENV_KEYS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "STRIPE_API_URL",
  "PUBLIC_URL",
  "DATA_DIR",
  "BUSINESS_EMAIL",
  "OUTBOX_MAX_ATTEMPTS",
  "OUTBOX_BASE_BACKOFF_MS",
  "OUTBOX_MAX_BACKOFF_MS",
];

let database: TestDatabase;
let stripe: StripeStandIn;
let dataDir: string;

beforeAll(async () => {
  stripe = await startStripeStandIn(SECRET);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stripe-edges-"));
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: SECRET.secretKey,
    STRIPE_WEBHOOK_SECRET: SECRET.webhookSecret,
    STRIPE_API_URL: stripe.url,
    PUBLIC_URL: "http://localhost:3998",
    DATA_DIR: dataDir,
    BUSINESS_EMAIL: "office@example.com",
    OUTBOX_MAX_ATTEMPTS: "3",
    OUTBOX_BASE_BACKOFF_MS: "0",
    OUTBOX_MAX_BACKOFF_MS: "0",
  });
  resetEnvForTests();
  database = await useTestDatabase();
  registerPaymentJobs({ endMembership: cancelOwnMembership });
});
afterAll(async () => {
  for (const key of ENV_KEYS) delete process.env[key];
  resetEnvForTests();
  await database?.drop();
  await stripe?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.execute(
    sql`truncate "user", outbox, payment_events, payment_refunds, payment_schedule, membership_offers, payment_customers, action_keys cascade`,
  );
});

function deliver(event: { body: string; signature?: string }) {
  return stripeWebhook({
    request: new Request("http://localhost:3998/webhooks/stripe", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(event.signature ? { "stripe-signature": event.signature } : {}),
      },
      body: event.body,
    }),
  });
}

async function drain() {
  for (let i = 0; i < 200; i++) {
    if ((await processOutboxBatch(50)) === 0) return;
  }
}

let counter = 0;
async function customerWithOffer(billing: "monthly" | "annual" = "monthly", startDate?: string) {
  counter++;
  const person = await createUser(database.db, {
    email: `edge${counter}-${Date.now()}@example.com`,
    password: "Member-pass-2026!",
    firstName: "Rosa",
    lastName: `Edge${counter}`,
  });
  await createHome(database.db, person.id);
  const staff = await createUser(database.db, {
    email: `edge-staff${counter}-${Date.now()}@example.com`,
    password: "Staff-pass-2026!",
    firstName: "Sam",
    lastName: "Staff",
    isEmployee: true,
  });
  const offer = await sendMembershipOffer(
    {
      customerId: person.id,
      plan: "complete",
      billing,
      startDate: startDate ?? businessNow().date,
    },
    staff.id,
  );
  return { customerId: person.id, staffId: staff.id, offer, email: person.email };
}

async function offerRow(offerId: string) {
  const [row] = await database.db
    .select()
    .from(membershipOffers)
    .where(eq(membershipOffers.id, offerId));
  return row;
}

async function membershipOf(customerId: string) {
  const rows = await database.db
    .select()
    .from(memberships)
    .where(eq(memberships.customerId, customerId));
  return rows;
}

async function ledgerOf(membershipId: string) {
  return database.db
    .select()
    .from(membershipMoneyLedger)
    .where(eq(membershipMoneyLedger.membershipId, membershipId))
    .orderBy(membershipMoneyLedger.seq);
}

async function mailsTo(address: string) {
  const rows = await database.db
    .select()
    .from(outbox)
    .where(eq(outbox.kind, "email"))
    .orderBy(outbox.createdAt);
  return rows
    .map((r) => r.payload as { to: string; subject: string; text: string })
    .filter((p) => p.to === address);
}

const checkoutCreates = () =>
  stripe.calls.filter((c) => c.method === "POST" && c.path === "/v1/checkout/sessions");

/** A member who paid their offer's Checkout: the membership started, its first period posted. */
async function paidMember(billing: "monthly" | "annual" = "monthly") {
  const member = await customerWithOffer(billing);
  await startOfferCheckout(member.customerId);
  const sessionId = (await offerRow(member.offer.id)).checkoutSessionId!;
  const paid = stripe.completeCheckout(sessionId);
  await deliver(stripe.event("checkout.session.completed", paid.session));
  await drain();
  const [m] = await membershipOf(member.customerId);
  return { ...member, ...paid, membership: m };
}

describe("the webhook's edges", () => {
  it("a correctly signed body that is not an event: 400, nothing stored", async () => {
    for (const body of [
      "null",
      "[]",
      "{}",
      '"evt_1"',
      "42",
      '{"id":"evt_123","object":"event"}',
      '{"id":"evt_123","object":"event","type":"invoice.paid","data":null}',
      '{"id":"not-an-event","object":"event","type":"invoice.paid","data":{"object":{}}}',
      '{"id":"evt_123","object":"charge","type":"invoice.paid","data":{"object":{}}}',
    ]) {
      const response = await deliver({ body, signature: stripe.sign(body) });
      expect(response.status, body).toBe(400);
      expect(await response.json()).toEqual({ error: "not an event" });
    }
    // Not JSON at all, signed all the same: the SDK cannot read it.
    const garbage = "{not json";
    expect((await deliver({ body: garbage, signature: stripe.sign(garbage) })).status).toBe(400);
    expect(await database.db.select().from(paymentEvents)).toHaveLength(0);
    expect(await database.db.select().from(outbox)).toHaveLength(0);
  });

  it("a signature more than 5 minutes in the future or past is refused; within 5 minutes is taken", async () => {
    const { offer, customerId } = await customerWithOffer();
    await startOfferCheckout(customerId);
    const session = stripe.objects.get((await offerRow(offer.id)).checkoutSessionId!)!;
    const event = stripe.event("checkout.session.completed", session);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const ahead = await deliver({
      body: event.body,
      signature: stripe.sign(event.body, nowSeconds + 600),
    });
    expect(ahead.status).toBe(400);
    expect(await ahead.json()).toEqual({ error: "signed in the future" });
    const late = await deliver({
      body: event.body,
      signature: stripe.sign(event.body, nowSeconds - 600),
    });
    expect(late.status).toBe(400);
    expect(await database.db.select().from(paymentEvents)).toHaveLength(0);
    // A clock a little ahead (4 minutes) is within Stripe's tolerance.
    const near = await deliver({
      body: event.body,
      signature: stripe.sign(event.body, nowSeconds + 240),
    });
    expect(near.status).toBe(200);
    expect(await database.db.select().from(paymentEvents)).toHaveLength(1);
  });
});

describe("one Checkout per offer", () => {
  it("ten 'Start membership' at once open one Checkout Session, offered again after", async () => {
    const { offer, customerId } = await customerWithOffer();
    const before = checkoutCreates().length;
    const urls = await Promise.all(
      Array.from({ length: 10 }, () => startOfferCheckout(customerId)),
    );
    expect(new Set(urls).size).toBe(1);
    const sessions = [...stripe.objects.values()].filter(
      (o) =>
        o.object === "checkout.session" &&
        (o.metadata as { offerId?: string }).offerId === offer.id,
    );
    expect(sessions).toHaveLength(1);
    // Every create carried the offer's key: Stripe answered them all with the one session.
    const creates = checkoutCreates().slice(before);
    expect(new Set(creates.map((c) => c.idempotencyKey))).toEqual(
      new Set([`checkout-${offer.id}-0`]),
    );
    expect((await offerRow(offer.id)).checkoutSessionId).toBe(sessions[0].id);
    expect(urls[0]).toBe(sessions[0].url);
    // A later tap reuses the open session without creating one.
    const again = checkoutCreates().length;
    expect(await startOfferCheckout(customerId)).toBe(urls[0]);
    expect(checkoutCreates().length).toBe(again);
    // Expired unpaid: the next tap opens a new one (the offer's next attempt), once.
    sessions[0].status = "expired";
    const next = await Promise.all(Array.from({ length: 5 }, () => startOfferCheckout(customerId)));
    expect(new Set(next).size).toBe(1);
    expect(next[0]).not.toBe(urls[0]);
    const row = await offerRow(offer.id);
    expect(row.checkoutAttempt).toBe(1);
    expect(
      [...stripe.objects.values()].filter(
        (o) =>
          o.object === "checkout.session" &&
          (o.metadata as { offerId?: string }).offerId === offer.id,
      ),
    ).toHaveLength(2);
  });

  it("a second paid session for the same offer is refunded and its subscription canceled; one period posted", async () => {
    const { offer, customerId, email } = await customerWithOffer();
    await startOfferCheckout(customerId);
    const first = (await offerRow(offer.id)).checkoutSessionId!;
    // A session opened elsewhere for the same offer (an old tab, another attempt).
    const [stripeCustomer] = stripe.calls.filter((c) => c.path === "/v1/customers");
    expect(stripeCustomer).toBeDefined();
    const customerRef = (
      [...stripe.objects.values()].find((o) => o.object === "customer") as { id: string }
    ).id;
    const other = await paymentProvider().startCheckout(
      {
        offerId: offer.id,
        customer: { id: customerId, email, name: "Rosa" },
        planName: "Complete",
        billing: "monthly",
        amountCents: 29_500,
        successUrl: "http://localhost:3998/dashboard",
        cancelUrl: "http://localhost:3998/dashboard",
      },
      customerRef,
      "an-old-tab",
    );
    const paidFirst = stripe.completeCheckout(first);
    const paidSecond = stripe.completeCheckout(other.id);
    // Both of Stripe's events for each, the second's invoice first.
    await deliver(stripe.event("invoice.paid", paidFirst.invoice!));
    await deliver(stripe.event("invoice.paid", paidSecond.invoice!));
    await deliver(stripe.event("checkout.session.completed", paidSecond.session));
    await deliver(stripe.event("checkout.session.completed", paidFirst.session));
    await drain();
    await drain();
    const ms = await membershipOf(customerId);
    expect(ms).toHaveLength(1);
    expect(ms[0].stripeSubscriptionId).toBe(paidFirst.subscriptionId);
    expect(ms[0].periodsCharged).toBe(1);
    const ledger = await ledgerOf(ms[0].id);
    expect(ledger.filter((r) => r.kind === "membership_charge")).toHaveLength(1);
    expect(ledger.filter((r) => r.kind === "payment")).toHaveLength(1);
    expect(ms[0].balanceCents).toBe(0);
    // Through Stripe: the second subscription canceled, its payment refunded in full, once.
    expect(stripe.objects.get(paidSecond.subscriptionId!)!.status).toBe("canceled");
    expect(stripe.objects.get(paidFirst.subscriptionId!)!.status).toBe("active");
    const secondIntent = (
      paidSecond.invoice!.payments as { data: { payment: { payment_intent: string } }[] }
    ).data[0].payment.payment_intent;
    const refunds = stripe.refunds.filter((r) => r.payment_intent === secondIntent);
    expect(refunds).toHaveLength(1);
    expect(refunds[0].amount).toBe(29_500);
    expect((refunds[0].metadata as { source: string }).source).toBe("duplicate");
    const office = (await mailsTo("office@example.com")).filter((m) =>
      m.subject.startsWith("Paid twice, refunded"),
    );
    expect(office).toHaveLength(1);
    expect(office[0].text).toContain(refunds[0].id);
    expect(office[0].text).toContain(paidSecond.subscriptionId!);
    // The daily reconciliation finds nothing to post and nothing to explain.
    const result = await reconcile();
    expect(result.posted).toBe(0);
    expect(
      result.unexplained.filter(
        (l) => l.includes(refunds[0].id) || l.includes(String(paidSecond.invoice!.id)),
      ),
    ).toEqual([]);
    expect((await ledgerOf(ms[0].id)).length).toBe(ledger.length);
  });
});

describe("refunds made in Stripe's dashboard", () => {
  it("are posted to the ledger once, whichever events and reconciliation bring them", async () => {
    const { membership, invoice } = await paidMember();
    const intentId = (invoice!.payments as { data: { payment: { payment_intent: string } }[] })
      .data[0].payment.payment_intent;
    const { refund, charge } = stripe.dashboardRefund(intentId, 10_000);
    const refunded = stripe.event("charge.refunded", charge);
    await Promise.all([deliver(refunded), deliver(refunded)]);
    await deliver(stripe.event("refund.created", refund));
    await deliver(stripe.event("charge.refund.updated", refund));
    await drain();
    // (The stand-in keeps earlier tests' objects: only this member's are looked at.)
    const mine = (lines: string[]) => lines.filter((l) => l.includes(refund.id));
    expect(mine((await reconcile()).unexplained)).toEqual([]);
    const rows = (await ledgerOf(membership.id)).filter((r) => r.kind === "refund_paid");
    expect(rows.map((r) => [r.amountCents, r.providerRef])).toEqual([[10_000, refund.id]]);
    expect(rows[0].description).toContain("Refund made in Stripe");
    const [after] = await membershipOf(membership.customerId);
    expect(after.balanceCents).toBe(10_000);
    const office = (await mailsTo("office@example.com")).filter((m) =>
      m.subject.startsWith("Refund made in Stripe"),
    );
    expect(office).toHaveLength(1);
  });

  it("a lost webhook: the reconciliation posts it, once", async () => {
    const { membership, invoice } = await paidMember();
    const intentId = (invoice!.payments as { data: { payment: { payment_intent: string } }[] })
      .data[0].payment.payment_intent;
    const { refund } = stripe.dashboardRefund(intentId);
    const mine = (lines: string[]) => lines.filter((l) => l.includes(refund.id));
    expect(mine((await reconcile()).unexplained)).toEqual([]);
    await reconcile();
    const rows = (await ledgerOf(membership.id)).filter((r) => r.kind === "refund_paid");
    expect(rows.map((r) => [r.amountCents, r.providerRef])).toEqual([[29_500, refund.id]]);
  });
});

describe("the outbox's attempt cap", () => {
  it("an event naming an object Stripe does not have is tried OUTBOX_MAX_ATTEMPTS times, then waits under 'Failed deliveries' until retried", async () => {
    const { subscriptionId } = await paidMember();
    const invoice = stripe.nextInvoice(subscriptionId!, true, 29_500);
    stripe.objects.delete(invoice.id); // Stripe does not have it (yet)
    await deliver(stripe.event("invoice.paid", invoice));
    for (let i = 0; i < 10; i++) await processOutboxBatch(50);
    const [job] = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "payment_job"), isNull(outbox.deliveredAt)));
    expect(job.attempts).toBe(3);
    expect(job.failedAt).not.toBeNull();
    expect(job.lastError).toMatch(/No such object/);
    // Given up: no longer due, however often the worker looks.
    expect(await processOutboxBatch(50)).toBe(0);
    expect((await database.db.select().from(outbox).where(eq(outbox.id, job.id)))[0].attempts).toBe(
      3,
    );
    const listed = await failedDeliveries();
    expect(listed.map((d) => [d.id, d.attempts])).toEqual([[job.id, 3]]);
    expect(listed[0].summary).toContain("Payments job 'event'");
    // The cause fixed (Stripe has it now), office staff retry it: applied once.
    stripe.objects.set(invoice.id, invoice);
    expect(await retryFailedDelivery(job.id)).toBe(true);
    expect(await retryFailedDelivery(job.id)).toBe(false);
    await drain();
    expect(await failedDeliveries()).toEqual([]);
    const [retried] = await database.db.select().from(outbox).where(eq(outbox.id, job.id));
    expect(retried.deliveredAt).not.toBeNull();
    const ms = await database.db.select().from(memberships);
    expect(ms[0].periodsCharged).toBe(2);
  });
});

/** The moved clock: every payments job due by `at` run as at that instant (the schedule's clock). */
async function runJobsDueBy(at: Date) {
  const due = await database.db
    .select()
    .from(outbox)
    .where(
      and(
        eq(outbox.kind, "payment_job"),
        isNull(outbox.deliveredAt),
        lte(outbox.nextAttemptAt, at),
      ),
    )
    .orderBy(outbox.nextAttemptAt);
  for (const job of due) {
    await runPaymentJob(job.payload as { job: string }, at);
    await database.db.update(outbox).set({ deliveredAt: at }).where(eq(outbox.id, job.id));
  }
  return due.length;
}

const noonOf = (date: string) => new Date(`${date}T12:00:00Z`);

describe("annual renewals through Stripe", () => {
  it("notices 45 and 7 days ahead with the price, the hours and the choices; 'Switch to monthly' bills monthly from the renewal", async () => {
    const { customerId, email, membership, subscriptionId } = await paidMember("annual");
    expect(membership.billing).toBe("annual");
    const renewal = addDays(membership.startDate, 0).replace(/^(\d{4})/, (y) => String(+y + 1));
    await planSchedule(noonOf(businessNow().date));
    const keys = (await database.db.select().from(paymentSchedule)).map((r) => r.key).sort();
    expect(keys).toEqual(
      expect.arrayContaining([
        `renewal-notice-45:${membership.id}:${renewal}`,
        `renewal-notice-7:${membership.id}:${renewal}`,
        `renewal-end:${membership.id}:${renewal}`,
      ]),
    );
    const notices = async () =>
      (await mailsTo(email)).filter((m) => /renews on|switches to monthly|ends on/.test(m.subject));
    // 46 days ahead: nothing yet.
    await runJobsDueBy(noonOf(addDays(renewal, -46)));
    expect(await notices()).toHaveLength(0);
    // 45 days ahead: the first notice.
    await runJobsDueBy(noonOf(addDays(renewal, -45)));
    const first = await notices();
    expect(first).toHaveLength(1);
    expect(first[0].subject).toContain("renews on");
    expect(first[0].text).toContain("$3,540.00");
    expect(first[0].text).toContain("$295.00 a month");
    expect(first[0].text).toMatch(/\d+ h of handyman time/);
    expect(first[0].text).toContain("Switch to monthly");
    expect(first[0].text).toContain("Cancel renewal");
    expect(first[0].text).toContain("http://localhost:3998/dashboard?tab=membership#renewal");
    await runJobsDueBy(noonOf(addDays(renewal, -40)));
    expect(await notices()).toHaveLength(1);
    // The member switches to monthly (ten posts of the form at once: once); Stripe's
    // subscription is told.
    const sent = await Promise.all(
      Array.from({ length: 10 }, () => chooseRenewal(customerId, "monthly", "renewal-key-0000001")),
    );
    expect(sent.filter((r) => r.changed)).toHaveLength(1);
    // The page's other buttons carry the same key: tapped before it redraws, each still acts.
    expect((await chooseRenewal(customerId, "cancel", "renewal-key-0000001")).changed).toBe(true);
    expect((await chooseRenewal(customerId, null, "renewal-key-0000001")).changed).toBe(true);
    expect((await membershipOf(customerId))[0].renewalChoice).toBeNull();
    expect((await chooseRenewal(customerId, "monthly", "renewal-key-0000002")).changed).toBe(true);
    const sub = stripe.objects.get(subscriptionId!)!;
    expect(sub.schedule).toBeTruthy();
    expect(sub.cancel_at_period_end).toBe(false);
    // 7 days ahead: the reminder says what happens now.
    await runJobsDueBy(noonOf(addDays(renewal, -7)));
    const second = await notices();
    expect(second).toHaveLength(2);
    expect(second[1].subject).toContain("switches to monthly");
    expect(second[1].text).toContain("$295.00 a month");
    // The renewal: Stripe bills the month's price; the first monthly period begins that day.
    const invoice = stripe.nextInvoice(subscriptionId!, true);
    expect(invoice.amount_paid).toBe(29_500);
    await deliver(stripe.event("invoice.paid", invoice));
    await drain();
    await runJobsDueBy(noonOf(renewal));
    const [after] = await membershipOf(customerId);
    expect(after.status).toBe("active");
    expect(after.billing).toBe("monthly");
    expect(after.renewalChoice).toBeNull();
    expect(after.periodsCharged).toBe(13);
    const charges = (await ledgerOf(after.id)).filter((r) => r.kind === "membership_charge");
    expect(charges.map((c) => [c.amountCents, c.periodStart])).toEqual([
      [354_000, membership.startDate],
      [29_500, renewal],
    ]);
    expect(after.balanceCents).toBe(0);
  });

  it("'Cancel renewal': Stripe ends the subscription on the renewal date, and so does the membership", async () => {
    const { customerId, email, membership, subscriptionId } = await paidMember("annual");
    const renewal = membership.startDate.replace(/^(\d{4})/, (y) => String(+y + 1));
    await chooseRenewal(customerId, "cancel", null);
    expect(stripe.objects.get(subscriptionId!)!.cancel_at_period_end).toBe(true);
    await planSchedule(noonOf(businessNow().date));
    await runJobsDueBy(noonOf(addDays(renewal, -7)));
    const told = (await mailsTo(email)).filter((m) => m.subject.includes("ends on"));
    expect(told.length).toBeGreaterThanOrEqual(1);
    await runJobsDueBy(noonOf(addDays(renewal, -1)));
    expect((await membershipOf(customerId))[0].status).toBe("active");
    await runJobsDueBy(noonOf(renewal));
    const [after] = await membershipOf(customerId);
    expect(after.status).toBe("canceled");
    expect(after.canceledOn).toBe(renewal);
    expect((await ledgerOf(after.id)).filter((r) => r.kind === "membership_charge")).toHaveLength(
      1,
    );
    // 'Keep annual renewal' is no longer possible: the membership is over.
    await expect(chooseRenewal(customerId, null, null)).rejects.toThrow("annual");
  });

  it("a renewal the card declines makes the membership 'Past due'", async () => {
    const { customerId, subscriptionId } = await paidMember("annual");
    const failed = stripe.nextInvoice(subscriptionId!, false);
    expect(failed.amount_due).toBe(354_000);
    await deliver(stripe.event("invoice.payment_failed", failed));
    await drain();
    const [m] = await membershipOf(customerId);
    expect(m.pastDueSince).toBe(businessNow().date);
    expect(m.periodsCharged).toBe(1);
  });

  it("a renewal the bank asks to authenticate: 'Past due', and the member gets the page to confirm it", async () => {
    const { customerId, email, subscriptionId } = await paidMember("annual");
    const pending = stripe.nextInvoice(subscriptionId!, false);
    await deliver(stripe.event("invoice.payment_action_required", pending));
    await drain();
    const [m] = await membershipOf(customerId);
    expect(m.pastDueSince).toBe(businessNow().date);
    const mail = (await mailsTo(email)).filter((x) => x.subject.includes("confirm"));
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain(String(pending.hosted_invoice_url));
  });
});
