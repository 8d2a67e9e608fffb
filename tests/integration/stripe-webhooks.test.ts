import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  membershipMoneyLedger,
  membershipOffers,
  memberships,
  outbox,
  paymentEvents,
  paymentRefunds,
  user,
} from "~/db/schema";
import { cancelMembership, cancelOwnMembership } from "~/workflows/cancel-membership.server";
import {
  markRefundPaid,
  reconcile,
  refundsToPay,
  registerPaymentJobs,
  sendMembershipOffer,
  startOfferCheckout,
  WEBHOOK_BODY_LIMIT,
} from "~/features/payments/index.server";
import { resetEnvForTests } from "~/lib/env.server";
import { processOutboxBatch } from "~/lib/outbox.server";
import { action as stripeWebhook } from "~/routes/webhooks.stripe";
import { createHome, createUser } from "../../server/seed/factories";
import { startStripeStandIn, type StripeStandIn } from "../support/stripe-stand-in";
import { useTestDatabase, type TestDatabase } from "../support/test-database";
import { businessNow } from "~/lib/business-calendar";

/*
 * Stripe's webhooks through the real SDK against a local stand-in of its API (STRIPE_API_URL),
 * bodies signed with the SDK's generateTestHeaderString. Each handled event type: applied once
 * with a duplicate, safe out of order, refused with a bad signature or an oversized body. A
 * burst of 500 events, 20% duplicates, shuffled: each applied exactly once.
 */

const SECRET = { secretKey: "sk_test_integration", webhookSecret: "whsec_integration_secret" };

let database: TestDatabase;
let stripe: StripeStandIn;
let dataDir: string;

beforeAll(async () => {
  stripe = await startStripeStandIn(SECRET);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "stripe-"));
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: SECRET.secretKey,
    STRIPE_WEBHOOK_SECRET: SECRET.webhookSecret,
    STRIPE_API_URL: stripe.url,
    PUBLIC_URL: "http://localhost:3999",
    DATA_DIR: dataDir,
    BUSINESS_EMAIL: "office@example.com",
  });
  resetEnvForTests();
  database = await useTestDatabase();
  registerPaymentJobs({ endMembership: cancelOwnMembership });
});
afterAll(async () => {
  for (const key of [
    "STRIPE_SECRET_KEY",
    "STRIPE_WEBHOOK_SECRET",
    "STRIPE_API_URL",
    "PUBLIC_URL",
    "DATA_DIR",
    "BUSINESS_EMAIL",
  ])
    delete process.env[key];
  resetEnvForTests();
  await database?.drop();
  await stripe?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.execute(
    sql`truncate "user", outbox, payment_events, payment_refunds, payment_schedule, membership_offers, payment_customers cascade`,
  );
});

function deliver(event: { body: string; signature?: string }) {
  return stripeWebhook({
    request: new Request("http://localhost:3999/webhooks/stripe", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(event.signature ? { "stripe-signature": event.signature } : {}),
      },
      body: event.body,
    }),
  });
}

/** Runs every due outbox item (the payments jobs and the mail they write) until none is left. */
async function drain() {
  for (let i = 0; i < 200; i++) {
    if ((await processOutboxBatch(50)) === 0) return;
  }
}

let counter = 0;
async function customerWithOffer(billing: "monthly" | "annual" = "monthly") {
  counter++;
  const person = await createUser(database.db, {
    email: `member${counter}-${Date.now()}@example.com`,
    password: "Member-pass-2026!",
    firstName: "Rosa",
    lastName: `Member${counter}`,
  });
  await createHome(database.db, person.id);
  const staff = await createUser(database.db, {
    email: `staff${counter}-${Date.now()}@example.com`,
    password: "Staff-pass-2026!",
    firstName: "Sam",
    lastName: "Staff",
    isEmployee: true,
  });
  const offer = await sendMembershipOffer(
    { customerId: person.id, plan: "complete", billing, startDate: businessNow().date },
    staff.id,
  );
  const url = await startOfferCheckout(person.id);
  const [row] = await database.db
    .select()
    .from(membershipOffers)
    .where(eq(membershipOffers.id, offer.id));
  return {
    customerId: person.id,
    staffId: staff.id,
    offer,
    url,
    sessionId: row.checkoutSessionId!,
  };
}

async function membershipOf(customerId: string) {
  const [m] = await database.db
    .select()
    .from(memberships)
    .where(eq(memberships.customerId, customerId));
  return m;
}

async function ledgerOf(membershipId: string) {
  return database.db
    .select()
    .from(membershipMoneyLedger)
    .where(eq(membershipMoneyLedger.membershipId, membershipId))
    .orderBy(membershipMoneyLedger.seq);
}

async function stored() {
  return database.db.select().from(paymentEvents);
}

