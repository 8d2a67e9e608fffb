/*
 * The staff's membership page's actions (its forms post an `intent`), beside its route
 * (employee.customers.$customerId.membership.tsx): each form checked by parseIntent, so a
 * refusal marks every field it names (ADR 093), and each answer in ADR 033's envelope.
 */
import { answer, parseIntent, type IntentAnswer } from "~/lib/form-answer.server";
import type { Route } from "./+types/employee.customers.$customerId.membership";
import {
  addPartOnce,
  correctPartOnce,
  markPartBoughtOnce,
  removePartOnce,
} from "~/features/memberships/parts.server";
import { cancelMembership } from "~/workflows/cancel-membership.server";
import { correctTimeWorked } from "~/features/memberships/visit-minutes.server";
import { MembershipRejectedError } from "~/features/memberships/errors.server";
import { recordPayment } from "~/features/memberships/money.server";
import { startMembershipWithPayment } from "~/features/memberships/start.server";
import {
  completeVisitSchema,
  correctPartSchema,
  correctTimeSchema,
  formValues,
  partIdSchema,
  partSchema,
  paymentSchema,
  createStartMembershipSchema,
  taskOutcomesFrom,
} from "~/features/memberships/schema";
import { completeVisit } from "~/features/visits/visit-life.server";
import { VisitRejectedError } from "~/features/visits/visits.server";
import { membershipHasVisit, staffMembershipView } from "~/features/memberships/views.server";
import { guardEmployee } from "~/features/employee/guard.server";
import { logger } from "~/lib/logger.server";
import {
  isRefundOf,
  markRefundPaid,
  NO_OPEN_OFFER,
  REFUND_NOT_OPEN,
  sendMembershipOffer,
  startOfferByHand,
  withdrawOffer,
} from "~/features/payments/index.server";
import { ALREADY_DONE, FORM_OUT_OF_DATE, isActionKey } from "~/lib/action-keys.server";
import { isUuid } from "~/lib/uuid";
import { HandymanRejectedError } from "~/features/handymen/dedicated.server";
import { reassignFromForm } from "~/features/handymen/reassign.server";
import { referFromForm } from "~/features/specialists/refer-form.server";
import { businessNow } from "~/lib/business-calendar";

/** The forms applied once per idempotency key (issue 39, item 1). */
const KEYED_INTENTS = new Set([
  "start",
  "send-offer",
  "withdraw-offer",
  "offer-payment",
  "mark-refund-paid",
  "payment",
  "correct-time",
  "cancel",
]);

/**
 * Staff's membership actions for one customer: start, record a payment, complete a visit, add
 * a part, mark a part bought, cancel on the member's behalf. Staff only (401/403 otherwise).
 */
