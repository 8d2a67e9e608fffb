import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { profiles, user } from "~/db/schema";
import { business } from "~/lib/business.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import { siteUrl } from "~/features/notifications/index.server";
import { formatCents } from "~/lib/money";

/** The member's Membership tab, where 'Update card' and 'Manage card' are. */
export const MEMBERSHIP_TAB = "/dashboard?tab=membership";

/** An e-mail to a member about their payments, written to the outbox in the caller's transaction. */
export async function mailMember(
  tx: DbOrTx,
  customerId: string,
  mail: { subject: string; heading: string; lines: string[]; action: string },
) {
  const [person] = await tx
    .select({ email: user.email, firstName: profiles.firstName })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, customerId));
  if (!person) return;
  const url = siteUrl(MEMBERSHIP_TAB);
  const greeting = `Hello${person.firstName ? ` ${person.firstName}` : ""},`;
  const call = `Questions? Call us at ${business().phone}.`;
  await enqueue(
    tx,
    "email",
    {
      to: person.email,
      subject: mail.subject,
      text: [greeting, "", ...mail.lines, "", `${mail.action}: ${url}`, "", call].join("\n"),
      html: emailLayout({
        heading: mail.heading,
        paragraphs: [greeting, ...mail.lines, call],
        action: { label: mail.action, url },
      }),
    },
    { recipientId: customerId },
  );
}

const REFUND_METHOD_WORDS: Record<string, string> = {
  card: "back to the card you paid with",
  check: "by check",
  cash: "in cash",
  bank_transfer: "by bank transfer",
};

/**
 * 'Your refund was sent' (ADR 081): the member learns that the refund left, how and the
 * reference to look for, when the office marks it paid or the card refund is made.
 */
export function refundSentMail(input: {
  amountCents: number;
  method: string;
  reference: string | null;
  sentOn: string;
}) {
  const how = REFUND_METHOD_WORDS[input.method] ?? `by ${input.method.replace("_", " ")}`;
  const amount = formatCents(input.amountCents);
  return {
    subject: `Your refund of ${amount} was sent`,
    heading: "Your refund was sent",
    lines: [
      `We sent your refund of ${amount} ${how} on ${input.sentOn}.`,
      input.reference ? `Reference: ${input.reference}.` : "No reference was given with it.",
      input.method === "card"
        ? "Your bank usually shows it within 5 to 10 business days."
        : input.method === "check"
          ? "Please allow a few days for the mail."
          : "Please allow a few business days for it to arrive.",
    ],
    action: "See your membership",
  };
}

/** Tells the member their refund was sent, in the caller's transaction. */
export async function mailRefundSent(
  tx: DbOrTx,
  customerId: string,
  input: { amountCents: number; method: string; reference: string | null; sentOn: string },
) {
  await mailMember(tx, customerId, refundSentMail(input));
}
