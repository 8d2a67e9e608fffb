import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { profiles, user } from "~/db/schema";
import { business } from "~/lib/business.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import { siteUrl } from "~/features/notifications/index.server";

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
