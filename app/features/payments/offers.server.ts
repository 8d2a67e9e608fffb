import { and, desc, eq, isNull } from "drizzle-orm";
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
import { alertOffice, readPersonName, siteUrl } from "~/features/notifications/index.server";
import { claimActionKey, isActionKeyClaimed } from "~/lib/action-keys.server";
import { nudgeOutbox } from "~/lib/outbox.server";
import { MEMBERSHIP_TAB } from "./messages.server";
import { tellOfferSent, tellOfferWithdrawn } from "./offer-messages.server";
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

export function sendMembershipOffer(
  input: { customerId: string; plan: PlanId; billing: "monthly" | "annual"; startDate: string },
  staffId: string,
): Promise<OfferView>;
export function sendMembershipOffer(
  input: { customerId: string; plan: PlanId; billing: "monthly" | "annual"; startDate: string },
  staffId: string,
  key: string,
): Promise<OfferView | null>;
/**
 * 'Send membership offer': the offer, the lead's 'offer sent' and the e-mail and text that
 * tell the customer (issue 40, item 1), in one transaction. With the form's `key` (ADR 048),
 * once: null when that form was already applied.
 */
export async function sendMembershipOffer(
  input: { customerId: string; plan: PlanId; billing: "monthly" | "annual"; startDate: string },
  staffId: string,
  key?: string,
): Promise<OfferView | null> {
  const current = await currentMembership(input.customerId);
  if (current?.status === "active") {
    if (key && (await isActionKeyClaimed(db(), key))) return null;
    throw new MembershipRejectedError("This customer already has an active membership.");
  }
  try {
    // The offer and the lead's 'offer sent' (the funnel's count, ADR 060) are written together.
    const offer = await db().transaction(async (tx) => {
      if (key) {
        const fresh = await claimActionKey(tx, {
          key,
          actorId: staffId,
          action: `send-offer:${input.customerId}`,
        });
        if (!fresh) return null;
      }
      const [row] = await tx
        .insert(membershipOffers)
        .values({ ...input, createdBy: staffId })
        .returning();
      await leadOfferSent(tx, input.customerId);
      await tellOfferSent(tx, view(row));
      return row;
    });
    if (!offer) return null;
    nudgeOutbox();
    return view(offer);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause ?? error;
    if ((cause as { code?: string }).code === "23505")
      throw new MembershipRejectedError(OFFER_EXISTS);
    throw error;
  }
}

/**
 * 'Withdraw offer': the open offer is withdrawn and the customer told (issue 40, item 1). With
 * the form's key, once. Returns whether an offer was withdrawn (null: the form was applied
 * before).
 */
export async function withdrawOffer(customerId: string, form?: { key: string; staffId: string }) {
  const withdrawn = await db().transaction(async (tx) => {
    if (form) {
      const fresh = await claimActionKey(tx, {
        key: form.key,
        actorId: form.staffId,
        action: `withdraw-offer:${customerId}`,
      });
      if (!fresh) return null;
    }
    const rows = await tx
      .update(membershipOffers)
      .set({ status: "withdrawn" })
      .where(and(eq(membershipOffers.customerId, customerId), eq(membershipOffers.status, "open")))
      .returning();
    for (const offer of rows) await tellOfferWithdrawn(tx, view(offer));
    return rows.length > 0;
  });
  if (withdrawn) nudgeOutbox();
  return withdrawn;
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
    name: await readPersonName(db(), customerId),
  });
  await db()
    .insert(paymentCustomers)
    .values({ customerId, stripeCustomerId: id })
    .onConflictDoNothing();
  return id;
}

/** 'Start membership' when the offer's Checkout was paid already: Stripe's answer is awaited. */
export const CHECKOUT_ALREADY_PAID =
  "Your payment was received: your membership starts as soon as Stripe confirms it.";

async function offerCheckoutState(offerId: string) {
  const [row] = await db()
    .select({
      status: membershipOffers.status,
      sessionId: membershipOffers.checkoutSessionId,
      attempt: membershipOffers.checkoutAttempt,
    })
    .from(membershipOffers)
    .where(eq(membershipOffers.id, offerId));
  return row;
}

/**
 * 'Start membership' by the customer: with Stripe, the address of the offer's one Checkout
 * Session; without, the office is told (null: the page says the office will take the first
 * payment). `key` is the form's idempotency key (ADR 048): a double tap tells the office once.
 *
 * One Checkout per offer: an open session is offered again; a new one is created only when
 * there is none or it expired unpaid, with the Stripe idempotency key `checkout-<offer>-<n>`
 * (n counts the expired ones), so requests at once all get the same session from Stripe.
 */
