import { redirect } from "react-router";
import type { Route } from "./+types/dashboard";
import { CALL_ASKED_MESSAGE } from "~/features/payments";
import {
  CHECKOUT_ALREADY_PAID,
  chooseRenewal,
  manageCardUrl,
  RENEWAL_ANSWERS,
  startOfferCheckout,
  type RenewalChoiceInput,
} from "~/features/payments/index.server";
import { cancelOwnMembership } from "~/workflows/cancel-membership.server";
import { ALREADY_DONE, FORM_OUT_OF_DATE, isActionKey } from "~/lib/action-keys.server";
import { MembershipRejectedError } from "~/features/memberships/errors.server";
import { decidePart } from "~/features/memberships/parts.server";
import { formValues, partIdSchema } from "~/features/memberships/schema";
import { consentToReferral } from "~/features/specialists/index.server";
import { logger } from "~/lib/logger.server";
import { UUID_PATTERN } from "~/lib/uuid";
import type { FormAnswer } from "~/lib/form-answer";
import { answer } from "~/lib/form-answer.server";
import { requireCustomerForAction } from "~/lib/session.server";

/** The member's membership forms: which one answered, and what it said (ADR 033). */
export type MembershipAnswer = FormAnswer<{ intent: string; message: string }>;

const RENEWAL_INTENTS: Record<string, RenewalChoiceInput> = {
  "renewal-monthly": "monthly",
  "renewal-cancel": "cancel",
  "renewal-keep": null,
};

/**
 * The member's own membership forms, posted to the page that shows the Membership tab so that
 * their answer shows in place, with JavaScript or without: 'Start membership' and 'Manage card'
 * (on to Stripe, or why not), a part's 'Approve' / 'Decline', and the cancel. Each acts on the
 * signed-in customer's membership only (the customer id is part of every query).
 */
export async function dashboardAction({ request, context }: Route.ActionArgs) {
  const customer = await requireCustomerForAction(request);
  const values = formValues(await request.formData());
  const intent = values.intent ?? "";
  const said = (ok: boolean, message: string, status?: number) =>
    answer<MembershipAnswer>({ ok, intent, message }, context, { status });
  const cardsUnavailable =
    "Card payments are not available right now. Please try again or call us.";
  const key = isActionKey(values.key) ? values.key : undefined;
  if (intent === "start-membership") {
    try {
      // One Checkout per offer: a second tap (or ten) opens the same Stripe page.
      const url = await startOfferCheckout(customer.id, { key });
      return url ? redirect(url) : said(true, CALL_ASKED_MESSAGE);
    } catch (error) {
      if (error instanceof MembershipRejectedError)
        return said(
          false,
          error.message === CHECKOUT_ALREADY_PAID
            ? CHECKOUT_ALREADY_PAID
            : "There is no open membership offer.",
          409,
        );
      logger.error({ err: (error as Error).message }, "checkout could not start");
      return said(false, cardsUnavailable, 503);
    }
  }
  if (Object.hasOwn(RENEWAL_INTENTS, intent)) {
    const choice = RENEWAL_INTENTS[intent];
    try {
      const { changed } = await chooseRenewal(customer.id, choice, key ?? null);
      if (!changed) return said(true, RENEWAL_ANSWERS.already);
      return said(true, RENEWAL_ANSWERS[choice ?? "keep"]);
    } catch (error) {
      if (error instanceof MembershipRejectedError) return said(false, error.message, 409);
      logger.error({ err: (error as Error).message }, "the renewal choice could not be saved");
      return said(
        false,
        "Your choice could not be saved right now. Please try again or call us.",
        503,
      );
    }
  }
  if (intent === "referral-consent") {
    // Her consent is written once: a second post sends the specialist nothing more.
    const referralId = values.referralId ?? "";
    if (!UUID_PATTERN.test(referralId)) return said(false, "Unknown referral.", 400);
    const sent = await consentToReferral(customer.id, referralId);
    return said(
      true,
      sent ? "Thank you: the specialist has your job and will contact you." : ALREADY_DONE,
    );
  }
  if (intent === "manage-card") {
    try {
      const url = await manageCardUrl(customer.id);
      return url ? redirect(url) : said(false, cardsUnavailable, 409);
    } catch (error) {
      logger.error({ err: (error as Error).message }, "the customer portal could not open");
      return said(false, cardsUnavailable, 503);
    }
  }
  const notPending = "This part is not waiting for your approval.";
  try {
    if (intent === "approve-part" || intent === "decline-part") {
      const parsed = partIdSchema.safeParse(values);
      if (!parsed.success) return said(false, notPending, 400);
      const decision = intent === "approve-part" ? "approve" : "decline";
      await decidePart(customer.id, parsed.data.partId, decision);
      return said(
        true,
        decision === "approve"
          ? "Part approved. We will buy it for your visit."
          : "Part declined. We will not buy it.",
      );
    }
    if (intent === "cancel") {
      // The cancel form's key (ADR 048): sent twice (a double click, a retry), applied once.
      if (!isActionKey(values.key)) return said(false, FORM_OUT_OF_DATE, 400);
      const result = await cancelOwnMembership(customer.id, undefined, values.key);
      if (!result) return said(true, ALREADY_DONE);
      logger.info(
        { membershipId: result.membership.id, refundCents: result.quote.refundCents },
        "membership canceled by the member",
      );
      return said(true, "Your membership is canceled. What was settled is shown below.");
    }
  } catch (error) {
    if (error instanceof MembershipRejectedError) {
      return said(
        false,
        intent === "cancel" ? "You have no active membership to cancel." : notPending,
        409,
      );
    }
    logger.error({ err: (error as Error).message }, "membership action failed");
    return intent === "cancel"
      ? said(false, "Your membership could not be canceled. Please call us.", 500)
      : said(false, notPending, 500);
  }
  return said(false, "Unknown action.", 400);
}
