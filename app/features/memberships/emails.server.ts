import { eq } from "drizzle-orm";
import type { Tx } from "~/db/client.server";
import { profiles, user, type Membership, type MembershipPart } from "~/db/schema";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";
import { emailLayout } from "~/lib/mail.server";
import { enqueue } from "~/lib/outbox.server";
import { alertOffice, readPersonName, textCustomer } from "~/features/notifications/index.server";
import {
  settlementLineText,
  settlementOfficeText,
  type CancellationQuote,
  type Settlement,
} from "./settlement";
import { meterTextOf } from "./summary.server";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { businessNow, plainDate } from "~/lib/business-calendar";

/*
 * The membership e-mails, each written to the outbox in the transaction of the change it
 * reports (started, parts approval needed, parts decision, visit completed, canceled with the
 * refund). A canceled visit's calendar withdrawal is the visits feature's (withdrawFromCalendar).
 */

async function contact(tx: Tx, customerId: string) {
  const [row] = await tx
    .select({ email: user.email, firstName: profiles.firstName })
    .from(user)
    .leftJoin(profiles, eq(profiles.userId, user.id))
    .where(eq(user.id, customerId));
  return row;
}

function hello(firstName: string | null | undefined) {
  return `Hello${firstName ? ` ${firstName}` : ""},`;
}

async function send(
  tx: Tx,
  customerId: string,
  mail: { subject: string; heading: string; lines: string[]; to?: string },
  attachments?: { filename: string; content: string; contentType: string }[],
) {
  const person = await contact(tx, customerId);
  if (!person && !mail.to) return;
  const membershipUrl = `${env().publicUrl}/dashboard?tab=membership`;
  const greeting = mail.to ? [] : [hello(person?.firstName)];
  await enqueue(
    tx,
    "email",
    {
      to: mail.to ?? person!.email,
      subject: mail.subject,
      text: [
        ...greeting,
        ...(greeting.length ? [""] : []),
        ...mail.lines,
        "",
        `Your membership: ${membershipUrl}`,
        "",
        `Questions? Call us at ${business().phone}.`,
      ].join("\n"),
      html: emailLayout({
        heading: mail.heading,
        paragraphs: [...greeting, ...mail.lines, `Questions? Call us at ${business().phone}.`],
        action: mail.to ? undefined : { label: "See your membership", url: membershipUrl },
      }),
      ...(attachments ? { attachments } : {}),
    },
    { recipientId: mail.to ? null : customerId },
  );
}

export async function mailMembershipStarted(tx: Tx, m: Membership) {
  const price =
    m.billing === "annual"
      ? `${formatCents(m.monthlyPriceCents * 12)} a year, billed upfront`
      : `${formatCents(m.monthlyPriceCents)} a month`;
  await send(tx, m.customerId, {
    subject: `Welcome to ${business().name}: your ${m.planName} membership`,
    heading: "Your membership has started",
    lines: [
      `Your ${m.planName} membership starts on ${plainDate(m.startDate)}: ${price}.`,
      `It includes ${hoursText(m.minutesPerYear)} of handyman time and ${m.visitsPerYear} visits a year. Your hours: ${meterTextOf(m, businessNow().date)}.`,
      `If you are not satisfied within the first ${business().guaranteeDays} days, every membership charge is refunded in full. You can cancel any time without penalty; unused hours are refunded.`,
    ],
  });
}

export async function mailPartsApprovalNeeded(tx: Tx, m: Membership, part: MembershipPart) {
  await send(tx, m.customerId, {
    subject: `Parts approval needed: ${part.description} (${formatCents(part.costCents)})`,
    heading: "A part is waiting for your approval",
    lines: [
      `Your handyman needs a part over ${formatCents(10_000)}: ${part.description}, ${formatCents(part.costCents)}.`,
      "Nothing is bought until you approve it. Open your membership to Approve or Decline.",
    ],
  });
}

export async function mailPartDecision(tx: Tx, m: Membership, part: MembershipPart) {
  // A part recorded with its receipt photo is bought, and charged, as soon as it is approved.
  const bought = part.status === "bought";
  const approved = bought || part.status === "approved";
  const verb = approved ? "approved" : "declined";
  await send(tx, m.customerId, {
    subject: `You ${verb} a part: ${part.description}`,
    heading: approved ? "Part approved" : "Part declined",
    lines: [
      `You ${verb} ${part.description} (${formatCents(part.costCents)}).`,
      bought
        ? "Your handyman bought it for your visit (the receipt is on your membership page); the part and the visit's $10 shopping fee are on your statement."
        : approved
          ? "We will buy it for your visit; the part and a $10 shopping fee per visit appear on your statement."
          : "We will not buy it. Your handyman will talk with you about other options.",
    ],
  });
  // Staff need the answer to buy the part (or not).
  const name = await readPersonName(tx, m.customerId);
  await alertOffice(tx, {
    subject: `${name} ${verb} a part: ${part.description} (${formatCents(part.costCents)})`,
    customerName: name,
    lines: [
      `${name} ${verb} ${part.description} (${formatCents(part.costCents)}) on their ${m.planName} membership.`,
      bought
        ? "It was recorded with its receipt photo, so it is charged now, with the visit's shopping fee once."
        : approved
          ? "Buy it for the visit; the part and the shopping fee go on the statement when marked bought."
          : "Do not buy it; the handyman talks with the member about other options.",
    ],
    staffPath: `/employee/customers/${m.customerId}/membership`,
  });
}

