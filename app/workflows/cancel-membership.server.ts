/**
 * A membership's cancel, composed from the features it spans (ADR 090): the memberships feature
 * settles the hours and the money; the visits feature ends the future visits and withdraws their
 * calendar entries; the payments feature queues the refund and the end of the card
 * subscription. Features never import this module: routes and the server's start-up do.
 */
import {
  activeMembershipOf,
  MembershipRejectedError,
  NO_ACTIVE_MEMBERSHIP,
  settleMembershipCancel,
  type Actor,
  type CancelEffects,
  type CancelResult,
} from "~/features/memberships/index.server";
import { queueRefund, queueSubscriptionEnd } from "~/features/payments/index.server";
import { changeVisitState, withdrawFromCalendar } from "~/features/visits/index.server";
import { isActionKeyClaimed } from "~/lib/action-keys.server";
import type { businessNow } from "~/lib/business-calendar";
import { db } from "~/db/client.server";

export { NO_ACTIVE_MEMBERSHIP, previewCancellation } from "~/features/memberships/index.server";
export type { CancelResult } from "~/features/memberships/index.server";

type Now = ReturnType<typeof businessNow>;

const effects: CancelEffects = {
  async endVisit(tx, appointmentId, actorId) {
    const canceled = await changeVisitState(tx, appointmentId, "canceled");
    await withdrawFromCalendar(tx, canceled, actorId);
  },
  queueRefund,
  queueSubscriptionEnd,
};

/**
 * Cancels an active membership, by the member (their own only: pass `customerId`) or by staff.
 * With the form's `key`: null when that form was already applied (sent twice).
 */
export function cancelMembership(
  input: { membershipId: string; customerId?: string },
  actor: Actor,
  now?: Now,
): Promise<CancelResult>;
export function cancelMembership(
  input: { membershipId: string; customerId?: string; key: string },
  actor: Actor,
  now?: Now,
): Promise<CancelResult | null>;
export function cancelMembership(
  input: { membershipId: string; customerId?: string; key?: string },
  actor: Actor,
  now?: Now,
): Promise<CancelResult | null> {
  return settleMembershipCancel(input, actor, effects, now);
}

/**
 * The member cancels their own active membership (the customer id picks it). With the form's
 * `key`: null when that form was already applied (sent twice), however the posts interleave.
 */
export function cancelOwnMembership(customerId: string, now?: Now): Promise<CancelResult>;
export function cancelOwnMembership(
  customerId: string,
  now: Now | undefined,
  key: string,
): Promise<CancelResult | null>;
export async function cancelOwnMembership(
  customerId: string,
  now?: Now,
  key?: string,
): Promise<CancelResult | null> {
  const active = await activeMembershipOf(customerId);
  if (!active) {
    if (key && (await isActionKeyClaimed(db(), key))) return null;
    throw new MembershipRejectedError(NO_ACTIVE_MEMBERSHIP);
  }
  const member = { id: customerId, isEmployee: false };
  return settleMembershipCancel(
    key ? { membershipId: active.id, customerId, key } : { membershipId: active.id, customerId },
    member,
    effects,
    now,
  );
}
