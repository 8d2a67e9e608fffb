import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  actionKeys,
  membershipMinutesLedger,
  membershipMoneyLedger,
  membershipOffers,
  memberships,
  outbox,
  paymentRefunds,
} from "~/db/schema";
import { completeVisit } from "~/features/visits/visit-life.server";
import { saveTextConsent } from "~/lib/texts.server";
import {
  markRefundPaid,
  refundsToPay,
  sendMembershipOffer,
  startOfferByHand,
} from "~/features/payments/index.server";
import { SMS_SEGMENT } from "~/features/payments/offer-messages.server";
import { ALREADY_DONE, FORM_OUT_OF_DATE, newActionKey } from "~/lib/action-keys.server";
import { business } from "~/lib/business.server";
import { addDays, businessNow } from "~/lib/business-calendar";
import { resetEnvForTests } from "~/lib/env.server";
import { action as dashboardAction } from "~/routes/dashboard";
import { action as membershipAction } from "~/routes/employee.customers.$customerId.membership";
import {
  createHome,
  createMemberVisit,
  createMembership,
  createUser,
} from "../../server/seed/factories";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Issue 39, item 1: every staff form that writes money or work, and both cancels, carry an
 * idempotency key (ADR 048) and are applied once however often they arrive. Each form is posted
 * ten times at once with one key through the route's own action, on PGlite and on PostgreSQL
 * (TEST_DB=postgres), and the database holds one effect; the nine others are answered "Already
 * done". A refund above the money received is refused by the transaction. Issue 40, item 1:
 * 'Send membership offer' and its withdrawal e-mail the customer, and text her when she takes
 * texts, in one segment naming the business once.
 */

const session = vi.hoisted(() => ({ staffId: "", customerId: "" }));
vi.mock("~/lib/session.server", async (importOriginal) => {
  const original = await importOriginal<Record<string, unknown>>();
  const staff = async () => ({
    id: session.staffId,
    isEmployee: true,
    isHandyman: false,
    hasHome: false,
  });
  const customer = async () => ({
    id: session.customerId,
    isEmployee: false,
    isHandyman: false,
    hasHome: true,
  });
  return {
    ...original,
    requireEmployee: staff,
    requireEmployeeForAction: staff,
    requireStaff: staff,
    requireStaffForAction: staff,
    requireCustomer: customer,
    requireCustomerForAction: customer,
  };
});

