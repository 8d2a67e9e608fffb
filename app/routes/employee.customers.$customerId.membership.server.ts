/*
 * The staff's membership page's actions (its forms post an `intent`), beside its route
 * (employee.customers.$customerId.membership.tsx): each form checked by parseIntent, so a
 * refusal marks every field it names (ADR 093), and each answer in ADR 033's envelope.
 */
import {
  answer,
  parseIntent,
  type AnswerContext,
  type IntentAnswer,
} from "~/lib/form-answer.server";
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

type Answer = ReturnType<typeof answer<IntentAnswer>>;

/** What each intent's handler is given: the post, the customer's page and the ways to answer. */
type Post = {
  formData: FormData;
  values: ReturnType<typeof formValues>;
  intent: string;
  /** The form's idempotency key ("" when it sent none). */
  key: string;
  customerId: string;
  staff: { id: string; isHandyman: boolean };
  view: NonNullable<Awaited<ReturnType<typeof staffMembershipView>>>;
  context: AnswerContext;
  refused: (intent: string, message: string, status?: number) => Answer;
  /** Done, or already done by the same form sent before (its key applied once). */
  done: (applied: boolean, message: string, answerIntent?: string) => Answer;
  /** Done, with the one sentence to say. */
  said: (message: string) => Answer;
};

/**
 * Staff's membership actions for one customer: start, record a payment, complete a visit, add
 * a part, mark a part bought, cancel on the member's behalf; one handler per intent. Staff only
 * (401/403 otherwise).
 */
export async function membershipAction({ request, params, context }: Route.ActionArgs) {
  const refused = (intent: string, message: string, status = 400) =>
    answer<IntentAnswer>({ ok: false, intent, message }, context, { status });
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const formData = await request.formData();
  const values = formValues(formData);
  const intent = values.intent ?? "";
  const view = await staffMembershipView(params.customerId);
  if (!view) return refused(intent, "Customer not found.", 404);
  const key = isActionKey(values.key) ? values.key : "";
  // The forms that write money or work are applied once per key; a post without one is refused.
  if (KEYED_INTENTS.has(intent) && !key) return refused(intent, FORM_OUT_OF_DATE);
  const handler = Object.hasOwn(HANDLERS, intent) ? HANDLERS[intent] : undefined;
  if (!handler) return refused(intent, "Unknown action.");
  const post: Post = {
    formData,
    values,
    intent,
    key,
    customerId: params.customerId,
    staff: guard.employee,
    view,
    context,
    refused,
    done: (applied, message, answerIntent = intent) =>
      answer<IntentAnswer>(
        { ok: true, intent: answerIntent, message: applied ? message : ALREADY_DONE },
        context,
      ),
    said: (message) => answer<IntentAnswer>({ ok: true, intent, message }, context),
  };
  try {
    return await handler(post);
  } catch (error) {
    if (error instanceof MembershipRejectedError) return refused(intent, error.message, 409);
    if (error instanceof VisitRejectedError) return refused(intent, error.message, 409);
    if (error instanceof HandymanRejectedError) return refused(intent, error.message);
    logger.error({ err: (error as Error).message, intent }, "membership action failed");
    return refused(intent, "Something went wrong. Nothing was changed.", 500);
  }
}

/** Whether the visit is one of this customer's membership's. */
async function ownsVisit(view: Post["view"], appointmentId: string) {
  return Boolean(
    view.membership &&
    (await membershipHasVisit(view.membership.summary.membershipId, appointmentId)),
  );
}

/** Staff's direct start takes its first payment with it (issue 39, item 8). */
async function start({ formData, intent, key, customerId, staff, context, done }: Post) {
  // The hours are posted with the payment, never before anything is paid.
  const parsed = parseIntent(
    formData,
    createStartMembershipSchema(businessNow().date).extend(paymentSchema.shape),
    intent,
  );
  if (!parsed.ok) return answer(parsed.refusal, context);
  const { amount, method, reference, ...terms } = parsed.value;
  const started = await startMembershipWithPayment(
    { customerId, ...terms, payment: { amountCents: amount, method, reference }, key },
    staff.id,
  );
  return done(Boolean(started), "First payment recorded: the membership started.");
}