async function emailOf(customerId: string) {
  const [row] = await database.db.select().from(user).where(eq(user.id, customerId));
  return row.email;
}

async function mailsTo(address: string) {
  const rows = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
  return rows.filter((r) => (r.payload as { to: string }).to === address);
}

describe("the webhook's door", () => {
  it("refuses a missing or wrong signature with 400 and stores nothing", async () => {
    const { sessionId } = await customerWithOffer();
    const { session } = stripe.completeCheckout(sessionId);
    const event = stripe.event("checkout.session.completed", session);
    expect((await deliver({ body: event.body })).status).toBe(400);
    const forged = stripe.event("checkout.session.completed", session);
    const wrong = forged.signature.replace(/v1=[0-9a-f]{4}/, "v1=0000");
    expect((await deliver({ body: forged.body, signature: wrong })).status).toBe(400);
    // A signature of another body.
    expect((await deliver({ body: event.body, signature: forged.signature })).status).toBe(400);
    expect(await stored()).toHaveLength(0);
    expect(
      await database.db.select().from(outbox).where(eq(outbox.kind, "payment_job")),
    ).toHaveLength(0);
  });

  it("refuses an oversized body with 413 and stores nothing, even when signed", async () => {
    const { sessionId } = await customerWithOffer();
    const { session } = stripe.completeCheckout(sessionId);
    const big = stripe.event("checkout.session.completed", {
      ...session,
      metadata: { ...(session.metadata as object), padding: "x".repeat(WEBHOOK_BODY_LIMIT) },
    });
    expect((await deliver(big)).status).toBe(413);
    expect(await stored()).toHaveLength(0);
  });
});

describe("checkout.session.completed", () => {
  it("starts the membership once with its first charge and payment, however often it comes", async () => {
    const { customerId, sessionId } = await customerWithOffer();
    expect(await membershipOf(customerId)).toBeUndefined();
    const { session, invoice } = stripe.completeCheckout(sessionId);
    const event = stripe.event("checkout.session.completed", session);
    // Two deliveries at once, and a replay after.
    const answers = await Promise.all([deliver(event), deliver(event)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    await drain();
    expect((await deliver(event)).status).toBe(200);
    await drain();
    const m = await membershipOf(customerId);
    expect(m.status).toBe("active");
    expect(m.paymentProvider).toBe("stripe");
    const ledger = await ledgerOf(m.id);
    expect(ledger.map((r) => [r.kind, r.amountCents, r.providerRef])).toEqual([
      ["membership_charge", 29_500, `${invoice!.id}:charge`],
      ["payment", -29_500, `${invoice!.id}:payment`],
    ]);
    const events = await stored();
    expect(events).toHaveLength(1);
    expect(events[0].processedAt).not.toBeNull();
  });

  it("annual billing: one payment for the year (a yearly subscription)", async () => {
    const { customerId, sessionId } = await customerWithOffer("annual");
    const { session, invoice } = stripe.completeCheckout(sessionId);
    const intentId = invoice!.id;
    await deliver(stripe.event("checkout.session.completed", session));
    await deliver(stripe.event("checkout.session.completed", session));
    await drain();
    const m = await membershipOf(customerId);
    const ledger = await ledgerOf(m.id);
    expect(ledger.map((r) => [r.kind, r.amountCents, r.providerRef])).toEqual([
      ["membership_charge", 29_500 * 12, `${intentId}:charge`],
      ["payment", -29_500 * 12, `${intentId}:payment`],
    ]);
  });

  it("an unpaid session starts nothing (the browser coming back proves nothing)", async () => {
    const { customerId, sessionId } = await customerWithOffer();
    const session = stripe.objects.get(sessionId)!;
    await deliver(
      stripe.event("checkout.session.completed", { ...session, payment_status: "paid" }),
    );
    await drain();
    expect(await membershipOf(customerId)).toBeUndefined();
  });
});

describe("invoice.paid", () => {
  it("out of order: the invoice before the Checkout's event starts and posts once", async () => {
    const { customerId, sessionId } = await customerWithOffer();
    const { session, invoice } = stripe.completeCheckout(sessionId);
    await deliver(stripe.event("invoice.paid", invoice!));
    await drain();
    await deliver(stripe.event("checkout.session.completed", session));
    await deliver(stripe.event("invoice.payment_succeeded", invoice!));
    await drain();
    const m = await membershipOf(customerId);
    const ledger = await ledgerOf(m.id);
    expect(ledger.filter((r) => r.kind === "membership_charge")).toHaveLength(1);
    expect(ledger.filter((r) => r.kind === "payment")).toHaveLength(1);
  });

  it("each month's invoice posts that period's charge, hours and payment once", async () => {
    const { customerId, sessionId } = await customerWithOffer();
    const { session, subscriptionId } = stripe.completeCheckout(sessionId);
    await deliver(stripe.event("checkout.session.completed", session));
    await drain();
    const second = stripe.nextInvoice(subscriptionId!, true, 29_500);
    const event = stripe.event("invoice.paid", second);
    await deliver(event);
    await deliver(event);
    await drain();
    const m = await membershipOf(customerId);
    const charges = (await ledgerOf(m.id)).filter((r) => r.kind === "membership_charge");
    expect(charges).toHaveLength(2);
    expect(charges[1].periodStart! > charges[0].periodStart!).toBe(true);
    expect(m.periodsCharged).toBe(2);
    expect(m.balanceCents).toBe(0);
  });
});

describe("invoice.payment_failed", () => {
  it("makes the membership 'Past due' and tells the member and the office once", async () => {
    const { customerId, sessionId } = await customerWithOffer();
    const { session, subscriptionId } = stripe.completeCheckout(sessionId);
    await deliver(stripe.event("checkout.session.completed", session));
    await drain();
    const failed = stripe.nextInvoice(subscriptionId!, false, 29_500);
    const event = stripe.event("invoice.payment_failed", failed);
    await deliver(event);
    await deliver(event);
    await deliver(stripe.event("invoice.payment_failed", failed)); // Stripe's next attempt
    await drain();
    const m = await membershipOf(customerId);
    expect(m.pastDueSince).toBe(businessNow().date);
    const office = await mailsTo("office@example.com");
    expect(
      office.filter((r) =>
        (r.payload as { subject: string }).subject.startsWith("Card payment failed"),
      ),
    ).toHaveLength(1);
    const member = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipientId, customerId), eq(outbox.kind, "email")));
    const told = member.filter((r) =>
      (r.payload as { subject: string }).subject.includes("did not go through"),
    );
    expect(told).toHaveLength(1);
    expect((told[0].payload as { text: string }).text).toContain("Update card");
    // Stripe's retry succeeds: paid, no longer past due.
    const paid = stripe.payInvoice(failed.id);
    await deliver(stripe.event("invoice.paid", paid));
    await drain();
    expect((await membershipOf(customerId)).pastDueSince).toBeNull();
  });

  it("out of order: a failure read after the invoice was paid posts the payment, not 'Past due'", async () => {
    const { customerId, sessionId } = await customerWithOffer();
    const { session, subscriptionId } = stripe.completeCheckout(sessionId);
    await deliver(stripe.event("checkout.session.completed", session));
    await drain();
    const invoice = stripe.nextInvoice(subscriptionId!, false, 29_500);
    const failedEvent = stripe.event("invoice.payment_failed", invoice);
    const paidEvent = stripe.event("invoice.paid", stripe.payInvoice(invoice.id));
    await deliver(paidEvent);
    await deliver(failedEvent);
    await drain();
    const m = await membershipOf(customerId);
    expect(m.pastDueSince).toBeNull();
    expect((await ledgerOf(m.id)).filter((r) => r.kind === "payment")).toHaveLength(2);
  });
});

