import { redirect } from "react-router";
import type { Route } from "./+types/dashboard.membership";
import type { MemberNoticeCode } from "~/features/memberships/components/membership-tab";
import { cancelOwnMembership } from "~/features/memberships/cancel.server";
import { decidePart } from "~/features/memberships/parts.server";
import { MembershipRejectedError } from "~/features/memberships/errors.server";
import { formValues, partIdSchema } from "~/features/memberships/schema";
import { logger } from "~/lib/logger.server";
import { manageCardUrl, startOfferCheckout } from "~/features/payments/index.server";
import type { PaymentNotice } from "~/features/payments";
import { requireCustomerForAction } from "~/lib/session.server";

const back = (notice: MemberNoticeCode) => redirect(`/dashboard?tab=membership&mnotice=${notice}`);

/** Nothing to show here: the membership lives on the dashboard's tab. */
export function loader() {
  return redirect("/dashboard?tab=membership");
}

/**
 * The member's own membership actions: answer a parts approval request, cancel. Each acts on
 * the signed-in customer's membership only (the customer id is part of every query).
 */
export async function action({ request }: Route.ActionArgs) {
  const customer = await requireCustomerForAction(request);
  const values = formValues(await request.formData());
  const payments = (notice: PaymentNotice) =>
    redirect(`/dashboard?tab=membership&pnotice=${notice}`);
  if (values.intent === "start-membership") {
    try {
      const url = await startOfferCheckout(customer.id);
      return url ? redirect(url) : payments("office-told");
    } catch (error) {
      if (error instanceof MembershipRejectedError) return payments("no-offer");
      logger.error({ err: (error as Error).message }, "checkout could not start");
      return payments("card-unavailable");
    }
  }
  if (values.intent === "manage-card") {
    try {
      const url = await manageCardUrl(customer.id);
      return url ? redirect(url) : payments("card-unavailable");
    } catch (error) {
      logger.error({ err: (error as Error).message }, "the customer portal could not open");
      return payments("card-unavailable");
    }
  }
  try {
    if (values.intent === "approve-part" || values.intent === "decline-part") {
      const parsed = partIdSchema.safeParse(values);
      if (!parsed.success) return back("part-not-pending");
      const decision = values.intent === "approve-part" ? "approve" : "decline";
      await decidePart(customer.id, parsed.data.partId, decision);
      return back(decision === "approve" ? "part-approved" : "part-declined");
    }
    if (values.intent === "cancel") {
      const result = await cancelOwnMembership(customer.id);
      logger.info(
        { membershipId: result.membership.id, refundCents: result.quote.refundCents },
        "membership canceled by the member",
      );
      return back("canceled");
    }
  } catch (error) {
    if (error instanceof MembershipRejectedError) {
      return back(values.intent === "cancel" ? "not-member" : "part-not-pending");
    }
    logger.error({ err: (error as Error).message }, "membership action failed");
    return back(values.intent === "cancel" ? "cancel-failed" : "part-not-pending");
  }
  throw new Response("Unknown action", { status: 400 });
}
