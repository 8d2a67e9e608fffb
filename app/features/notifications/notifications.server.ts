import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { outbox, profiles, textConsentEvents, user } from "~/db/schema";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import { plainGsm7 } from "~/lib/text-segment";
import { wants, type MessageKind, type NotificationPrefs } from "~/lib/message-kinds";
import { saveTextConsent } from "~/lib/texts.server";
import { consentReplyText, officeAlertText } from "./texts.server";
import { personName } from "~/lib/names";
import { e164 } from "~/lib/phone";

export { saveTextConsent };

/*
 * Texts to customers and alerts to the office (ADR 040). A text is written to the outbox only
 * for a person who has said yes to texts, and checked again when it is sent (texts.server.ts):
 * a STOP in between stops it. Office alerts name the customer and link to staff pages only.
 */

type Recipient = {
  email: string;
  consentAt: Date | null;
  stoppedAt: Date | null;
  mobilePhone: string | null;
  prefs: NotificationPrefs | null;
};

async function recipient(database: DbOrTx, userId: string): Promise<Recipient | undefined> {
  const [row] = await database
    .select({
      email: user.email,
      consentAt: profiles.textConsentAt,
      stoppedAt: profiles.textStoppedAt,
      mobilePhone: profiles.mobilePhone,
      prefs: profiles.notificationPrefs,
    })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, userId));
  return row ? { ...row, prefs: row.prefs as NotificationPrefs | null } : undefined;
}

/** Whether the person's e-mail of this kind should be written (their 'Notifications'). */
export async function wantsEmail(database: DbOrTx, userId: string, kind: MessageKind) {
  const person = await recipient(database, userId);
  return wants(person?.prefs, kind, "email");
}

/**
 * Queues a text to a customer, in the caller's transaction, when they take texts of this kind
 * now; it is checked again when due. Returns the outbox id, or null when nothing was queued.
 */
export async function textCustomer(
  tx: DbOrTx,
  input: {
    recipientId: string;
    kind: MessageKind;
    body: string;
    fallbackSubject: string;
    notBefore?: Date;
  },
) {
  const person = await recipient(tx, input.recipientId);
  if (!person?.consentAt || person.stoppedAt || !e164(person.mobilePhone)) return null;
  if (!wants(person.prefs, input.kind, "text")) return null;
  return enqueue(
    tx,
    "sms",
    {
      recipientId: input.recipientId,
      kind: input.kind,
      body: plainGsm7(input.body),
      fallback: { subject: input.fallbackSubject },
    },
    { recipientId: input.recipientId, notBefore: input.notBefore },
  );
}

/** A link to a page of the site, for a text or an e-mail. */
export function siteUrl(path: string) {
  return `${env().publicUrl}${path}`;
}

/**
 * One alert to the office: an e-mail to the business address, and a text to the office's mobile
 * when OFFICE_MOBILE is set. `staffPath` is a staff page (never a customer's URL).
 */
export async function alertOffice(
  tx: DbOrTx,
  alert: { subject: string; lines: string[]; staffPath: string; customerName: string },
) {
  if (!alert.staffPath.startsWith("/employee")) throw new Error("office alerts link staff pages");
  const url = siteUrl(alert.staffPath);
  await enqueue(tx, "email", {
    to: business().email,
    subject: alert.subject,
    text: [...alert.lines, "", `Open in the staff area: ${url}`].join("\n"),
    html: emailLayout({
      heading: alert.subject,
      paragraphs: alert.lines,
      action: { label: "Open in the staff area", url },
    }),
  });
  const mobile = env().officeMobile;
  if (mobile) {
    await enqueue(tx, "sms", {
      to: mobile,
      kind: "office-alert",
      body: officeAlertText(alert.subject, url),
    });
  }
}

/**
 * A person's name read from the database: "Maria Alvarez" from the profile's names (or the
 * account's e-mail when it has none); "A customer" when there is no such account.
 */
export async function readPersonName(database: DbOrTx, userId: string) {
  const [row] = await database
    .select({ first: profiles.firstName, last: profiles.lastName, email: user.email })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, userId));
  if (!row) return "A customer";
  return personName(row.first, row.last) || row.email;
}

/* ---------- consent ---------- */

/** 'Notifications' saved from the profile: the mobile, the consent to texts, the choices. */
export async function saveNotifications(
  userId: string,
  input: { mobilePhone: string | null; textMe: boolean; prefs: NotificationPrefs },
) {
  await db().transaction(async (tx) => {
    await saveTextConsent(tx, userId, {
      mobilePhone: input.mobilePhone,
      consent: input.textMe,
      source: "profile",
    });
    await tx
      .update(profiles)
      .set({ notificationPrefs: input.prefs })
      .where(eq(profiles.userId, userId));
  });
}

