import { and, desc, eq, gte } from "drizzle-orm";
import { db } from "~/db/client.server";
import { actionKeys, memberships, type Membership } from "~/db/schema";
import { howToPayByHand, nextChargeDate } from "~/features/memberships/index.server";
import { newActionKey } from "~/lib/action-keys.server";
import { env } from "~/lib/env.server";
import { openOfferOf } from "./offers.server";
import { paymentProvider } from "./provider.server";
import { refundsToPay } from "./refunds.server";
import type { MemberPaymentsView, OfferSummary, StaffPaymentsView } from "./types";
import { addDays } from "~/lib/business-calendar";

/**
 * Whether the member chose 'Start membership' on this offer (its key claimed since the offer
 * was sent, while cards are not taken: startOfferCheckout claims it only then).
 */
async function callAskedSince(customerId: string, since: Date) {
  const [asked] = await db()
    .select({ key: actionKeys.key })
    .from(actionKeys)
    .where(
      and(
        eq(actionKeys.actorId, customerId),
        eq(actionKeys.action, "start-membership"),
        gte(actionKeys.createdAt, since),
      ),
    )
    .limit(1);
  return Boolean(asked);
}

async function offerSummary(customerId: string): Promise<OfferSummary | null> {
  const offer = await openOfferOf(customerId);
  const callAsked =
    offer && !paymentProvider().takesCards
      ? await callAskedSince(customerId, offer.createdAt)
      : false;
  return offer
    ? {
        callAsked,
        id: offer.id,
        planName: offer.planName,
        billing: offer.billing,
        startDate: offer.startDate,
        priceCents: offer.priceCents,
        minutesPerYear: offer.minutesPerYear,
        visitsPerYear: offer.visitsPerYear,
      }
    : null;
}

async function activeOf(customerId: string) {
  const [m] = await db()
    .select()
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active")))
    .orderBy(desc(memberships.createdAt))
    .limit(1);
  return m ?? null;
}

export async function staffPaymentsView(customerId: string): Promise<StaffPaymentsView> {
  const [active, offer, owed] = await Promise.all([
    activeOf(customerId),
    offerSummary(customerId),
    refundsToPay(),
  ]);
  return {
    takesCards: paymentProvider().takesCards,
    canOffer: !active,
    offer,
    refundsToPay: owed
      .filter((r) => r.customerId === customerId)
      .map((r) => ({ id: r.id, amountCents: r.amountCents, customerName: r.customerName })),
  };
}

/**
 * The member's payments panel. `current`: their current membership (the active one, or else the
 * latest; null: none) when the caller read it already: its row serves as the active one, and an
 * active member's open offer, never shown, is not read.
 */
export async function memberPaymentsView(
  customerId: string,
  current?: Membership | null,
): Promise<MemberPaymentsView> {
  const [active, offer] =
    current === undefined
      ? await Promise.all([activeOf(customerId), offerSummary(customerId)])
      : current?.status === "active"
        ? [current, null]
        : [null, await offerSummary(customerId)];
  const takesCards = paymentProvider().takesCards;
  return {
    formKey: newActionKey(),
    renewal:
      active && active.billing === "annual"
        ? {
            date: nextChargeDate(active),
            planName: active.planName,
            yearCents: active.monthlyPriceCents * 12,
            monthCents: active.monthlyPriceCents,
            minutesPerYear: active.minutesPerYear,
            visitsPerYear: active.visitsPerYear,
            choice: active.renewalChoice ?? null,
          }
        : null,
    takesCards,
    offer: active ? null : offer,
    cardOnFile: takesCards && active?.paymentProvider === "stripe",
    pastDueSince: active?.pastDueSince ?? null,
    pastDueByHand:
      active?.pastDueSince && !active.paymentProvider
        ? { owedCents: active.balanceCents, howToPay: howToPayByHand() }
        : null,
    bookingWaitsFrom: active?.pastDueSince
      ? addDays(active.pastDueSince, env().pastDueGraceDays)
      : null,
  };
}