async function sendOffer({ formData, intent, key, customerId, staff, context, done }: Post) {
  const parsed = parseIntent(formData, createStartMembershipSchema(businessNow().date), intent);
  if (!parsed.ok) return answer(parsed.refusal, context);
  const sent = await sendMembershipOffer({ customerId, ...parsed.value }, staff.id, key);
  return done(Boolean(sent), "Membership offer sent.");
}

async function withdraw({ key, customerId, staff, refused, done }: Post) {
  const withdrawn = await withdrawOffer(customerId, { key, staffId: staff.id });
  if (withdrawn === false) return refused("send-offer", NO_OPEN_OFFER, 409);
  return done(withdrawn === true, "Offer withdrawn.", "send-offer");
}

async function offerPayment({ formData, intent, key, customerId, staff, context, done }: Post) {
  const parsed = parseIntent(formData, paymentSchema, intent);
  if (!parsed.ok) return answer(parsed.refusal, context);
  const { amount, method, reference } = parsed.value;
  const started = await startOfferByHand(
    customerId,
    { amountCents: amount, method, reference },
    staff.id,
    businessNow().date,
    key,
  );
  return done(Boolean(started), "First payment recorded: the membership started.");
}

async function markRefund(post: Post) {
  const { formData, values, intent, key, customerId, staff, context, refused, done } = post;
  const parsed = parseIntent(formData, paymentSchema.omit({ amount: true }), intent);
  if (!parsed.ok) return answer(parsed.refusal, context);
  // A refund of this customer's memberships only (paid or not: a second post of the same form
  // is answered as the first was).
  if (!isUuid(values.refundId ?? "") || !(await isRefundOf(customerId, values.refundId)))
    return refused(intent, REFUND_NOT_OPEN);
  const paid = await markRefundPaid(
    {
      refundId: values.refundId,
      method: parsed.value.method,
      reference: parsed.value.reference,
      key,
    },
    staff.id,
  );
  return done(Boolean(paid), "Refund marked paid.");
}

async function payment({ formData, intent, key, view, staff, context, refused, done }: Post) {
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
    staff.id,
  );
  return done(Boolean(recorded), "Payment recorded.");
}

async function dedicatedHandyman({ values, customerId, staff, said }: Post) {
  return said(await reassignFromForm(values, customerId, staff));
}

async function refer({ values, intent, customerId, staff, context, refused }: Post) {
  const referred = await referFromForm(values, { id: staff.id, isHandyman: false }, { customerId });
  return referred.ok
    ? answer<IntentAnswer>({ ...referred, intent }, context)
    : refused(intent, referred.message);
}

async function complete({ formData, values, intent, view, staff, context, refused, said }: Post) {
  const parsed = parseIntent(formData, completeVisitSchema, intent);
  if (!parsed.ok) return answer(parsed.refusal, context);
  if (!(await ownsVisit(view, parsed.value.appointmentId)))
    return refused(intent, "Unknown visit.");
  const completed = await completeVisit(
    { id: staff.id, isEmployee: true },
    parsed.value.appointmentId,
    { minutesWorked: parsed.value.minutesWorked, outcomes: taskOutcomesFrom(values) },
  );
  return said(`Visit completed. ${completed.minutesBack} minutes back.`);
}

async function correctTime({ formData, intent, key, view, staff, context, refused, done }: Post) {
  const parsed = parseIntent(formData, correctTimeSchema, intent);
  if (!parsed.ok) return answer(parsed.refusal, context);
  if (!(await ownsVisit(view, parsed.value.appointmentId)))
    return refused(intent, "Unknown visit.");
  const corrected = await correctTimeWorked({ ...parsed.value, key }, staff.id);
  return done(Boolean(corrected), "Time worked corrected.");
}

