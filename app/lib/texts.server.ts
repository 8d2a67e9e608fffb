import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { outbox, profiles, textConsentEvents, user } from "~/db/schema";
import { authSecret } from "./auth-secret.server";
import { emailLayout, type MailMessage } from "./mail.server";
import { verifiedMarkFor } from "./mobile-number.server";
import { sendText, textSendableAt, TextRefusedError } from "./sms.server";
import { wants, type MessageKind, type NotificationPrefs } from "./message-kinds";
import { e164 } from "./phone";

/*
 * A text waiting in the outbox is checked again when it falls due, not only when it was
 * written: a STOP, an unticked box or a turned-off kind stops the texts already queued (a
 * reminder written a week ago included), and quiet hours (9 PM to 8 AM Eastern) hold it until 8
 * AM. A text the provider refuses for good goes to the person by e-mail instead.
 */

export type TextPayload = {
  /** A customer: their mobile, consent and preferences decide at sending time. */
  recipientId?: string;
  /** The office's mobile (an alert): no consent needed, quiet hours still apply. */
  to?: string;
  kind: MessageKind | "office-alert" | "consent-reply" | "text-code";
  /** What the staff's 'Messages' list shows; what is sent unless `sealed` is set. */
  body: string;
  /** A code's text (ADR 086), encrypted under the auth secret: the code is never kept in clear. */
  sealed?: string;
  /** A code's text is not sent after the code has expired (a retry too late is no use). */
  expiresAt?: string;
  /** The e-mail sent instead when the text cannot go. */
  fallback?: { subject: string };
};

export type DeliveryOutcome =
  { defer: Date; note: string } | { status: string; providerId?: string };

/** Sends a due text, or says why it waits or was not sent. */
export async function deliverText(
  payload: TextPayload,
  outboxId: string,
  now = new Date(),
): Promise<DeliveryOutcome> {
  let to = payload.to ? e164(payload.to) : null;
  let email: string | null = null;
  if (payload.recipientId) {
    const [person] = await db()
      .select({
        email: user.email,
        mobilePhone: profiles.mobilePhone,
        consentAt: profiles.textConsentAt,
        stoppedAt: profiles.textStoppedAt,
        prefs: profiles.notificationPrefs,
      })
      .from(profiles)
      .innerJoin(user, eq(user.id, profiles.userId))
      .where(eq(profiles.userId, payload.recipientId));
    if (!person) return { status: "not sent: no such person" };
    email = person.email;
    // A STOP reply or START keyword is answered whatever the consent says (the law's way).
    if (payload.kind !== "consent-reply") {
      if (person.stoppedAt) return { status: "not sent: replied STOP" };
      if (!person.consentAt) return { status: "not sent: no consent to texts" };
      if (!wants(person.prefs as NotificationPrefs, payload.kind as MessageKind, "text"))
        return { status: "not sent: turned off in Notifications" };
    }
    to = e164(person.mobilePhone);
    if (!to) return { status: "not sent: no mobile number" };
  }
  if (!to) return { status: "not sent: no mobile number" };
  if (payload.expiresAt && new Date(payload.expiresAt) <= now)
    return { status: "not sent: the code expired first" };
  // A code or a reply is asked for now: quiet hours do not hold it.
  const sendable = textSendableAt(now);
  if (sendable > now && payload.kind !== "consent-reply" && payload.kind !== "text-code")
    return { defer: sendable, note: "waiting for 8 AM Eastern (no texts from 9 PM)" };
  const body = payload.sealed ? await openText(payload.sealed) : payload.body;
  try {
    const sent = await sendText({ to, body }, { id: outboxId });
    return { status: sent.status, providerId: sent.providerId };
  } catch (error) {
    if (!(error instanceof TextRefusedError)) throw error;
    if (payload.fallback && email && payload.recipientId) {
      await enqueueFallbackEmail(payload.recipientId, email, payload);
      return { status: `failed (${error.message.slice(0, 200)}); sent by e-mail` };
    }
    return { status: `failed (${error.message.slice(0, 200)})` };
  }
}

/** A text kept encrypted under the auth secret until it is sent (a sign-in code's). */
export function sealText(body: string) {
  return symmetricEncrypt({ key: authSecret(), data: body });
}

function openText(sealed: string) {
  return symmetricDecrypt({ key: authSecret(), data: sealed });
}

/** The e-mail a text that could not go becomes. */
export async function enqueueFallbackEmail(
  recipientId: string,
  email: string,
  payload: Pick<TextPayload, "body" | "fallback">,
) {
  const message: MailMessage = {
    to: email,
    subject: payload.fallback?.subject ?? "A message from us",
    text: payload.body,
    html: emailLayout({
      heading: payload.fallback?.subject ?? "A message from us",
      paragraphs: [payload.body],
    }),
  };
  await db().insert(outbox).values({ kind: "email", payload: message, recipientId });
}

/* ---------- consent ---------- */

/** Saves the person's mobile and their yes or no to texts, recording where it was given. */
export async function saveTextConsent(
  database: DbOrTx,
  userId: string,
  input: { mobilePhone: string | null; consent: boolean; source: string },
) {
  const phone = e164(input.mobilePhone);
  const [current] = await database
    .select({ consentAt: profiles.textConsentAt, stoppedAt: profiles.textStoppedAt })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  const now = new Date();
  const consenting = input.consent && Boolean(phone);
  const changed = consenting !== Boolean(current?.consentAt && !current.stoppedAt);
  await database
    .update(profiles)
    .set({
      mobilePhone: phone,
      // A new number signs in only once verified again (ADR 086).
      mobileVerifiedAt: verifiedMarkFor(phone),
      ...(consenting
        ? current?.consentAt && !current.stoppedAt
          ? {}
          : { textConsentAt: now, textConsentSource: input.source, textStoppedAt: null }
        : { textConsentAt: null, textConsentSource: null }),
    })
    .where(eq(profiles.userId, userId));
  if (changed && phone) {
    await database.insert(textConsentEvents).values({
      userId,
      phone,
      event: consenting ? "opt-in" : "opt-out",
      source: input.source,
    });
  }
}