export async function notificationSettings(userId: string) {
  const [row] = await db()
    .select({
      mobilePhone: profiles.mobilePhone,
      consentAt: profiles.textConsentAt,
      stoppedAt: profiles.textStoppedAt,
      prefs: profiles.notificationPrefs,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  return {
    mobilePhone: row?.mobilePhone ?? null,
    texts: Boolean(row?.consentAt && !row.stoppedAt),
    stopped: Boolean(row?.stoppedAt),
    prefs: (row?.prefs ?? {}) as NotificationPrefs,
  };
}

/* ---------- replies and delivery reports from Twilio ---------- */

const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT"]);
const START_WORDS = new Set(["START", "YES", "UNSTOP", "OPTIN"]);
const HELP_WORDS = new Set(["HELP", "INFO"]);

/**
 * A reply to our number. STOP stops every text at once (queued ones included: they are checked
 * when due) and is confirmed once; START turns texts back on; HELP says who we are. Returns the
 * reply to send back (as TwiML), or null. A webhook delivered twice is applied once.
 */
export async function receiveTextReply(input: { messageSid: string; from: string; body: string }) {
  const phone = e164(input.from);
  if (!phone) return null;
  const word = input.body
    .trim()
    .toUpperCase()
    .replace(/[^A-Z]/g, "");
  const event = STOP_WORDS.has(word)
    ? "stop"
    : START_WORDS.has(word)
      ? "start"
      : HELP_WORDS.has(word)
        ? "help"
        : null;
  if (!event) return null;
  return db().transaction(async (tx) => {
    const inserted = await tx
      .insert(textConsentEvents)
      .values({ phone, event, source: "reply", providerId: input.messageSid })
      .onConflictDoNothing()
      .returning({ id: textConsentEvents.id });
    if (!inserted.length) return null; // the same reply delivered again
    const people = await tx
      .select({ userId: profiles.userId, stoppedAt: profiles.textStoppedAt })
      .from(profiles)
      .where(eq(profiles.mobilePhone, phone));
    if (event === "help") return consentReplyText("help");
    if (event === "stop") {
      const alreadyStopped = people.length > 0 && people.every((p) => p.stoppedAt);
      await tx
        .update(profiles)
        .set({ textStoppedAt: new Date() })
        .where(and(eq(profiles.mobilePhone, phone), isNull(profiles.textStoppedAt)));
      // Confirmed once: a second STOP gets no second confirmation.
      return alreadyStopped ? null : consentReplyText("stop");
    }
    await tx
      .update(profiles)
      .set({
        textStoppedAt: null,
        textConsentAt: sql`coalesce(${profiles.textConsentAt}, now())`,
        textConsentSource: sql`coalesce(${profiles.textConsentSource}, 'reply START')`,
      })
      .where(eq(profiles.mobilePhone, phone));
    return consentReplyText("start");
  });
}

/**
 * A delivery report: the status is recorded on the text; a text that failed or could not be
 * delivered goes to the person by e-mail instead (once).
 */
export async function receiveTextStatus(input: { messageSid: string; status: string }) {
  const [row] = await db()
    .select({
      id: outbox.id,
      payload: outbox.payload,
      recipientId: outbox.recipientId,
      status: outbox.providerStatus,
    })
    .from(outbox)
    .where(eq(outbox.providerId, input.messageSid));
  if (!row) return false;
  const failed = input.status === "failed" || input.status === "undelivered";
  await db().transaction(async (tx) => {
    const [updated] = await tx
      .update(outbox)
      .set({ providerStatus: failed ? `${input.status}; sent by e-mail` : input.status })
      .where(
        and(
          eq(outbox.id, row.id),
          // Never back from a final state, and the fallback only once.
          sql`coalesce(${outbox.providerStatus}, '') not like '%sent by e-mail'`,
          sql`coalesce(${outbox.providerStatus}, '') <> 'delivered'`,
        ),
      )
      .returning({ id: outbox.id });
    if (!updated || !failed || !row.recipientId) return;
    const payload = row.payload as { body: string; fallback?: { subject: string } };
    if (!payload.fallback) return;
    const person = await recipient(tx, row.recipientId);
    if (!person) return;
    const message = {
      to: person.email,
      subject: payload.fallback.subject,
      text: payload.body,
      html: emailLayout({ heading: payload.fallback.subject, paragraphs: [payload.body] }),
    };
    await enqueue(tx, "email", message, { recipientId: row.recipientId });
  });
  return true;
}

/* ---------- the staff's 'Messages' list ---------- */

export type SentMessage = {
  id: string;
  at: string;
  channel: "E-mail" | "Text";
  subject: string;
  status: string;
};

/** Every e-mail and text written for a customer, newest first (the last 100). */
export async function messagesFor(customerId: string): Promise<SentMessage[]> {
  const rows = await db()
    .select({
      id: outbox.id,
      kind: outbox.kind,
      payload: outbox.payload,
      createdAt: outbox.createdAt,
      deliveredAt: outbox.deliveredAt,
      nextAttemptAt: outbox.nextAttemptAt,
      attempts: outbox.attempts,
      lastError: outbox.lastError,
      providerStatus: outbox.providerStatus,
      failedAt: outbox.failedAt,
    })
    .from(outbox)
    .where(eq(outbox.recipientId, customerId))
    .orderBy(desc(outbox.createdAt))
    .limit(100);
  return rows.map((row) => {
    const payload = row.payload as { subject?: string; body?: string };
    const isText = row.kind === "sms";
    const waiting = !row.deliveredAt && row.nextAttemptAt > new Date();
    const status = row.deliveredAt
      ? isText
        ? (row.providerStatus ?? "sent")
        : "Sent"
      : row.failedAt
        ? "Failed: listed under 'Failed deliveries'"
        : waiting
          ? row.attempts > 0 && row.lastError
            ? `Retrying (${row.lastError.slice(0, 80)})`
            : "Scheduled"
          : "Sending";
    return {
      id: row.id,
      at: (row.deliveredAt ?? (waiting ? row.nextAttemptAt : row.createdAt)).toISOString(),
      channel: isText ? "Text" : "E-mail",
      subject: isText ? (payload.body ?? "") : (payload.subject ?? ""),
      status,
    };
  });
}