async function addPart({ formData, values, intent, view, staff, context, refused, said }: Post) {
  const parsed = parseIntent(formData, partSchema, intent);
  if (!parsed.ok) return answer(parsed.refusal, context);
  if (!(await ownsVisit(view, parsed.value.appointmentId)))
    return refused(intent, "Please choose the visit");
  if (!isActionKey(values.key)) return refused(intent, FORM_OUT_OF_DATE);
  const added = await addPartOnce(
    {
      appointmentId: parsed.value.appointmentId,
      description: parsed.value.description,
      costCents: parsed.value.cost,
    },
    staff.id,
    values.key,
  );
  if (!added.applied) return said(ALREADY_DONE);
  return said(
    added.value.needsApproval ? "Part added. It waits for the member's approval." : "Part added.",
  );
}

/**
 * A part's own forms ('Mark Bought', 'Remove part', 'Correct part'): a part of this customer's
 * membership, with the form's key.
 */
async function partOf(
  post: Post,
  schema: typeof partIdSchema | typeof correctPartSchema,
): Promise<
  | { refusal: Answer }
  | { refusal?: undefined; partId: string; key: string; fields: Record<string, unknown> }
> {
  const { formData, values, intent, view, context, refused } = post;
  const parsed = parseIntent(formData, schema, intent);
  if (!parsed.ok) return { refusal: answer(parsed.refusal, context) };
  const partId = parsed.value.partId;
  if (!view.membership?.parts.some((p) => p.id === partId))
    return { refusal: refused(intent, "Unknown part") };
  if (!isActionKey(values.key)) return { refusal: refused(intent, FORM_OUT_OF_DATE) };
  return { partId, key: values.key, fields: parsed.value };
}

async function partBought(post: Post) {
  const part = await partOf(post, partIdSchema);
  if (part.refusal) return part.refusal;
  const bought = await markPartBoughtOnce(part.partId, post.staff.id, part.key);
  return post.said(bought.applied ? "Part marked bought." : ALREADY_DONE);
}

async function removePart(post: Post) {
  const part = await partOf(post, partIdSchema);
  if (part.refusal) return part.refusal;
  const removed = await removePartOnce(part.partId, post.staff.id, part.key);
  if (!removed.applied) return post.said(ALREADY_DONE);
  return post.said(
    removed.value.boughtAt !== null
      ? "Part removed: its charge is reversed on the statement."
      : "Part removed.",
  );
}

async function correctPart(post: Post) {
  const part = await partOf(post, correctPartSchema);
  if (part.refusal) return part.refusal;
  const fields = correctPartSchema.parse(part.fields);
  const corrected = await correctPartOnce(
    { partId: part.partId, description: fields.description, costCents: fields.cost },
    post.staff.id,
    part.key,
  );
  if (!corrected.applied) return post.said(ALREADY_DONE);
  return post.said(
    corrected.value.status === "pending_approval"
      ? "Part corrected. It waits for the member's approval."
      : corrected.value.status === "bought"
        ? "Part corrected: the statement shows the difference."
        : "Part corrected.",
  );
}

async function cancel({ intent, key, view, staff, refused, done, said }: Post) {
  // The latest membership: a cancel sent twice finds it canceled by the first post.
  const latestId = view.membership?.summary.membershipId;
  if (!latestId) return refused(intent, "There is no active membership.");
  const membershipId =
    view.membership?.summary.status === "active" ? view.membership.summary.membershipId : null;
  const result = await cancelMembership(
    { membershipId: membershipId ?? latestId, key },
    { id: staff.id, isEmployee: true },
  );
  if (!result) return done(false, "");
  logger.info(
    { membershipId, refundCents: result.quote.refundCents, staffId: staff.id },
    "membership canceled by staff",
  );
  return said("Membership canceled.");
}

/** One handler per intent (the form's `intent` field). */
const HANDLERS: Record<string, (post: Post) => Promise<Answer>> = {
  start,
  "send-offer": sendOffer,
  "withdraw-offer": withdraw,
  "offer-payment": offerPayment,
  "mark-refund-paid": markRefund,
  payment,
  "dedicated-handyman": dedicatedHandyman,
  refer,
  complete,
  "correct-time": correctTime,
  "add-part": addPart,
  "part-bought": partBought,
  "remove-part": removePart,
  "correct-part": correctPart,
  cancel,
};