describe("refunds", () => {
  it("a cancel's refund goes back to the card once, with an idempotency key; Stripe stops billing", async () => {
    const { customerId, staffId, sessionId } = await customerWithOffer();
    const { session, subscriptionId } = stripe.completeCheckout(sessionId);
    await deliver(stripe.event("checkout.session.completed", session));
    await drain();
    const m = await membershipOf(customerId);
    const before = stripe.refunds.length;
    const { quote, settlement } = await cancelMembership(
      { membershipId: m.id },
      { id: staffId, isEmployee: true },
    );
    expect(quote.refundCents).toBeGreaterThan(0);
    // Stripe and a card payment: the member is told it goes back to the card (ADR 081).
    expect(settlement.howLabel).toBe("Back to the card you paid with, within 10 days.");
    await drain();
    await drain();
    const made = stripe.refunds.slice(before);
    expect(made).toHaveLength(1);
    const told = (await mailsTo(await emailOf(customerId))).map(
      (r) => r.payload as { subject: string; text: string },
    );
    const sentMail = told.find((t) => t.subject.startsWith("Your refund of"))!;
    expect(sentMail.text).toContain("back to the card you paid with");
    expect(sentMail.text).toContain(`Reference: ${made[0].id}.`);
    expect(made[0].amount).toBe(quote.refundCents);
    const calls = stripe.calls.filter((c) => c.method === "POST" && c.path === "/v1/refunds");
    expect(calls.at(-1)!.idempotencyKey).toMatch(/^refund-/);
    const ledger = await ledgerOf(m.id);
    const paid = ledger.filter((r) => r.kind === "refund_paid");
    expect(paid.map((r) => [r.amountCents, r.providerRef])).toEqual([
      [quote.refundCents, made[0].id],
    ]);
    expect(ledger.at(-1)!.balanceAfter).toBe(0);
    const [refund] = await database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.membershipId, m.id));
    expect(refund.status).toBe("paid");
    // The subscription is canceled in Stripe: no month is billed after the cancel.
    expect(stripe.objects.get(subscriptionId!)!.status).toBe("canceled");
  });

  it("what cannot go to a card is listed under 'Refunds to pay' until 'Mark refund paid'", async () => {
    const { customerId, staffId, sessionId } = await customerWithOffer();
    const { session } = stripe.completeCheckout(sessionId);
    await deliver(stripe.event("checkout.session.completed", session));
    await drain();
    const m = await membershipOf(customerId);
    // Paid by hand too: the card refund covers only the card's payment.
    await database.db
      .update(memberships)
      .set({ paymentProvider: null })
      .where(eq(memberships.id, m.id));
    const { settlement } = await cancelMembership(
      { membershipId: m.id },
      { id: staffId, isEmployee: true },
    );
    // Not collected by Stripe any more: the office sends it, and the member is told so.
    expect(settlement.howLabel).toMatch(
      /^We will send you \$[\d,.]+ by check or bank transfer within 10 days\.$/,
    );
    await drain();
    const owed = (await refundsToPay()).filter((r) => r.membershipId === m.id);
    expect(owed).toHaveLength(1);
    await markRefundPaid(
      { refundId: owed[0].id, method: "check", reference: "Check 1042" },
      staffId,
    );
    const told = (await mailsTo(await emailOf(customerId))).map(
      (r) => r.payload as { subject: string; text: string },
    );
    const sentMail = told.find((t) => t.subject.startsWith("Your refund of"))!;
    expect(sentMail.text).toContain(" by check on ");
    expect(sentMail.text).toContain("Reference: Check 1042.");
    await expect(
      markRefundPaid({ refundId: owed[0].id, method: "check", reference: "Check 1042" }, staffId),
    ).rejects.toThrow("not waiting");
    const ledger = await ledgerOf(m.id);
    expect(ledger.filter((r) => r.kind === "refund_paid")).toHaveLength(1);
    expect(ledger.at(-1)!.balanceAfter).toBe(0);
    expect((await refundsToPay()).filter((r) => r.membershipId === m.id)).toHaveLength(0);
  });
});