export async function membershipAction({ request, params, context }: Route.ActionArgs) {
  const refused = (intent: string, message: string, status = 400) =>
    answer<IntentAnswer>({ ok: false, intent, message }, context, { status });
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const staffId = guard.employee.id;
  const formData = await request.formData();
  const values = formValues(formData);
  const intent = values.intent ?? "";
  const view = await staffMembershipView(params.customerId);
  if (!view) return refused(intent, "Customer not found.", 404);
  const key = isActionKey(values.key) ? values.key : "";
  // The forms that write money or work are applied once per key; a post without one is refused.
  if (KEYED_INTENTS.has(intent) && !key) return refused(intent, FORM_OUT_OF_DATE);
  /** Done, or already done by the same form sent before (its key applied once). */
  const done = (applied: boolean, message: string, answerIntent = intent) =>
    answer<IntentAnswer>(
      { ok: true, intent: answerIntent, message: applied ? message : ALREADY_DONE },
      context,
    );
  /** Done, with the one sentence to say. */
  const said = (message: string) => answer<IntentAnswer>({ ok: true, intent, message }, context);
  const membershipId =
    view.membership?.summary.status === "active" ? view.membership.summary.membershipId : null;
  const ownsVisit = async (appointmentId: string) =>
    Boolean(
      view.membership &&
      (await membershipHasVisit(view.membership.summary.membershipId, appointmentId)),
    );
  try {
    switch (intent) {
      case "start": {
        // Staff's direct start takes its first payment with it (issue 39, item 8): the hours
        // are posted with the payment, never before anything is paid.
        const parsed = parseIntent(
          formData,
          createStartMembershipSchema(businessNow().date).extend(paymentSchema.shape),
          intent,
        );
        if (!parsed.ok) return answer(parsed.refusal, context);
        const { amount, method, reference, ...terms } = parsed.value;
        const started = await startMembershipWithPayment(
          {
            customerId: params.customerId,
            ...terms,
            payment: { amountCents: amount, method, reference },
            key,
          },
          staffId,
        );
        return done(Boolean(started), "First payment recorded: the membership started.");
      }
      case "send-offer": {
        const parsed = parseIntent(
          formData,
          createStartMembershipSchema(businessNow().date),
          intent,
        );
        if (!parsed.ok) return answer(parsed.refusal, context);
        const sent = await sendMembershipOffer(
          { customerId: params.customerId, ...parsed.value },
          staffId,
          key,
        );
        return done(Boolean(sent), "Membership offer sent.");
      }
      case "withdraw-offer": {
        const withdrawn = await withdrawOffer(params.customerId, { key, staffId });
        if (withdrawn === false) return refused("send-offer", NO_OPEN_OFFER, 409);
        return done(withdrawn === true, "Offer withdrawn.", "send-offer");
      }
      case "offer-payment": {
        const parsed = parseIntent(formData, paymentSchema, intent);
        if (!parsed.ok) return answer(parsed.refusal, context);
        const started = await startOfferByHand(
          params.customerId,
          {
            amountCents: parsed.value.amount,
            method: parsed.value.method,
            reference: parsed.value.reference,
          },
          staffId,
          businessNow().date,
          key,
        );
        return done(Boolean(started), "First payment recorded: the membership started.");
      }
      case "mark-refund-paid": {
        const parsed = parseIntent(formData, paymentSchema.omit({ amount: true }), intent);
        if (!parsed.ok) return answer(parsed.refusal, context);
        // A refund of this customer's memberships only (paid or not: a second post of the same
        // form is answered as the first was).
        if (
          !isUuid(values.refundId ?? "") ||
          !(await isRefundOf(params.customerId, values.refundId))
        )
          return refused(intent, REFUND_NOT_OPEN);
        const paid = await markRefundPaid(
          {
            refundId: values.refundId,
            method: parsed.value.method,
            reference: parsed.value.reference,
            key,
          },
          staffId,
        );
        return done(Boolean(paid), "Refund marked paid.");
      }
      case "payment": {
        const parsed = parseIntent(formData, paymentSchema, intent);
        if (!parsed.ok) return answer(parsed.refusal, context);
        // The latest membership, canceled too: what is owed after a cancel is still paid.
        const latestId = view.membership?.summary.membershipId;
        if (!latestId) return refused(intent, "There is no membership.");
        const recorded = await recordPayment(
          {
            membershipId: latestId,
            amountCents: parsed.value.amount,
            method: parsed.value.method,
            reference: parsed.value.reference,
            key,
          },
          staffId,
        );
        return done(Boolean(recorded), "Payment recorded.");
      }
      case "dedicated-handyman": {
        const message = await reassignFromForm(values, params.customerId, guard.employee);
        return said(message);
      }
      case "refer": {
        const referred = await referFromForm(
          values,
          { id: staffId, isHandyman: false },
          { customerId: params.customerId },
        );
        return referred.ok
          ? answer<IntentAnswer>({ ...referred, intent }, context)
          : refused(intent, referred.message);
      }
      case "complete": {
        const parsed = parseIntent(formData, completeVisitSchema, intent);
        if (!parsed.ok) return answer(parsed.refusal, context);
        if (!(await ownsVisit(parsed.value.appointmentId)))
          return refused(intent, "Unknown visit.");
        const done = await completeVisit(
          { id: staffId, isEmployee: true },
          parsed.value.appointmentId,
          { minutesWorked: parsed.value.minutesWorked, outcomes: taskOutcomesFrom(values) },
        );
        return said(`Visit completed. ${done.minutesBack} minutes back.`);
      }
      case "correct-time": {
        const parsed = parseIntent(formData, correctTimeSchema, intent);
        if (!parsed.ok) return answer(parsed.refusal, context);
        if (!(await ownsVisit(parsed.value.appointmentId)))
          return refused(intent, "Unknown visit.");
        const corrected = await correctTimeWorked({ ...parsed.value, key }, staffId);
        return done(Boolean(corrected), "Time worked corrected.");
      }
      case "add-part": {
        const parsed = parseIntent(formData, partSchema, intent);
        if (!parsed.ok) return answer(parsed.refusal, context);
        if (!(await ownsVisit(parsed.value.appointmentId)))
          return refused(intent, "Please choose the visit");
        if (!isActionKey(values.key)) return refused(intent, FORM_OUT_OF_DATE);
        const added = await addPartOnce(
          {
            appointmentId: parsed.value.appointmentId,
            description: parsed.value.description,
            costCents: parsed.value.cost,
          },
          staffId,
          values.key,
        );
        if (!added.applied) return said(ALREADY_DONE);
        return said(
          added.value.needsApproval
            ? "Part added. It waits for the member's approval."
            : "Part added.",
        );
      }
      case "part-bought":
      case "remove-part":
      case "correct-part": {
        const parsed = parseIntent(
          formData,
          intent === "correct-part" ? correctPartSchema : partIdSchema,
          intent,
        );
        if (!parsed.ok) return answer(parsed.refusal, context);
        const partId = parsed.value.partId;
        if (!view.membership?.parts.some((p) => p.id === partId)) {
          return refused(intent, "Unknown part");
        }
        if (!isActionKey(values.key)) return refused(intent, FORM_OUT_OF_DATE);
        if (intent === "part-bought") {
          const done = await markPartBoughtOnce(partId, staffId, values.key);
          return said(done.applied ? "Part marked bought." : ALREADY_DONE);
        }
        if (intent === "remove-part") {
          const done = await removePartOnce(partId, staffId, values.key);
          if (!done.applied) return said(ALREADY_DONE);
          return said(
            done.value.boughtAt !== null
              ? "Part removed: its charge is reversed on the statement."
              : "Part removed.",
          );
        }
        const fields = correctPartSchema.parse(parsed.value);
        const done = await correctPartOnce(
          { partId, description: fields.description, costCents: fields.cost },
          staffId,
          values.key,
        );
        if (!done.applied) return said(ALREADY_DONE);
        return said(
          done.value.status === "pending_approval"
            ? "Part corrected. It waits for the member's approval."
            : done.value.status === "bought"
              ? "Part corrected: the statement shows the difference."
              : "Part corrected.",
        );
      }
      case "cancel": {
        // The latest membership: a cancel sent twice finds it canceled by the first post.
        const latestId = view.membership?.summary.membershipId;
        if (!latestId) return refused(intent, "There is no active membership.");
        const result = await cancelMembership(
          { membershipId: membershipId ?? latestId, key },
          { id: staffId, isEmployee: true },
        );
        if (!result) return done(false, "");
        logger.info(
          { membershipId, refundCents: result.quote.refundCents, staffId },
          "membership canceled by staff",
        );
        return said("Membership canceled.");
      }
      default:
        return refused(intent, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof MembershipRejectedError) return refused(intent, error.message, 409);
    if (error instanceof VisitRejectedError) return refused(intent, error.message, 409);
    if (error instanceof HandymanRejectedError) return refused(intent, error.message);
    logger.error({ err: (error as Error).message, intent }, "membership action failed");
    return refused(intent, "Something went wrong. Nothing was changed.", 500);
  }
}