/** How a member of a membership the office collects by hand pays what is owed. */
export function howToPayByHand() {
  return `Please pay by check, cash or bank transfer: call us at ${business().phone} and we will tell you how.`;
}

/**
 * A membership the office collects by hand went 'Past due' (ADR 083): the member is reminded of
 * the amount and how to pay (an e-mail, and a text when they take billing texts), and the
 * office is alerted. Written in the transaction that marks it, so it is sent once.
 */
export async function mailPastDue(
  tx: Tx,
  m: Membership,
  due: { owedCents: number; unpaidSince: string; waitsFrom: string },
) {
  const amount = formatCents(due.owedCents);
  await send(tx, m.customerId, {
    subject: `Payment reminder: ${amount} is past due`,
    heading: "Your membership is Past due",
    lines: [
      `Your ${m.planName} membership has ${amount} unpaid since ${plainDate(due.unpaidSince)}. Your membership is 'Past due'.`,
      howToPayByHand(),
      `If it is not paid by ${plainDate(due.waitsFrom)}, booking waits until it is paid. Your visits already booked stay booked.`,
    ],
  });
  await textCustomer(tx, {
    recipientId: m.customerId,
    kind: "billing",
    body: `${business().name}: ${amount} is past due on your membership. Please call ${business().phone} to pay.`,
    fallbackSubject: `Payment reminder: ${amount} is past due`,
  });
  const name = await readPersonName(tx, m.customerId);
  await alertOffice(tx, {
    subject: `Past due: ${name} owes ${amount}`,
    customerName: name,
    lines: [
      `${name}'s ${m.planName} membership has ${amount} unpaid since ${plainDate(due.unpaidSince)}: it is 'Past due'. The member was sent a reminder with the amount and how to pay.`,
      `Booking waits from ${plainDate(due.waitsFrom)} unless it is paid. 'Record payment' on the membership page brings it back.`,
    ],
    staffPath: `/employee/customers/${m.customerId}/membership`,
  });
}

/** The settlement's lines as every place writes them (ADR 058), the result last. */
export function settlementText(settlement: Settlement) {
  return [
    ...settlement.lines.map((line, i) => settlementLineText(line, i === 0)),
    settlement.resultLabel,
    ...(settlement.howLabel ? [settlement.howLabel] : []),
  ];
}

export async function mailMembershipCanceled(
  tx: Tx,
  m: Membership,
  refund: CancellationQuote & {
    settlement: Settlement;
    sentence: string;
    visitsCanceled: number;
  },
) {
  const { settlement } = refund;
  await send(tx, m.customerId, {
    subject: `Your ${m.planName} membership is canceled`,
    heading: "Your membership is canceled",
    lines: [
      `Your ${m.planName} membership ended on ${plainDate(m.canceledOn ?? m.startDate)}.`,
      refund.sentence,
      ...settlementText(settlement),
      ...(refund.visitsCanceled
        ? [
            `${refund.visitsCanceled} upcoming visit${refund.visitsCanceled === 1 ? " was" : "s were"} canceled; a calendar update follows for each.`,
          ]
        : []),
      "Thank you for being a member. You are welcome back any time.",
    ],
  });
  // Every cancellation tells the office what is owed, either way (issue 27, item 14), in the
  // office's words: what to do next, not what the member was told (ADR 081).
  const name = await readPersonName(tx, m.customerId);
  const result = settlement.resultCents;
  await alertOffice(tx, {
    subject: `Membership canceled: ${name} (${m.planName}): ${
      result > 0
        ? `we owe ${formatCents(result)}`
        : result < 0
          ? `owes us ${formatCents(-result)}`
          : "nothing owed"
    }`,
    customerName: name,
    lines: [
      `${name}'s ${m.planName} membership ended on ${plainDate(m.canceledOn ?? m.startDate)}.`,
      ...settlementOfficeText(settlement, name),
      ...(refund.visitsCanceled
        ? [
            `${refund.visitsCanceled} upcoming visit${refund.visitsCanceled === 1 ? " was" : "s were"} canceled and taken off the calendar.`,
          ]
        : []),
    ],
    staffPath: `/employee/customers/${m.customerId}/membership`,
  });
}
