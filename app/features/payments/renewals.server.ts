import { and, eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { memberships } from "~/db/schema";
import {
  MembershipRejectedError,
  NOT_ANNUAL,
  setRenewalChoice,
} from "~/features/memberships/index.server";
import { claimActionKey } from "~/lib/action-keys.server";
import { logger } from "~/lib/logger.server";
import { paymentProvider } from "./provider.server";

/*
 * The member's choice for the next annual renewal (issue 39, ADR 080), from the Plan tab's forms
 * the renewal notices link to: 'Switch to monthly', 'Cancel renewal', or 'Keep annual renewal'
 * (undo). With Stripe the yearly subscription is told first (a switch: this year runs out, then
 * the month's price each month; a cancel: it ends on the renewal date), then our row; each form
 * carries an idempotency key (ADR 048), so a double tap changes things once. The three buttons
 * share their page's key, so the key is claimed with the choice: 'Cancel renewal' then 'Keep
 * annual renewal' tapped before the page has redrawn are two choices, both applied.
 */

export type RenewalChoiceInput = "monthly" | "cancel" | null;

export const RENEWAL_ANSWERS = {
  monthly: "Done: from your renewal date your membership is billed monthly.",
  cancel: "Done: your membership ends on its renewal date and is not charged again.",
  keep: "Done: your membership renews for another year as before.",
  already: "Already done: this was sent twice and applied once.",
} as const;

export async function chooseRenewal(
  customerId: string,
  choice: RenewalChoiceInput,
  key: string | null,
) {
  const [m] = await db()
    .select()
    .from(memberships)
    .where(and(eq(memberships.customerId, customerId), eq(memberships.status, "active")));
  if (!m || m.billing !== "annual") throw new MembershipRejectedError(NOT_ANNUAL);
  if (m.renewalChoice === choice) return { changed: false, membership: m };
  if (m.paymentProvider === "stripe" && m.stripeSubscriptionId) {
    // Stripe first: if it cannot be told, nothing changes here and the member may try again.
    await paymentProvider().setRenewal(m.stripeSubscriptionId, choice ?? "annual", {
      amountCents: m.monthlyPriceCents,
    });
  }
  return db().transaction(async (tx) => {
    const chosen = choice ?? "annual";
    const claim = { key: `${key}.${chosen}`, actorId: customerId, action: `renewal:${chosen}` };
    if (key && !(await claimActionKey(tx, claim))) {
      return { changed: false, membership: m };
    }
    const membership = await setRenewalChoice(tx, m.id, choice);
    logger.info({ membershipId: m.id, choice }, "annual renewal chosen");
    return { changed: true, membership };
  });
}
