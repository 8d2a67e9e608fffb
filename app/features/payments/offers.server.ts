import { and, desc, eq } from "drizzle-orm";
import { db, type DbOrTx, type Tx } from "~/db/client.server";
import { membershipOffers, paymentCustomers, user, type Membership } from "~/db/schema";
import { planById, type PlanId } from "~/content/plans";
import {
  currentMembership,
  MembershipRejectedError,
  recordPayment,
  startMembership,
  type PaymentMethod,
} from "~/features/memberships/index.server";
import { leadOfferSent } from "~/features/leads/index.server";
import { alertOffice, customerName, siteUrl } from "~/features/notifications/index.server";
import { MEMBERSHIP_TAB } from "./messages.server";
import { paymentProvider } from "./provider.server";

/*
 * Membership offers (ADR 053): after the walk-thru the office sends one ('Send membership
 * offer': plan, billing, start date); the customer sees it on the Membership tab with the price
 * and the terms. With Stripe, 'Start membership' opens Checkout and the membership starts when
 * Stripe's webhook says it is paid, never because the browser came back. Without Stripe, 'Start
 * membership' tells the office, and the membership starts when staff record the first payment.
 */

export type Offer = typeof membershipOffers.$inferSelect;
export type OfferView = Offer & {
  planName: string;
  /** Monthly: the month's price; annual: the year's, paid upfront. */
  priceCents: number;
  minutesPerYear: number;
  visitsPerYear: number;
};

export const OFFER_EXISTS =
  "This customer already has an open offer: withdraw it before sending another.";
export const NO_OPEN_OFFER = "There is no open membership offer.";

function view(offer: Offer): OfferView {
  const plan = planById(offer.plan as PlanId);
  return {
    ...offer,
    planName: plan.name,
    priceCents: offer.billing === "annual" ? plan.monthlyPriceCents * 12 : plan.monthlyPriceCents,
    minutesPerYear: plan.minutesPerYear,
    visitsPerYear: plan.visitsPerYear,
  };
}

export async function openOfferOf(customerId: string, database: DbOrTx = db()) {
  const [offer] = await database
    .select()
    .from(membershipOffers)
    .where(and(eq(membershipOffers.customerId, customerId), eq(membershipOffers.status, "open")))
    .orderBy(desc(membershipOffers.createdAt))
    .limit(1);
  return offer ? view(offer) : null;
}

export async function sendMembershipOffer(
  input: { customerId: string; plan: PlanId; billing: "monthly" | "annual"; startDate: string },
  staffId: string,
) {
  const current = await currentMembership(input.customerId);
  if (current?.status === "active") {
    throw new MembershipRejectedError("This customer already has an active membership.");
  }
  try {
    // The offer and the lead's 'offer sent' (the funnel's count, ADR 060) are written together.
    const offer = await db().transaction(async (tx) => {
      const [row] = await tx
        .insert(membershipOffers)
        .values({ ...input, createdBy: staffId })
        .returning();
      await leadOfferSent(tx, input.customerId);
      return row;
    });
    return view(offer);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause ?? error;
    if ((cause as { code?: string }).code === "23505")
      throw new MembershipRejectedError(OFFER_EXISTS);
    throw error;
  }
}

export async function withdrawOffer(customerId: string) {
  await db()
    .update(membershipOffers)
    .set({ status: "withdrawn" })
    .where(and(eq(membershipOffers.customerId, customerId), eq(membershipOffers.status, "open")));
}

async function providerCustomerId(customerId: string) {
  const [known] = await db()
    .select({ id: paymentCustomers.stripeCustomerId })
    .from(paymentCustomers)
    .where(eq(paymentCustomers.customerId, customerId));
  if (known) return known.id;
  const [person] = await db()
    .select({ email: user.email })
    .from(user)
    .where(eq(user.id, customerId));
  const id = await paymentProvider().customerFor({
    id: customerId,
    email: person?.email ?? "",
    name: await customerName(db(), customerId),
  });
  await db()
    .insert(paymentCustomers)
    .values({ customerId, stripeCustomerId: id })
    .onConflictDoNothing();
  return id;
}

