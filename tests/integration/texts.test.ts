import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import twilio from "twilio";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outbox, profiles, textConsentEvents } from "~/db/schema";
import {
  alertOffice,
  messagesFor,
  receiveTextStatus,
  saveTextConsent,
  textCustomer,
} from "~/features/notifications/notifications.server";
import { resetEnvForTests } from "~/lib/env.server";
import { processOutboxBatch } from "~/lib/outbox.server";
import { textSendableAt } from "~/lib/sms.server";
import { deliverText } from "~/lib/texts.server";
import { action as replyWebhook } from "~/routes/webhooks.twilio.sms";
import { createUser } from "../../server/seed/factories";
import { INVALID_NUMBER, startTwilioStandIn } from "../support/twilio-stand-in";
import { useTestDatabase, type TestDatabase } from "../support/test-database";

/*
 * Texts through the real Twilio SDK, pointed at a local stand-in of its Messages endpoint
 * (TWILIO_API_URL); replies signed with the SDK's own signature helper. Quiet hours with a fixed
 * clock; a STOP while a reminder waits in the outbox stops it.
 */

const SID = "AC00000000000000000000000000000001";
const TOKEN = "twilio-test-auth-token";
const PUBLIC_URL = "http://localhost:3999";

let database: TestDatabase;
let standIn: Awaited<ReturnType<typeof startTwilioStandIn>>;
let dataDir: string;

beforeAll(async () => {
  standIn = await startTwilioStandIn({ accountSid: SID, authToken: TOKEN });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "texts-"));
  Object.assign(process.env, {
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: "+14045550142",
    TWILIO_API_URL: standIn.url,
    PUBLIC_URL,
    DATA_DIR: dataDir,
    BUSINESS_EMAIL: "office@example.com",
    OFFICE_MOBILE: "(404) 555-0199",
  });
  resetEnvForTests();
  database = await useTestDatabase();
});
afterAll(async () => {
  for (const key of [
    "TWILIO_ACCOUNT_SID",
    "TWILIO_AUTH_TOKEN",
    "TWILIO_FROM",
    "TWILIO_API_URL",
    "PUBLIC_URL",
    "DATA_DIR",
    "BUSINESS_EMAIL",
    "OFFICE_MOBILE",
  ])
    delete process.env[key];
  resetEnvForTests();
  await database?.drop();
  await standIn?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.execute(sql`truncate "user", outbox, text_consent_events cascade`);
  standIn.texts.length = 0;
});

// Tuesday 24 November 2026 at 10:00 AM in Atlanta.
const DAYTIME = new Date("2026-11-24T15:00:00Z");

async function member(phone = "(404) 555-0181", consent = true) {
  const person = await createUser(database.db, {
    email: `m-${crypto.randomUUID()}@example.com`,
    password: "x",
    firstName: "Maria",
    lastName: "Alvarez",
  });
  await saveTextConsent(database.db, person.id, { mobilePhone: phone, consent, source: "test" });
  return person;
}

async function drain() {
  while ((await processOutboxBatch()) > 0) {
    // until nothing is due
  }
}

function signedReply(form: Record<string, string>, signature?: string) {
  const url = `${PUBLIC_URL}/webhooks/twilio/sms`;
  return new Request(url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": signature ?? twilio.getExpectedTwilioSignature(TOKEN, url, form),
    },
    body: new URLSearchParams(form).toString(),
  });
}

async function postReply(form: Record<string, string>, signature?: string) {
  return (await replyWebhook({
    request: signedReply(form, signature),
    params: {},
    context: {},
  } as never)) as Response;
}

