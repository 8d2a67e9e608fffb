import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { profiles, user, type Specialist, type SpecialistReferral } from "~/db/schema";
import { TRADE_LABELS } from "~/db/specialist-trade";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import { formatCents } from "~/lib/money";

/* The referral e-mails: the member hears of it; the specialist gets the job once she agrees. */

/** What the member is told of the specialist's referral fee (shown wherever she sees him). */
export function referralFeeLine(company: string, cents: number | null) {
  return cents
    ? `${company} pays ${business().name} a referral fee of ${formatCents(cents)} if you hire them; your price is the same.`
    : `${business().name} receives no referral fee from ${company}.`;
}

export async function mailReferralToMember(tx: Tx, referral: SpecialistReferral, s: Specialist) {
  const [person] = await tx
    .select({ email: user.email, firstName: profiles.firstName })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, referral.customerId));
  if (!person) return;
  const url = `${env().publicUrl}/dashboard`;
  const hello = `Hello${person.firstName ? ` ${person.firstName}` : ""},`;
  const lines = [
    `This job needs a licensed specialist: we referred you to ${s.company} (${TRADE_LABELS[s.trade]}).`,
    `Why: ${referral.reason}`,
    `Contact: ${[s.contactName, s.phone, s.email].filter(Boolean).join(", ") || "call us"}.`,
    referralFeeLine(s.company, s.referralFeeCents),
    `On your dashboard, 'Send my job' gives ${s.company} the job and its photos; nothing is sent without it.`,
  ];
  await enqueue(
    tx,
    "email",
    {
      to: person.email,
      subject: `We referred you to ${s.company}`,
      text: [hello, "", ...lines, "", `Your referrals: ${url}`].join("\n"),
      html: emailLayout({
        heading: `We referred you to ${s.company}`,
        paragraphs: [hello, ...lines],
        action: { label: "See your referrals", url },
      }),
    },
    { recipientId: referral.customerId },
  );
}

export async function mailReferralToSpecialist(
  tx: Tx,
  job: {
    to: string;
    company: string;
    memberName: string;
    memberEmail: string;
    memberPhone: string | null;
    address: string | null;
    reason: string;
    photoCount: number;
    newWaterOrPower: boolean;
  },
) {
  const lines = [
    `${business().name} refers a member to ${job.company}, with her consent.`,
    `The job: ${job.reason}`,
    ...(job.newWaterOrPower ? ["It needs a new water or power source."] : []),
    `Member: ${job.memberName}, ${job.memberEmail}${job.memberPhone ? `, ${job.memberPhone}` : ""}`,
    ...(job.address ? [`Address: ${job.address}`] : []),
    job.photoCount
      ? `Photos: ${job.photoCount}; call us at ${business().phone} and we send them.`
      : "No photos were taken.",
  ];
  await enqueue(tx, "email", {
    to: job.to,
    subject: `A job from ${business().name}: ${job.memberName}`,
    text: lines.join("\n"),
    html: emailLayout({ heading: `A job for ${job.company}`, paragraphs: lines }),
  });
}
