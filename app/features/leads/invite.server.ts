import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { leads } from "~/db/schema";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import { customerWithEmail, LeadRejectedError } from "./people.server";

/* ---------- invite to create an account (issue 29 item 3) ---------- */

/** The sign-up link of an invitation: the name and e-mail filled in on /auth. */
export function inviteLink(lead: { name: string; email: string }) {
  const [firstName, ...rest] = lead.name.trim().split(/\s+/);
  const params = new URLSearchParams({
    mode: "sign-up",
    firstName: firstName ?? "",
    lastName: rest.join(" "),
    email: lead.email,
  });
  return `${env().publicUrl}/auth?${params.toString()}`;
}

/**
 * E-mails the lead a sign-up link with their name and e-mail filled in. The account is linked
 * to the lead once its address is confirmed (the accounts' hook, ADR 060). A lead already linked
 * to an account is not invited again.
 */
export async function inviteLead(leadId: string, now = new Date()) {
  return db().transaction(async (tx) => {
    const [lead] = await tx.select().from(leads).where(eq(leads.id, leadId)).for("update");
    if (!lead) throw new LeadRejectedError("Lead not found.");
    if (lead.customerId) throw new LeadRejectedError("This lead already has an account.");
    const existing = await customerWithEmail(tx, lead.email);
    if (existing) {
      // Someone with the address has signed up since: link rather than invite (one person).
      await tx.update(leads).set({ customerId: existing }).where(eq(leads.id, leadId));
      return { email: lead.email, linked: true };
    }
    const link = inviteLink(lead);
    const name = business().name;
    await enqueue(tx, "email", {
      to: lead.email,
      subject: `Create your ${name} account`,
      text: [
        `Hello ${lead.name},`,
        "",
        `Thank you for your interest in ${name}. Create your account to book visits, follow your requests and see your membership:`,
        link,
        "",
        `Questions? Call us at ${business().phone}.`,
      ].join("\n"),
      html: emailLayout({
        heading: `Create your ${name} account`,
        paragraphs: [
          `Hello ${lead.name},`,
          `Thank you for your interest in ${name}. Create your account to book visits, follow your requests and see your membership.`,
          `Questions? Call us at ${business().phone}.`,
        ],
        action: { label: "Create my account", url: link },
      }),
    });
    await tx.update(leads).set({ invitedAt: now }).where(eq(leads.id, leadId));
    return { email: lead.email, linked: false };
  });
}