describe("texts", () => {
  it("waits through quiet hours: 9 PM to 8 AM Eastern, sent from 8 AM", () => {
    // 9:30 PM Eastern on Tuesday → 8 AM Wednesday.
    expect(textSendableAt(new Date("2026-11-25T02:30:00Z")).toISOString()).toBe(
      "2026-11-25T13:00:00.000Z",
    );
    // 6:59 AM Eastern → 8 AM the same day.
    expect(textSendableAt(new Date("2026-11-25T11:59:00Z")).toISOString()).toBe(
      "2026-11-25T13:00:00.000Z",
    );
    // 8:00 AM and 8:59 PM are sendable as they are.
    for (const at of ["2026-11-25T13:00:00Z", "2026-11-26T01:59:00Z"])
      expect(textSendableAt(new Date(at)).toISOString()).toBe(new Date(at).toISOString());
    // Summer time: 10 PM EDT (02:00 UTC) → 8 AM EDT (12:00 UTC).
    expect(textSendableAt(new Date("2026-07-15T02:00:00Z")).toISOString()).toBe(
      "2026-07-15T12:00:00.000Z",
    );
  });

  it("a text due at night is held until 8 AM, not sent", async () => {
    const person = await member();
    const night = new Date("2026-11-25T03:00:00Z"); // 10 PM Eastern
    const outcome = await deliverText(
      { recipientId: person.id, kind: "reminders", body: "Reminder" },
      crypto.randomUUID(),
      night,
    );
    expect(outcome).toEqual({
      defer: new Date("2026-11-25T13:00:00Z"),
      note: expect.stringContaining("8 AM"),
    });
    expect(standIn.texts).toHaveLength(0);
    const day = await deliverText(
      { recipientId: person.id, kind: "reminders", body: "Reminder" },
      crypto.randomUUID(),
      DAYTIME,
    );
    expect(day).toMatchObject({ status: "queued", providerId: expect.stringMatching(/^SM/) });
    expect(standIn.texts.map((t) => [t.to, t.body])).toEqual([["+14045550181", "Reminder"]]);
  });

  it("sends through the SDK to the stand-in, records the SID, and lists it under Messages", async () => {
    const person = await member();
    await textCustomer(database.db, {
      recipientId: person.id,
      kind: "visit-changes",
      body: "Peachtree Handyman Club: your visit is booked for Mon, Nov 30, 9:00 AM.",
      fallbackSubject: "Your visit is booked",
    });
    await drain();
    // Outside quiet hours only; at night the text is held (the previous test).
    const now = new Date();
    const quiet = textSendableAt(now) > now;
    expect(standIn.texts).toHaveLength(quiet ? 0 : 1);
    const [row] = await database.db.select().from(outbox).where(eq(outbox.kind, "sms"));
    if (!quiet) {
      expect(row.providerId).toBe(standIn.texts[0].sid);
      expect(row.providerStatus).toBe("queued");
    }
    const messages = await messagesFor(person.id);
    expect(messages[0]).toMatchObject({
      channel: "Text",
      subject: expect.stringContaining("booked"),
    });
  });

  it("queues nothing without consent, and nothing to a person who has not given a mobile", async () => {
    const noConsent = await member("(404) 555-0182", false);
    const noPhone = await member("", true);
    for (const person of [noConsent, noPhone]) {
      const id = await textCustomer(database.db, {
        recipientId: person.id,
        kind: "reminders",
        body: "x",
        fallbackSubject: "x",
      });
      expect(id).toBeNull();
    }
  });

  it("a STOP while a reminder waits stops it; STOP is confirmed once; START turns texts on again", async () => {
    const person = await member();
    const reminder = await textCustomer(database.db, {
      recipientId: person.id,
      kind: "reminders",
      body: "Reminder: your handyman comes tomorrow",
      fallbackSubject: "Reminder",
      notBefore: new Date(Date.now() + 60 * 60_000),
    });
    expect(reminder).not.toBeNull();

    const first = await postReply({ MessageSid: "SMreply1", From: "+14045550181", Body: "Stop" });
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("no more texts");
    // The same webhook delivered again, and a second STOP: no second confirmation.
    expect(
      await (
        await postReply({ MessageSid: "SMreply1", From: "+14045550181", Body: "Stop" })
      ).text(),
    ).not.toContain("<Message>");
    expect(
      await (
        await postReply({ MessageSid: "SMreply2", From: "+14045550181", Body: "STOP" })
      ).text(),
    ).not.toContain("<Message>");

    // The reminder falls due: it is not sent.
    await database.db
      .update(outbox)
      .set({ nextAttemptAt: new Date(Date.now() - 1000) })
      .where(eq(outbox.id, reminder!));
    const outcome = await deliverText(
      { recipientId: person.id, kind: "reminders", body: "Reminder" },
      reminder!,
      DAYTIME,
    );
    expect(outcome).toEqual({ status: "not sent: replied STOP" });
    expect(standIn.texts).toHaveLength(0);
    // New texts are not even queued.
    expect(
      await textCustomer(database.db, {
        recipientId: person.id,
        kind: "visit-changes",
        body: "x",
        fallbackSubject: "x",
      }),
    ).toBeNull();

    const events = await database.db.select().from(textConsentEvents);
    expect(events.map((e) => e.event).sort()).toEqual(["opt-in", "stop", "stop"]);

    const start = await postReply({ MessageSid: "SMreply3", From: "+14045550181", Body: "START" });
    expect(await start.text()).toContain("on again");
    const [profile] = await database.db
      .select()
      .from(profiles)
      .where(eq(profiles.userId, person.id));
    expect(profile.textStoppedAt).toBeNull();
    expect(profile.textConsentAt).not.toBeNull();
  });

  it("a reply with a bad or missing signature: 403, nothing stored", async () => {
    await member();
    const forged = await postReply(
      { MessageSid: "SMforged", From: "+14045550181", Body: "STOP" },
      "bm90IGEgc2lnbmF0dXJl",
    );
    expect(forged.status).toBe(403);
    const unsigned = await replyWebhook({
      request: new Request(`${PUBLIC_URL}/webhooks/twilio/sms`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "MessageSid=SMx&From=%2B14045550181&Body=STOP",
      }),
      params: {},
      context: {},
    } as never);
    expect((unsigned as Response).status).toBe(403);
    const stored = await database.db
      .select()
      .from(textConsentEvents)
      .where(eq(textConsentEvents.source, "reply"));
    expect(stored).toEqual([]);
  });

  it("a number Twilio refuses, or a text reported failed, goes by e-mail instead, once", async () => {
    const person = await member(INVALID_NUMBER.replace("+1", ""));
    const refused = await deliverText(
      {
        recipientId: person.id,
        kind: "visit-changes",
        body: "Your visit is booked",
        fallback: { subject: "Your visit is booked" },
      },
      crypto.randomUUID(),
      DAYTIME,
    );
    expect(refused).toEqual({ status: expect.stringMatching(/^failed .*sent by e-mail$/) });
    const mails = await database.db.select().from(outbox).where(eq(outbox.kind, "email"));
    expect(mails.map((m) => (m.payload as { subject: string }).subject)).toEqual([
      "Your visit is booked",
    ]);

    // A delivery report saying "undelivered", delivered twice: one e-mail.
    const other = await member("(404) 555-0183");
    await database.db.insert(outbox).values({
      kind: "sms",
      recipientId: other.id,
      payload: {
        recipientId: other.id,
        kind: "reminders",
        body: "Reminder",
        fallback: { subject: "Reminder" },
      },
      deliveredAt: new Date(),
      providerId: "SMsent1",
      providerStatus: "queued",
    });
    expect(await receiveTextStatus({ messageSid: "SMsent1", status: "undelivered" })).toBe(true);
    await receiveTextStatus({ messageSid: "SMsent1", status: "undelivered" });
    const fallbacks = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.recipientId, other.id));
    expect(fallbacks.filter((m) => m.kind === "email")).toHaveLength(1);
  });

  it("an office alert e-mails the business address and texts the office mobile, linking staff pages only", async () => {
    await alertOffice(database.db, {
      subject: "Maria Alvarez canceled a visit",
      customerName: "Maria Alvarez",
      lines: ["Maria Alvarez canceled their visit."],
      staffPath: "/employee/customers/abc/membership",
    });
    const rows = await database.db.select().from(outbox);
    const mail = rows.find((r) => r.kind === "email")!.payload as { to: string; text: string };
    expect(mail.to).toBe("office@example.com");
    expect(mail.text).toContain("Maria Alvarez");
    expect(mail.text).toContain(`${PUBLIC_URL}/employee/customers/abc/membership`);
    expect(mail.text).not.toContain("/dashboard");
    const text = rows.find((r) => r.kind === "sms")!.payload as { to: string; body: string };
    expect(text.to).toBe("(404) 555-0199");
    await expect(
      alertOffice(database.db, {
        subject: "x",
        customerName: "x",
        lines: [],
        staffPath: "/dashboard",
      }),
    ).rejects.toThrow(/staff pages/);
  });
});
