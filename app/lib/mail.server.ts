import fs from "node:fs/promises";
import path from "node:path";
import type { Transporter } from "nodemailer";
import { business } from "./business.server";
import { env } from "./env.server";
import { logger } from "./logger.server";
import { isValidEmail } from "./validation";

export type MailAttachment = { filename: string; content: string; contentType: string };

/** A message to an address outside the one e-mail rule: never handed to nodemailer. */
export class UndeliverableAddressError extends Error {
  constructor() {
    super("the recipient is not a valid e-mail address");
    this.name = "UndeliverableAddressError";
  }
}

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
};

/** nodemailer, loaded with the first message rather than when the server starts (ADR 029). */
async function nodemailer() {
  return (await import("nodemailer")).default;
}

let transport: Transporter | undefined;

async function smtpTransport() {
  const mailer = await nodemailer();
  // Pooled: a backlog after an outage goes out over a few open connections instead of a new
  // connection and greeting per message. nodemailer waits minutes by default; the outbox holds
  // its item while it waits, hence the timeouts.
  transport ??= mailer.createTransport({
    url: env().smtpUrl!,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return transport;
}

export function mailFrom() {
  const address = env().mailFrom ?? business().email;
  return { name: business().name, address };
}

/**
 * Sends one message: over SMTP when SMTP_URL is set, otherwise into DATA_DIR/mail as an .eml
 * file with its links logged, so a developer can follow them.
 * `messageId` (the outbox id) makes a re-sent message recognisable as the same one.
 */
export async function sendMail(
  message: MailMessage,
  options: { messageId?: string } = {},
): Promise<void> {
  // Every form checks addresses by the same rule; this holds the line for anything else (a row
  // written before the rule, a hand-made payload), so nodemailer never rewrites or splits one.
  if (!isValidEmail(message.to)) throw new UndeliverableAddressError();
  const from = mailFrom();
  const mail = {
    from,
    messageId: options.messageId
      ? `<${options.messageId}@${from.address.split("@")[1] ?? "localhost"}>`
      : undefined,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    attachments: message.attachments?.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
    })),
  };
  if (env().smtpUrl) {
    await (await smtpTransport()).sendMail(mail);
    return;
  }
  const writer = (await nodemailer()).createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });
  const info = await writer.sendMail(mail);
  const dir = path.join(env().dataDir, "mail");
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, "-")}-${Math.random().toString(36).slice(2, 8)}.eml`,
  );
  await fs.writeFile(file, info.message as Buffer);
  const links = message.text.match(/https?:\/\/\S+/g) ?? [];
  logger.info({ to: message.to, subject: message.subject, file, links }, "mail written to file");
}

/** Escapes text for the HTML part of an e-mail. */
export function escapeHtml(text: string) {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A plain, accessible HTML layout shared by every e-mail. */
export function emailLayout(options: {
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
}) {
  const b = business();
  const body = options.paragraphs
    .map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`)
    .join("");
  const action = options.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(options.action.url)}" style="background:#0f5f56;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(options.action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#444">Or paste this link into your browser: ${escapeHtml(options.action.url)}</p>`
    : "";
  return `<!doctype html><html lang="en"><body style="font-family:Arial,sans-serif;color:#1a1a1a;line-height:1.5;max-width:560px;margin:0 auto;padding:24px"><h1 style="font-size:22px">${escapeHtml(options.heading)}</h1>${body}${action}<hr style="border:none;border-top:1px solid #ddd;margin:24px 0"><p style="font-size:13px;color:#444">${escapeHtml(b.name)} · ${escapeHtml(b.phone)} · ${escapeHtml(b.email)}</p></body></html>`;
}
