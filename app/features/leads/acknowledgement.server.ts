import { and, eq, gt, ne } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { leadEntries } from "~/db/schema";
import { siteUrl } from "~/features/notifications/index.server";
import { business } from "~/lib/business.server";
import { emailLayout, type MailMessage } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";

/**
 * A second post of the home page form by the same person within this time (a double tap, a
 * retry after a slow answer) is not acknowledged again: the rate limit's window (SPEC section 5).
 */
export const ACKNOWLEDGE_ONCE_WITHIN_MS = 10 * 60_000;

/** The e-mail that tells a home page visitor their request arrived and what happens next. */
export function leadAcknowledgement(input: { name: string; email: string }): MailMessage {
  const { name: businessName, phone } = business();
  const booking = siteUrl("/book-call");
  const subject = `We received your request: ${businessName}`;
  const paragraphs = [
    `Hello ${input.name},`,
    `Thank you for your interest in ${businessName}. We received your request for a free consultation.`,
    "What happens next: our office will be in touch soon (Monday to Friday, 8 AM to 6 PM) to schedule your free home walk-thru, with no obligation and no credit card.",
    `Rather talk sooner? Call us at ${phone}, or book a 15-minute intro call at a time that suits you.`,
  ];
  return {
    to: input.email,
    subject,
    text: [...paragraphs.flatMap((p) => [p, ""]), `Book an intro call: ${booking}`].join("\n"),
    html: emailLayout({
      heading: "We received your request",
      paragraphs,
      action: { label: "Book an intro call", url: booking },
    }),
  };
}

/**
 * Queues the acknowledgement of a home page lead, in the lead's own transaction, unless the
 * same person's lead was already taken within ACKNOWLEDGE_ONCE_WITHIN_MS. The lead's entry
 * (leadForEntry) has locked the person's lead row, so two posts at once are decided one after
 * the other and the second sees the first: one e-mail however often the form is sent.
 */
export async function acknowledgeHomeLead(
  tx: Tx,
  input: { leadId: string; entryId: string; name: string; email: string; at: Date },
) {
  const [earlier] = await tx
    .select({ id: leadEntries.id })
    .from(leadEntries)
    .where(
      and(
        eq(leadEntries.leadId, input.leadId),
        ne(leadEntries.id, input.entryId),
        eq(leadEntries.source, "home"),
        gt(leadEntries.createdAt, new Date(input.at.getTime() - ACKNOWLEDGE_ONCE_WITHIN_MS)),
      ),
    )
    .limit(1);
  if (earlier) return false;
  await enqueue(tx, "email", leadAcknowledgement(input));
  return true;
}
