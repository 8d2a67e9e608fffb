import fs from "node:fs/promises";
import path from "node:path";
import type { Twilio } from "twilio";
import { addDays, businessWallClock, zonedInstant } from "./business-calendar";
import { env } from "./env.server";
import { logger } from "./logger.server";

/*
 * Text messages: through Twilio's Messages API when TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and
 * TWILIO_FROM are set (TWILIO_API_URL points the SDK elsewhere: a local stand-in in tests);
 * otherwise each text is written to DATA_DIR/sms/ as a file the owner can open, like the .eml
 * files of the mail. Consent, preferences and quiet hours are checked before this is called
 * (texts.server.ts).
 */

export type TextMessage = { to: string; body: string };
export type SentText = { providerId: string; status: string };

/** A text the provider refused for good (a bad number, an opted-out one): never retried. */
export class TextRefusedError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
    this.name = "TextRefusedError";
  }
}

/** 9 PM to 8 AM Eastern: no text is sent; it waits for 8 AM. */
export const QUIET_FROM_MINUTE = 21 * 60;
export const QUIET_UNTIL_MINUTE = 8 * 60;

/** `now` when a text may go out then; otherwise the next 8 AM Eastern. */
export function textSendableAt(now: Date): Date {
  const { date, minute } = businessWallClock(now);
  if (minute >= QUIET_FROM_MINUTE) return zonedInstant(addDays(date, 1), QUIET_UNTIL_MINUTE);
  if (minute < QUIET_UNTIL_MINUTE) return zonedInstant(date, QUIET_UNTIL_MINUTE);
  return now;
}

let client: Twilio | undefined;
let clientKey = "";

async function twilioClient() {
  const settings = env().twilio!;
  const key = `${settings.accountSid}:${settings.authToken}:${settings.apiUrl ?? ""}`;
  if (!client || clientKey !== key) {
    const { default: twilio } = await import("twilio");
    client = twilio(settings.accountSid, settings.authToken, { autoRetry: false });
    // The Messages API lives on the "api" domain; a stand-in takes its place in tests.
    if (settings.apiUrl) client.api.baseUrl = settings.apiUrl;
    clientKey = key;
  }
  return client;
}

/** Where status callbacks for a text go (Twilio posts each change of its status there). */
export function statusCallbackUrl() {
  return `${env().publicUrl}/webhooks/twilio/status`;
}

/** Sends one text now. Throws TextRefusedError when it can never go; other errors are retried. */
export async function sendText(message: TextMessage, options: { id: string }): Promise<SentText> {
  const settings = env().twilio;
  if (settings) {
    const twilio = await twilioClient();
    try {
      const sent = await twilio.messages.create({
        to: message.to,
        from: settings.from,
        body: message.body,
        statusCallback: statusCallbackUrl(),
      });
      return { providerId: sent.sid, status: sent.status };
    } catch (error) {
      const status = (error as { status?: number }).status;
      const code = (error as { code?: number }).code;
      // 4xx: Twilio read the request and refused it (21211 invalid number, 21610 opted out):
      // sending it again changes nothing. 429 and 5xx are worth another try.
      if (status && status >= 400 && status < 500 && status !== 429)
        throw new TextRefusedError((error as Error).message, code);
      throw error;
    }
  }
  const dir = path.join(env().dataDir, "sms");
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, "-")}-${options.id}.txt`,
  );
  await fs.writeFile(
    file,
    `To: ${message.to}\nFrom: ${env().twilio?.from ?? "(business)"}\n\n${message.body}\n`,
  );
  logger.info({ to: message.to, file }, "text written to file");
  return { providerId: `file:${options.id}`, status: "written" };
}

/** The largest webhook body read from Twilio (its forms are a few hundred bytes). */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

/**
 * The form Twilio posted to one of our webhooks, once its X-Twilio-Signature is verified against
 * TWILIO_AUTH_TOKEN and the public URL it was sent to; null when texts through Twilio are not set
 * up, the body is too large, or the signature is missing or wrong.
 */
export async function readSignedTwilioForm(
  request: Request,
): Promise<Record<string, string> | null> {
  const settings = env().twilio;
  const signature = request.headers.get("x-twilio-signature");
  if (!settings || !signature) return null;
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > WEBHOOK_BODY_LIMIT) return null;
  const raw = await request.text();
  if (Buffer.byteLength(raw) > WEBHOOK_BODY_LIMIT) return null;
  const params: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(raw)) params[key] = value;
  const { pathname, search } = new URL(request.url);
  const { validateRequest } = (await import("twilio")).default;
  return validateRequest(
    settings.authToken,
    signature,
    `${env().publicUrl}${pathname}${search}`,
    params,
  )
    ? params
    : null;
}

/** A TwiML answer: the reply to send back, or none. */
export function twimlReply(text: string | null) {
  const escaped = text?.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const body = escaped ? `<Message>${escaped}</Message>` : "";
  return new Response(`<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`, {
    headers: { "content-type": "text/xml; charset=utf-8", "cache-control": "no-store" },
  });
}