/**
 * 'Start membership' by the customer: with Stripe, the Checkout page's address; without, the
 * office is told (null: the page says the office will take the first payment).
 */
export async function startOfferCheckout(customerId: string): Promise<string | null> {
  const offer = await openOfferOf(customerId);
  if (!offer) throw new MembershipRejectedError(NO_OPEN_OFFER);
  const provider = paymentProvider();
  const name = await customerName(db(), customerId);
  if (!provider.takesCards) {
    await db().transaction((tx) =>
      alertOffice(tx, {
        subject: `${name} wants to start the ${offer.planName} membership`,
        lines: [
          `${name} chose 'Start membership' on the offer (${offer.planName}, ${offer.billing}).`,
          "Take the first payment and record it on the customer's membership page: that starts the membership.",
        ],
        staffPath: `/employee/customers/${customerId}/membership`,
        customerName: name,
      }),
    );
    return null;
  }
  const [person] = await db()
    .select({ email: user.email })
    .from(user)
    .where(eq(user.id, customerId));
  const session = await provider.startCheckout(
    {
      offerId: offer.id,
      customer: { id: customerId, email: person?.email ?? "", name },
      planName: offer.planName,
      billing: offer.billing,
      amountCents: offer.priceCents,
      successUrl: siteUrl(`${MEMBERSHIP_TAB}&checkout=done`),
      cancelUrl: siteUrl(MEMBERSHIP_TAB),
    },
    await providerCustomerId(customerId),
  );
  await db()
    .update(membershipOffers)
    .set({ checkoutSessionId: session.id })
    .where(eq(membershipOffers.id, offer.id));
  return session.url;
}

/** 'Manage card': the customer portal's address (Stripe only). */
export async function manageCardUrl(customerId: string) {
  const provider = paymentProvider();
  if (!provider.takesCards) return null;
  return provider.portalUrl(await providerCustomerId(customerId), siteUrl(MEMBERSHIP_TAB));
}

/**
 * Turns an offer into a membership, once: the offer row is locked, and an offer already accepted
 * answers with the membership it became. Called by Stripe's events (paid) and by staff
 * recording the first payment (manual).
 */
export async function acceptOffer(
  tx: Tx,
  offerId: string,
  options: {
    today: string;
    staffId: string | null;
    paymentProvider?: "stripe";
    stripeSubscriptionId?: string | null;
  },
): Promise<Membership | null> {
  const [offer] = await tx
    .select()
    .from(membershipOffers)
    .where(eq(membershipOffers.id, offerId))
    .for("update");
  if (!offer) return null;
  if (offer.status === "accepted" && offer.membershipId) {
    const current = await currentMembership(offer.customerId, tx);
    return current?.id === offer.membershipId ? current : null;
  }
  if (offer.status !== "open") return null;
  const membership = await startMembership(
    {
      customerId: offer.customerId,
      plan: offer.plan as PlanId,
      billing: offer.billing,
      // The membership starts when it is paid: never before the day the payment came.
      startDate: offer.startDate < options.today ? options.today : offer.startDate,
      paymentProvider: options.paymentProvider,
      stripeSubscriptionId: options.stripeSubscriptionId ?? null,
    },
    options.staffId,
    { today: options.today, database: tx },
  );
  await tx
    .update(membershipOffers)
    .set({ status: "accepted", membershipId: membership.id })
    .where(eq(membershipOffers.id, offer.id));
  return membership;
}

/**
 * Manual mode: staff record the first payment of the open offer, which starts the membership
 * (its first period charged as the start rules say) and records the payment, in one transaction.
 */
export async function startOfferByHand(
  customerId: string,
  payment: { amountCents: number; method: PaymentMethod; reference: string },
  staffId: string,
  today: string,
) {
  const offer = await openOfferOf(customerId);
  if (!offer) throw new MembershipRejectedError(NO_OPEN_OFFER);
  return db().transaction(async (tx) => {
    const membership = await acceptOffer(tx, offer.id, { today, staffId });
    if (!membership) throw new MembershipRejectedError(NO_OPEN_OFFER);
    await recordPayment({ membershipId: membership.id, ...payment }, staffId, tx);
    return membership;
  });
}
