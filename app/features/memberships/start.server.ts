import { and, eq } from "drizzle-orm";
import { db, type DbOrTx } from "~/db/client.server";
import { homes, memberships, profiles } from "~/db/schema";
import { leadBecameMember } from "~/features/leads/index.server";
import { type Billing, type IsoDate } from "./bank";
import { planById, type PlanId } from "~/content/plans";
import { isWithinWindow, businessNow } from "~/lib/business-calendar";
import { mailMembershipStarted } from "./emails.server";
import { MembershipRejectedError, ALREADY_MEMBER, NO_HOME } from "./errors.server";
import { inTransaction, isUniqueViolation, postChargesDue } from "./ledger.server";
import { recordPayment, type PaymentMethod } from "./money.server";
import { claimActionKey } from "~/lib/action-keys.server";
import { assignDedicatedHandyman } from "~/features/handymen/index.server";

/* ---------- start ---------- */

/** How far from today any membership may start, whoever starts it. */
const START_BOUNDS = { yearsBack: 5, yearsAhead: 1 };
export const START_OUT_OF_BOUNDS =
  "A membership starts at most 5 years back or 1 year ahead of today.";

export type StartMembershipInput = {
  customerId: string;
  plan: PlanId;
  billing: Billing;
  startDate: IsoDate;
  /** Stripe collects it (started by Stripe's webhook); absent: staff, by hand. */
  paymentProvider?: "stripe";
  stripeSubscriptionId?: string | null;
  /** The offer it starts from: one membership per offer (a unique index, ADR 079). */
  offerId?: string | null;
};

/**
 * Starts a membership for a customer's home, copying the plan's terms, and charges the first
 * period when it has begun. One active membership per home and per customer (unique indexes).
 */
export async function startMembership(
  input: StartMembershipInput,
  staffId: string | null,
  options: {
    today?: IsoDate;
    database?: DbOrTx;
    notify?: boolean;
    /** False: her dedicated handyman is left as it is (the test factories, ADR 088). */
    assignHandyman?: boolean;
  } = {},
) {
  const today = options.today ?? businessNow().date;
  const database = options.database ?? db();
  const plan = planById(input.plan);
  // Bounded here too, whoever calls (a form, an offer paid online, an import): a wider
  // window than the form's year (ADR 039) lets a long history be loaded, never 1926 or 9999.
  if (!isWithinWindow(input.startDate, today, START_BOUNDS)) {
    throw new MembershipRejectedError(START_OUT_OF_BOUNDS);
  }
  try {
    return await inTransaction(database, async (tx) => {
      const [home] = await tx
        .select({ id: homes.id })
        .from(homes)
        .innerJoin(profiles, eq(profiles.userId, homes.customerId))
        .where(and(eq(homes.customerId, input.customerId), eq(profiles.isEmployee, false)))
        .limit(1);
      if (!home) throw new MembershipRejectedError(NO_HOME);
      const [created] = await tx
        .insert(memberships)
        .values({
          customerId: input.customerId,
          homeId: home.id,
          plan: plan.id,
          planName: plan.name,
          monthlyPriceCents: plan.monthlyPriceCents,
          minutesPerYear: plan.minutesPerYear,
          visitsPerYear: plan.visitsPerYear,
          billing: input.billing,
          startDate: input.startDate,
          createdBy: staffId,
          paymentProvider: input.paymentProvider ?? null,
          stripeSubscriptionId: input.stripeSubscriptionId ?? null,
          offerId: input.offerId ?? null,
        })
        .returning();
      await postChargesDue(tx, created, today);
      // The customer's lead reads 'Member' from now on (ADR 060).
      await leadBecameMember(tx, input.customerId);
      // A new member gets her dedicated handyman at once (ADR 088); staff may change him.
      if (options.assignHandyman !== false) await assignDedicatedHandyman(tx, input.customerId);
      if (options.notify !== false) await mailMembershipStarted(tx, created);
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error, "memberships_one_per_offer"))
      throw new MembershipRejectedError(OFFER_ALREADY_STARTED);
    if (isUniqueViolation(error)) throw new MembershipRejectedError(ALREADY_MEMBER);
    throw error;
  }
}

export const OFFER_ALREADY_STARTED = "This offer has already started a membership.";

/**
 * Staff's direct 'Start Membership' (issue 39, item 8): the membership starts with its first
 * payment, in one transaction, as an offer's does when staff record its first payment. The
 * hours of a period are posted with its charge, so no 'Hours paid' line is ever written before
 * anything is paid. Once per form (its idempotency key, ADR 048): null when already applied.
 */
export async function startMembershipWithPayment(
  input: StartMembershipInput & {
    payment: { amountCents: number; method: PaymentMethod; reference: string };
    key: string;
  },
  staffId: string,
  options: { today?: IsoDate; database?: DbOrTx } = {},
) {
  const { payment, key, ...start } = input;
  return inTransaction(options.database ?? db(), async (tx) => {
    const fresh = await claimActionKey(tx, {
      key,
      actorId: staffId,
      action: `start:${input.customerId}`,
    });
    if (!fresh) return null;
    // The first period's charge, its hours and the payment are written in one transaction: a
    // refusal of either leaves nothing.
    const membership = await startMembership(start, staffId, {
      today: options.today,
      database: tx,
    });
    await recordPayment({ membershipId: membership.id, ...payment }, staffId, tx);
    return membership;
  });
}