describe("reconciliation", () => {
  it("posts a payment whose webhook was lost, once, and reports a refund the ledger lacks", async () => {
    const { customerId, sessionId } = await customerWithOffer();
    const { session, subscriptionId } = stripe.completeCheckout(sessionId);
    await deliver(stripe.event("checkout.session.completed", session));
    await drain();
    stripe.nextInvoice(subscriptionId!, true, 29_500); // its webhook never came
    const first = await reconcile();
    const second = await reconcile();
    expect(first.posted).toBe(1);
    expect(second.posted).toBe(0);
    const m = await membershipOf(customerId);
    expect((await ledgerOf(m.id)).filter((r) => r.kind === "membership_charge")).toHaveLength(2);
  });
});

describe("a burst", () => {
  it("500 events, 20% duplicates, shuffled: each applied exactly once", async () => {
    const members = [];
    for (let i = 0; i < 20; i++) members.push(await customerWithOffer());
    const unique: ReturnType<StripeStandIn["event"]>[] = [];
    for (const member of members) {
      const { session, subscriptionId } = stripe.completeCheckout(member.sessionId);
      unique.push(stripe.event("checkout.session.completed", session));
      for (let k = 0; k < 19; k++) {
        unique.push(
          stripe.event("invoice.paid", stripe.nextInvoice(subscriptionId!, true, 29_500)),
        );
      }
    }
    expect(unique).toHaveLength(400);
    const all = [...unique, ...unique.slice(0, 100)];
    let seed = 27;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = all.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [all[i], all[j]] = [all[j], all[i]];
    }
    const started = performance.now();
    for (let i = 0; i < all.length; i += 10) {
      const answers = await Promise.all(all.slice(i, i + 10).map(deliver));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    }
    await drain();
    const ms = performance.now() - started;
    console.log(
      `stripe burst: 500 events (100 duplicates) stored and applied in ${Math.round(ms)} ms`,
    );
    const events = await stored();
    expect(events).toHaveLength(400);
    expect(events.every((e) => e.processedAt)).toBe(true);
    const refs = await database.db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(membershipMoneyLedger)
      .where(isNotNull(membershipMoneyLedger.providerRef));
    expect(refs[0].count).toBe(800);
    for (const member of members) {
      const m = await membershipOf(member.customerId);
      expect(m.periodsCharged).toBe(20);
      expect(m.balanceCents).toBe(0);
    }
  }, 240_000);
});