export async function startOfferCheckout(
  customerId: string,
  options: { key?: string } = {},
): Promise<string | null> {
  const offer = await openOfferOf(customerId);
  if (!offer) throw new MembershipRejectedError(NO_OPEN_OFFER);
  const provider = paymentProvider();
  const name = await readPersonName(db(), customerId);
  if (!provider.takesCards) {
    await db().transaction(async (tx) => {
      if (
        options.key &&
        !(await claimActionKey(tx, {
          key: options.key,
          actorId: customerId,
          action: "start-membership",
        }))
      )
        return;
      await alertOffice(tx, {
        subject: `${name} wants to start the ${offer.planName} membership`,
        lines: [
          `${name} chose 'Start membership' on the offer (${offer.planName}, ${offer.billing}).`,
          "Take the first payment and record it on the customer's membership page: that starts the membership.",
        ],
        staffPath: `/employee/customers/${customerId}/membership`,
        customerName: name,
      });
    });
    return null;
  }
  const [person] = await db()
    .select({ email: user.email })
    .from(user)
    .where(eq(user.id, customerId));
  const stripeCustomer = await providerCustomerId(customerId);
  for (let round = 0; round < 4; round++) {
    const state = await offerCheckoutState(offer.id);
    if (!state || state.status !== "open") throw new MembershipRejectedError(NO_OPEN_OFFER);
    if (state.sessionId) {
      const session = await provider.checkout(state.sessionId);
      if (session.open && session.url) return session.url;
      if (session.paid) throw new MembershipRejectedError(CHECKOUT_ALREADY_PAID);
      // Expired unpaid: the next attempt (moved once, by whoever saw this session first).
      await db()
        .update(membershipOffers)
        .set({ checkoutAttempt: state.attempt + 1, checkoutSessionId: null })
        .where(
          and(
            eq(membershipOffers.id, offer.id),
            eq(membershipOffers.checkoutSessionId, state.sessionId),
          ),
        );
      continue;
    }
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
      stripeCustomer,
      `checkout-${offer.id}-${state.attempt}`,
    );
    await db()
      .update(membershipOffers)
      .set({ checkoutSessionId: session.id })
      .where(
        and(
          eq(membershipOffers.id, offer.id),
          eq(membershipOffers.checkoutAttempt, state.attempt),
          isNull(membershipOffers.checkoutSessionId),
        ),
      );
    return session.url;
  }
  throw new Error(`the Checkout of offer ${offer.id} kept changing`);
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
    /** What paid it (Stripe): a second one for the same offer is refunded (duplicates.server). */
    paidBy?: string | null;
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
      offerId: offer.id,
    },
    options.staffId,
    { today: options.today, database: tx },
  );
  await tx
    .update(membershipOffers)
    .set({ status: "accepted", membershipId: membership.id, paidBy: options.paidBy ?? null })
    .where(eq(membershipOffers.id, offer.id));
  return membership;
}

/**
 * Manual mode: staff record the first payment of the open offer, which starts the membership
 * (its first period charged as the start rules say) and records the payment, in one
 * transaction. Once: the form's `key` (ADR 048) is claimed first (null: already applied), the
 * offer must still be open under its lock, the membership carries the offer (one membership
 * per offer, a unique index) and the payment's ledger row the offer's reference (one first
 * payment per offer, a unique index): whatever reaches the database twice is refused there.
 */
export function startOfferByHand(
  customerId: string,
  payment: { amountCents: number; method: PaymentMethod; reference: string },
  staffId: string,
  today: string,
): Promise<Membership>;
export function startOfferByHand(
  customerId: string,
  payment: { amountCents: number; method: PaymentMethod; reference: string },
  staffId: string,
  today: string,
  key: string,
): Promise<Membership | null>;
export async function startOfferByHand(
  customerId: string,
  payment: { amountCents: number; method: PaymentMethod; reference: string },
  staffId: string,
  today: string,
  key?: string,
): Promise<Membership | null> {
  const offer = await openOfferOf(customerId);
  if (!offer) {
    if (key && (await isActionKeyClaimed(db(), key))) return null;
    throw new MembershipRejectedError(NO_OPEN_OFFER);
  }
  try {
    const started = await db().transaction(async (tx) => {
      if (key) {
        const fresh = await claimActionKey(tx, {
          key,
          actorId: staffId,
          action: `offer-payment:${offer.id}`,
        });
        if (!fresh) return null;
      }
      const [locked] = await tx
        .select({ status: membershipOffers.status })
        .from(membershipOffers)
        .where(eq(membershipOffers.id, offer.id))
        .for("update");
      // Accepted meanwhile (another form, or Stripe): its first payment is already recorded.
      if (locked?.status !== "open") throw new MembershipRejectedError(NO_OPEN_OFFER);
      const membership = await acceptOffer(tx, offer.id, { today, staffId });
      if (!membership) throw new MembershipRejectedError(NO_OPEN_OFFER);
      await recordPayment(
        { membershipId: membership.id, ...payment, providerRef: `offer:${offer.id}:first-payment` },
        staffId,
        tx,
      );
      return membership;
    });
    nudgeOutbox();
    return started;
  } catch (error) {
    // The unique indexes' refusal: this offer's membership or first payment exists already.
    const cause = (error as { cause?: { code?: string } }).cause ?? error;
    if ((cause as { code?: string }).code === "23505")
      throw new MembershipRejectedError(NO_OPEN_OFFER);
    throw error;
  }
}
