import type { DbOrTx } from "~/db/client.server";
import { siteUrl, textCustomer } from "~/features/notifications/index.server";
import { business } from "~/lib/business.server";
import { mailMember, MEMBERSHIP_TAB } from "./messages.server";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { plainDate } from "~/lib/business-calendar";

/*
 * An offer reaches the person (issue 40, item 1): 'Send membership offer' e-mails the customer
 * the plan, the price, the billing, the start date and a link to her Plan tab (the Membership
 * tab, 'Plan' on a phone), and texts her when she takes texts about billing; withdrawing it
 * tells her the same ways. Written to the outbox in the offer's own transaction, so an offer
 * sent twice (one key, ADR 048) is told once, and a refused one tells nobody.
 */

export type OfferTerms = {
  customerId: string;
  planName: string;
  billing: "monthly" | "annual";
  priceCents: number;
  minutesPerYear: number;
  visitsPerYear: number;
  startDate: string;
};

/** One SMS segment: 160 characters of the GSM alphabet (plain ASCII here). */
export const SMS_SEGMENT = 160;

/** "$175.00 a month, billed monthly" / "$2,100.00 a year, paid upfront" */
export function offerPrice(offer: Pick<OfferTerms, "billing" | "priceCents">) {
  return offer.billing === "annual"
    ? `${formatCents(offer.priceCents)} a year, paid upfront (annual billing)`
    : `${formatCents(offer.priceCents)} a month (monthly billing)`;
}

/** The first text that fits one segment, the business named once at its start. */
function oneSegment(candidates: string[]) {
  const prefix = `${business().name}: `;
  for (const body of candidates) {
    const text = `${prefix}${body}`;
    if (text.length <= SMS_SEGMENT && /^[\x20-\x7e]*$/.test(text)) return text;
  }
  return `${prefix}${candidates[candidates.length - 1]}`.slice(0, SMS_SEGMENT);
}

const shortPrice = (offer: OfferTerms) =>
  `${formatCents(offer.priceCents)}/${offer.billing === "annual" ? "yr" : "mo"}`;

const shortDate = (date: string) => plainDate(date, { month: "short", year: false });

export async function tellOfferSent(tx: DbOrTx, offer: OfferTerms) {
  const link = siteUrl(MEMBERSHIP_TAB);
  await mailMember(tx, offer.customerId, {
    subject: `Your membership offer: ${offer.planName}`,
    heading: "Your membership offer",
    lines: [
      `We have prepared a membership for your home: ${offer.planName}.`,
      `Price: ${offerPrice(offer)}.`,
      `What it includes: ${hoursText(offer.minutesPerYear)} of work and up to ${offer.visitsPerYear} visits a year.`,
      `Starts: ${plainDate(offer.startDate)}, or the day of your first payment if later.`,
      "See the terms and start your membership on the Plan tab of your account.",
    ],
    action: "See your offer on the Plan tab",
  });
  await textCustomer(tx, {
    recipientId: offer.customerId,
    kind: "billing",
    body: oneSegment([
      `your membership offer is ready: ${offer.planName}, ${shortPrice(offer)} from ${shortDate(offer.startDate)}. See it on your Plan tab: ${link}`,
      `your ${offer.planName} offer, ${shortPrice(offer)} from ${shortDate(offer.startDate)}: ${link}`,
      `your membership offer is ready: ${link}`,
    ]),
    fallbackSubject: `Your membership offer: ${offer.planName}`,
  });
}

export async function tellOfferWithdrawn(tx: DbOrTx, offer: OfferTerms) {
  await mailMember(tx, offer.customerId, {
    subject: "Your membership offer was withdrawn",
    heading: "Your membership offer was withdrawn",
    lines: [
      `The offer of the ${offer.planName} membership (${offerPrice(offer)}, from ${plainDate(offer.startDate)}) was withdrawn: it can no longer be started.`,
      `Nothing was charged. If you expected it, or would like another one, call us at ${business().phone}.`,
    ],
    action: "See your Plan tab",
  });
  await textCustomer(tx, {
    recipientId: offer.customerId,
    kind: "billing",
    body: oneSegment([
      `the ${offer.planName} membership offer was withdrawn. Nothing was charged. Questions? Call ${business().phone}.`,
      `your membership offer was withdrawn. Nothing was charged. Call ${business().phone}.`,
      `your membership offer was withdrawn.`,
    ]),
    fallbackSubject: "Your membership offer was withdrawn",
  });
}