let database: TestDatabase;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "money-once-"));
  Object.assign(process.env, { DATA_DIR: dataDir, BUSINESS_EMAIL: "office@example.com" });
  delete process.env.STRIPE_SECRET_KEY;
  delete process.env.STRIPE_WEBHOOK_SECRET;
  resetEnvForTests();
  database = await useTestDatabase();
});
afterAll(async () => {
  delete process.env.DATA_DIR;
  delete process.env.BUSINESS_EMAIL;
  resetEnvForTests();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let member: { id: string; email: string };
let homeId: string;
beforeEach(async () => {
  await database.db.execute(
    sql`truncate "user", outbox, payment_refunds, membership_offers, action_keys cascade`,
  );
  const staff = await createUser(database.db, {
    email: "office@example.com",
    password: "Staff-pass-2026!",
    firstName: "Sam",
    lastName: "Office",
    isEmployee: true,
  });
  member = await createUser(database.db, {
    email: "ada@example.com",
    password: "Member-pass-2026!",
    firstName: "Ada",
    lastName: "Lovelace",
  });
  homeId = (await createHome(database.db, member.id)).id;
  session.staffId = staff.id;
  session.customerId = member.id;
});

type Answer = {
  ok: boolean;
  message: string;
  status: number;
};

function read(answer: unknown): Answer {
  if (answer instanceof Response) return { ok: false, message: "", status: answer.status };
  const a = answer as {
    data?: { ok: boolean; message: string };
    init?: { status?: number };
    ok?: boolean;
    message?: string;
  };
  if (a.data) return { ...a.data, status: a.init?.status ?? 200 };
  return { ok: Boolean(a.ok), message: a.message ?? "", status: 200 };
}

function formPost(url: string, fields: Record<string, string>) {
  return new Request(`http://localhost${url}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { accept: "application/json" },
  });
}

/** Staff's membership page's form, posted once. */
async function staffPost(fields: Record<string, string>) {
  const url = `/employee/customers/${member.id}/membership`;
  return read(
    await membershipAction({
      request: formPost(url, fields),
      params: { customerId: member.id },
      context: {},
    } as never),
  );
}

/** The member's own membership form (the Plan tab's cancel), posted once. */
async function memberPost(fields: Record<string, string>) {
  return read(
    await dashboardAction({
      request: formPost("/dashboard?tab=membership", fields),
      params: {},
      context: {},
    } as never),
  );
}

/** The same form, with one key, ten times at once: exactly one is applied. */
async function tenAtOnce(post: () => Promise<Answer>, message: string) {
  const answers = await Promise.all(Array.from({ length: 10 }, post));
  expect(answers.filter((a) => a.ok && a.message === message)).toHaveLength(1);
  expect(answers.filter((a) => a.ok && a.message === ALREADY_DONE)).toHaveLength(9);
  // Posted again later (a reload, a retry): answered as applied, nothing more.
  expect(await post()).toMatchObject({ ok: true, message: ALREADY_DONE });
}

const today = () => businessNow().date;

/** The unique index a write was refused by (the test fails if it was written). */
async function uniqueViolation(write: Promise<unknown>) {
  try {
    await write;
  } catch (error) {
    const cause = ((error as { cause?: unknown }).cause ?? error) as {
      code?: string;
      constraint?: string;
    };
    expect(cause.code).toBe("23505");
    return cause.constraint;
  }
  throw new Error("the write was not refused");
}

async function moneyRows(kind: "payment" | "refund" | "refund_paid" | "membership_charge") {
  return database.db
    .select()
    .from(membershipMoneyLedger)
    .where(eq(membershipMoneyLedger.kind, kind));
}

async function mailsTo(email: string, subject: RegExp) {
  const rows = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
  return rows
    .map((r) => r.payload as { to: string; subject: string; text: string; html: string })
    .filter((p) => p.to === email && subject.test(p.subject));
}

async function textsTo(recipientId: string) {
  const rows = await database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, "sms"), eq(outbox.recipientId, recipientId)));
  return rows.map((r) => (r.payload as { body: string }).body);
}

async function offerTo(customerId: string, startDate = today()) {
  return sendMembershipOffer(
    { customerId, plan: "essential", billing: "monthly", startDate },
    session.staffId,
  );
}

/** A member who paid $175 by hand and canceled within the guarantee: $175 to pay back. */
async function canceledWithRefundOwed() {
  await offerTo(member.id);
  const m = await startOfferByHand(
    member.id,
    { amountCents: 17_500, method: "check", reference: "101" },
    session.staffId,
    today(),
  );
  const canceled = await staffPost({ intent: "cancel", key: newActionKey() });
  expect(canceled).toMatchObject({ ok: true, message: "Membership canceled." });
  const [owed] = await refundsToPay();
  return { membership: m, refund: owed };
}

describe("each staff form that writes money or work, ten times at once with one key", () => {
  it("'Record first payment and start': one membership, one payment, one charge", async () => {
    await offerTo(member.id);
    const fields = {
      intent: "offer-payment",
      key: newActionKey(),
      amount: "175",
      method: "check",
      reference: "Check 1042",
    };
    await tenAtOnce(() => staffPost(fields), "First payment recorded: the membership started.");
    expect(await database.db.$count(memberships)).toBe(1);
    expect(await moneyRows("payment")).toHaveLength(1);
    expect(await moneyRows("membership_charge")).toHaveLength(1);
    const [m] = await database.db.select().from(memberships);
    expect(m.balanceCents).toBe(0);
    // Another form (another key) for the same offer: the offer is no longer open.
    const other = await staffPost({ ...fields, key: newActionKey() });
    expect(other).toMatchObject({ ok: false, message: "There is no open membership offer." });
    expect(await moneyRows("payment")).toHaveLength(1);
  });

  it("'Record payment': one payment", async () => {
    await createMembership(database.db, member.id, { startDate: today() });
    const fields = { intent: "payment", key: newActionKey(), amount: "295", method: "cash" };
    await tenAtOnce(() => staffPost(fields), "Payment recorded.");
    const payments = await moneyRows("payment");
    expect(payments.map((p) => p.amountCents)).toEqual([-29_500]);
  });

  it("'Mark refund paid': the refund paid once", async () => {
    const { refund } = await canceledWithRefundOwed();
    expect(refund.amountCents).toBe(17_500);
    const fields = {
      intent: "mark-refund-paid",
      key: newActionKey(),
      refundId: refund.id,
      method: "check",
      reference: "Check 2001",
    };
    await tenAtOnce(() => staffPost(fields), "Refund marked paid.");
    expect((await moneyRows("refund_paid")).map((r) => r.amountCents)).toEqual([17_500]);
    expect(await refundsToPay()).toHaveLength(0);
  });

  it("'Send membership offer': one offer, one e-mail", async () => {
    const fields = {
      intent: "send-offer",
      key: newActionKey(),
      plan: "essential",
      billing: "monthly",
      startDate: addDays(today(), 3),
    };
    await tenAtOnce(() => staffPost(fields), "Membership offer sent.");
    expect(await database.db.$count(membershipOffers)).toBe(1);
    expect(await mailsTo(member.email, /membership offer/i)).toHaveLength(1);
  });

  it("'Withdraw offer': withdrawn and told once", async () => {
    await offerTo(member.id);
    const fields = { intent: "withdraw-offer", key: newActionKey() };
    await tenAtOnce(() => staffPost(fields), "Offer withdrawn.");
    expect(await mailsTo(member.email, /withdrawn/)).toHaveLength(1);
  });

  it("staff's 'Start Membership': one membership, its first payment, its hours once", async () => {
    const fields = {
      intent: "start",
      key: newActionKey(),
      plan: "complete",
      billing: "monthly",
      startDate: today(),
      amount: "295",
      method: "check",
      reference: "Check 7",
    };
    await tenAtOnce(() => staffPost(fields), "First payment recorded: the membership started.");
    expect(await database.db.$count(memberships)).toBe(1);
    expect(await moneyRows("payment")).toHaveLength(1);
    const accruals = await database.db
      .select()
      .from(membershipMinutesLedger)
      .where(eq(membershipMinutesLedger.kind, "accrual"));
    expect(accruals).toHaveLength(1);
  });

  it("'Correct time worked': one correction", async () => {
    const m = await createMembership(database.db, member.id, {
      startDate: addDays(today(), -10),
    });
    const { appointment } = await createMemberVisit(
      database.db,
      { id: homeId, customerId: member.id },
      {
        scheduledDate: addDays(today(), -1),
        startTime: "09:00",
        endTime: "10:45",
        tasks: ["Faucet"],
        today: addDays(today(), -2),
      },
    );
    const [task] = await database.db
      .execute<{ id: string }>(
        sql`select id from appointment_tasks where appointment_id = ${appointment.id}`,
      )
      .then((r) => (Array.isArray(r) ? r : (r as { rows: { id: string }[] }).rows));
    await completeVisit({ id: session.staffId, isEmployee: true }, appointment.id, {
      minutesWorked: 90,
      outcomes: { [task.id]: "done" },
    });
    const fields = {
      intent: "correct-time",
      key: newActionKey(),
      appointmentId: appointment.id,
      minutesWorked: "60",
      reason: "Receipt shows 9:00 to 10:00",
    };
    await tenAtOnce(() => staffPost(fields), "Time worked corrected.");
    const corrections = await database.db
      .select()
      .from(membershipMinutesLedger)
      .where(
        and(
          eq(membershipMinutesLedger.membershipId, m.id),
          eq(membershipMinutesLedger.kind, "correction"),
        ),
      );
    expect(corrections.map((c) => c.minutes)).toEqual([30]);
  });

  it("staff's cancel: canceled once, one refund, one e-mail", async () => {
    await offerTo(member.id);
    await startOfferByHand(
      member.id,
      { amountCents: 17_500, method: "check", reference: "" },
      session.staffId,
      today(),
    );
    const fields = { intent: "cancel", key: newActionKey() };
    await tenAtOnce(() => staffPost(fields), "Membership canceled.");
    expect(await moneyRows("refund")).toHaveLength(1);
    expect(await database.db.$count(paymentRefunds)).toBe(1);
    expect(await mailsTo(member.email, /canceled/i)).toHaveLength(1);
    const [owed] = await refundsToPay();
    expect(owed.amountCents).toBeLessThanOrEqual(17_500);
  });

  it("the member's own cancel: canceled once, one refund", async () => {
    await offerTo(member.id);
    await startOfferByHand(
      member.id,
      { amountCents: 17_500, method: "check", reference: "" },
      session.staffId,
      today(),
    );
    const fields = { intent: "cancel", key: newActionKey() };
    await tenAtOnce(
      () => memberPost(fields),
      "Your membership is canceled. What was settled is shown below.",
    );
    expect(await moneyRows("refund")).toHaveLength(1);
    expect(await database.db.$count(paymentRefunds)).toBe(1);
    const [m] = await database.db.select().from(memberships);
    expect(m.status).toBe("canceled");
  });

  it("a form without its key is refused and changes nothing", async () => {
    await createMembership(database.db, member.id, { startDate: today() });
    const answer = await staffPost({ intent: "payment", amount: "295", method: "cash" });
    expect(answer).toMatchObject({ ok: false, message: FORM_OUT_OF_DATE, status: 400 });
    expect(await memberPost({ intent: "cancel" })).toMatchObject({
      ok: false,
      message: FORM_OUT_OF_DATE,
    });
    expect(await moneyRows("payment")).toHaveLength(0);
    expect(await database.db.$count(actionKeys)).toBe(0);
  });
});

describe("where a key alone is not enough, the database holds one effect", () => {
  it("an offer starts one membership with one first payment, whatever forms race", async () => {
    const offer = await offerTo(member.id);
    // Ten different forms (two staff, two tabs): each its own key.
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        startOfferByHand(
          member.id,
          { amountCents: 17_500, method: "check", reference: "" },
          session.staffId,
          today(),
          newActionKey(),
        ),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled" && r.value)).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected"))
      expect(String((r as PromiseRejectedResult).reason)).toContain(
        "There is no open membership offer.",
      );
    expect(await database.db.$count(memberships)).toBe(1);
    expect(await moneyRows("payment")).toHaveLength(1);
    const [m] = await database.db.select().from(memberships);
    expect(m.offerId).toBe(offer.id);
    // The unique indexes, should any path write twice: a second membership of the offer, or a
    // second first payment, is refused by the database itself.
    await database.db
      .update(memberships)
      .set({ status: "canceled" })
      .where(eq(memberships.id, m.id));
    expect(
      await uniqueViolation(
        database.db.insert(memberships).values({ ...m, id: undefined, status: "active" }),
      ),
    ).toBe("memberships_one_per_offer");
    const [payment] = await moneyRows("payment");
    expect(payment.providerRef).toBe(`offer:${offer.id}:first-payment`);
    const { id: _id, seq: _seq, ...copy } = payment;
    expect(await uniqueViolation(database.db.insert(membershipMoneyLedger).values(copy))).toBe(
      "membership_money_ledger_provider_ref",
    );
  });

  it("staff's direct start posts no hours without its first payment (issue 39, item 8)", async () => {
    const refused = await staffPost({
      intent: "start",
      key: newActionKey(),
      plan: "complete",
      billing: "monthly",
      startDate: today(),
    });
    expect(refused.ok).toBe(false);
    expect(await database.db.$count(memberships)).toBe(0);
    expect(await database.db.$count(membershipMinutesLedger)).toBe(0);
    const started = await staffPost({
      intent: "start",
      key: newActionKey(),
      plan: "complete",
      billing: "monthly",
      startDate: today(),
      amount: "295",
      method: "cash",
    });
    expect(started.ok).toBe(true);
    const [accrual] = await database.db.select().from(membershipMinutesLedger);
    const [payment] = await moneyRows("payment");
    // The hours arrive with the payment that pays them, in one transaction.
    expect(accrual.note).toMatch(/^Hours paid for /);
    expect(payment.amountCents).toBe(-29_500);
    const [m] = await database.db.select().from(memberships);
    expect(m.balanceCents).toBe(0);
  });
});

describe("a refund never exceeds the money received", () => {
  it("'Mark refund paid' for more than was received is refused, nothing changed", async () => {
    const { membership, refund } = await canceledWithRefundOwed();
    // A refund row claiming ten times the money received (the walk's $1,750 for $175).
    await database.db
      .update(paymentRefunds)
      .set({ amountCents: 175_000 })
      .where(eq(paymentRefunds.id, refund.id));
    const before = await database.db.select().from(membershipMoneyLedger);
    const answer = await staffPost({
      intent: "mark-refund-paid",
      key: newActionKey(),
      refundId: refund.id,
      method: "check",
      reference: "",
    });
    expect(answer.ok).toBe(false);
    expect(answer.status).toBe(409);
    expect(answer.message).toBe(
      "A refund cannot be more than the money received: $1,750.00 asked, $175.00 received, so at most $175.00. Nothing was changed.",
    );
    expect(await database.db.select().from(membershipMoneyLedger)).toEqual(before);
    const [still] = await database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.id, refund.id));
    expect(still.status).toBe("to_pay");
    expect(await database.db.$count(actionKeys)).toBe(1); // the cancel's only
    // Paid back in part already: what is left to refund is the bound.
    await database.db
      .update(paymentRefunds)
      .set({ amountCents: 17_500 })
      .where(eq(paymentRefunds.id, refund.id));
    await markRefundPaid({ refundId: refund.id, method: "cash", reference: "" }, session.staffId);
    const [paid] = await database.db
      .select()
      .from(memberships)
      .where(eq(memberships.id, membership.id));
    expect(paid.balanceCents).toBe(0);
  });
});

describe("an offer reaches the person (issue 40, item 1)", () => {
  it("'Send membership offer' e-mails and texts her; withdrawing it tells her too", async () => {
    await saveTextConsent(database.db, member.id, {
      mobilePhone: "(404) 555-0181",
      consent: true,
      source: "test",
    });
    const startDate = addDays(today(), 5);
    const sent = await staffPost({
      intent: "send-offer",
      key: newActionKey(),
      plan: "essential",
      billing: "monthly",
      startDate,
    });
    expect(sent).toMatchObject({ ok: true, message: "Membership offer sent." });
    const [mail] = await mailsTo(member.email, /membership offer/i);
    expect(mail.subject).toBe("Your membership offer: Essential Home Care");
    const longStart = new Intl.DateTimeFormat("en-US", {
      month: "long",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${startDate}T12:00:00Z`));
    for (const words of [
      "Essential Home Care",
      "$175.00 a month (monthly billing)",
      `Starts: ${longStart}`,
      "17 h 30 min of work",
      "/dashboard?tab=membership",
      "Plan tab",
    ])
      expect(mail.text).toContain(words);
    const [text] = await textsTo(member.id);
    expect(text.length).toBeLessThanOrEqual(SMS_SEGMENT);
    expect(text).toMatch(/^[\x20-\x7e]+$/);
    expect(text.split(business().name)).toHaveLength(2);
    expect(text).toContain("/dashboard?tab=membership");
    expect(text).toContain("$175.00");

    const withdrawn = await staffPost({ intent: "withdraw-offer", key: newActionKey() });
    expect(withdrawn).toMatchObject({ ok: true, message: "Offer withdrawn." });
    const [gone] = await mailsTo(member.email, /withdrawn/);
    expect(gone.subject).toBe("Your membership offer was withdrawn");
    expect(gone.text).toContain("Essential Home Care");
    const texts = await textsTo(member.id);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toContain("withdrawn");
    expect(texts[1].length).toBeLessThanOrEqual(SMS_SEGMENT);
    expect(texts[1].split(business().name)).toHaveLength(2);
  });

  it("the text stays within one segment with a long site address", async () => {
    Object.assign(process.env, {
      PUBLIC_URL: "https://members.peachtree-handyman-club.example.com",
    });
    resetEnvForTests();
    try {
      await saveTextConsent(database.db, member.id, {
        mobilePhone: "(404) 555-0181",
        consent: true,
        source: "test",
      });
      await offerTo(member.id, addDays(today(), 5));
      const [text] = await textsTo(member.id);
      expect(text.length).toBeLessThanOrEqual(SMS_SEGMENT);
      expect(text.startsWith(`${business().name}: `)).toBe(true);
      expect(text.split(business().name)).toHaveLength(2);
      // The shorter wording, still with the plan, the price, the day and the link.
      expect(text).toContain("Essential Home Care");
      expect(text).toContain("$175.00/mo");
      expect(text).toContain(
        "https://members.peachtree-handyman-club.example.com/dashboard?tab=membership",
      );
    } finally {
      delete process.env.PUBLIC_URL;
      resetEnvForTests();
    }
  });

  it("a customer who does not take texts gets the e-mail only", async () => {
    const sent = await staffPost({
      intent: "send-offer",
      key: newActionKey(),
      plan: "total",
      billing: "annual",
      startDate: today(),
    });
    expect(sent.ok).toBe(true);
    const [mail] = await mailsTo(member.email, /membership offer/i);
    expect(mail.text).toContain("a year, paid upfront (annual billing)");
    expect(await textsTo(member.id)).toHaveLength(0);
  });
});
