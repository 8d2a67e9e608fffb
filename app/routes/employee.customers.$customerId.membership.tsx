import type { FormAnswer } from "~/lib/form-answer";
import { answer } from "~/lib/form-answer.server";
import type { Route } from "./+types/employee.customers.$customerId.membership";
import { StaffMembershipPage } from "~/features/memberships/components/staff-membership";
import {
  addPartOnce,
  correctPartOnce,
  markPartBoughtOnce,
  removePartOnce,
} from "~/features/memberships/parts.server";
import { cancelMembership } from "~/features/memberships/cancel.server";
import { correctTimeWorked } from "~/features/memberships/visit-minutes.server";
import { MembershipRejectedError } from "~/features/memberships/errors.server";
import { recordPayment } from "~/features/memberships/money.server";
import { startMembershipWithPayment } from "~/features/memberships/start.server";
import {
  completeVisitSchema,
  correctPartSchema,
  correctTimeSchema,
  firstError,
  formValues,
  partIdSchema,
  partSchema,
  paymentSchema,
  createStartMembershipSchema,
  taskOutcomesFrom,
} from "~/features/memberships/schema";
import { completeVisit } from "~/features/visits/visit-life.server";
import { VisitRejectedError } from "~/features/visits/visits.server";
import {
  membershipHasVisit,
  staffMembershipView,
  statementPageParam,
  visitsPageParam,
} from "~/features/memberships/views.server";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { guardEmployee } from "~/features/employee/guard.server";
import { messagesFor } from "~/features/notifications/index.server";
import { MessagesList } from "~/features/notifications";
import { CustomerOrigin } from "~/features/leads/components/customer-origin";
import { customerOrigin } from "~/features/leads/people.server";
import { logger } from "~/lib/logger.server";
import {
  isRefundOf,
  markRefundPaid,
  NO_OPEN_OFFER,
  REFUND_NOT_OPEN,
  sendMembershipOffer,
  staffPaymentsView,
  startOfferByHand,
  withdrawOffer,
} from "~/features/payments/index.server";
import { StaffPayments } from "~/features/payments";
import type { StaffFormKeys } from "~/features/memberships/types";
import {
  ALREADY_DONE,
  FORM_OUT_OF_DATE,
  isActionKey,
  newActionKey,
} from "~/lib/action-keys.server";
import { isUuid } from "~/lib/uuid";
import { DedicatedHandymanForm } from "~/features/handymen";
import {
  dedicatedHandymanOf,
  HandymanRejectedError,
  listHandymen,
  proposedHandymanFor,
} from "~/features/handymen/dedicated.server";
import { reassignFromForm } from "~/features/handymen/reassign.server";
import { StaffReferSpecialist } from "~/features/specialists";
import {
  referFromForm,
  referralJobs,
  specialistOptions,
} from "~/features/specialists/refer-form.server";
import { requireEmployee } from "~/lib/session.server";
import { HomeRecord } from "~/features/home";
import { customerHomeId, homeAccess, homeRecord } from "~/features/home/index.server";
import { businessNow } from "~/lib/business-calendar";

export async function loader({ request, params }: Route.LoaderArgs) {
  const employee = await requireEmployee(request);
  const url = new URL(request.url);
  const view = await staffMembershipView(
    params.customerId,
    statementPageParam(url),
    visitsPageParam(url),
  );
  if (!view) throw new Response("Customer not found", { status: 404 });
  const payments = await staffPaymentsView(params.customerId);
  const homeId = await customerHomeId(params.customerId);
  const access = homeId ? await homeAccess(employee, homeId) : null;
  const home = access
    ? await homeRecord(access, { labelReadId: url.searchParams.get("label") })
    : null;
  return {
    employee,
    home,
    view,
    today: businessNow().date,
    messages: await messagesFor(params.customerId),
    payments,
    keys: formKeys(view, payments),
    showOfferForm: new URL(request.url).searchParams.get("offer") === "new",
    origin: await customerOrigin(params.customerId),
    handyman: await handymanPanel(params.customerId),
    referral: {
      specialists: await specialistOptions(),
      jobs: await referralJobs(params.customerId),
      key: newActionKey(),
    },
    // One idempotency key per parts form, drawn now (ADR 048): 'Add Part', and each part's
    // 'Mark Bought', 'Remove part' and 'Correct part'.
    partKeys: {
      add: newActionKey(),
      parts: Object.fromEntries(
        (view.membership?.parts ?? []).map((p) => [
          p.id,
          { bought: newActionKey(), remove: newActionKey(), correct: newActionKey() },
        ]),
      ),
    },
  };
}

/** The 'Dedicated handyman' card: hers, who a new member would get, and every handyman. */
async function handymanPanel(customerId: string) {
  const [current, handymen] = await Promise.all([dedicatedHandymanOf(customerId), listHandymen()]);
  return {
    current,
    handymen,
    proposed: current ? null : ((await proposedHandymanFor(customerId)) ?? null),
  };
}

/**
 * One idempotency key per form that writes money or work (ADR 048), drawn with the page: the
 * same form sent twice (a double click, a retry) is applied once. The page is drawn again
 * after every post, so every form gets a fresh key.
 */
function formKeys(
  view: NonNullable<Awaited<ReturnType<typeof staffMembershipView>>>,
  payments: Awaited<ReturnType<typeof staffPaymentsView>>,
): StaffFormKeys {
  return {
    start: newActionKey(),
    payment: newActionKey(),
    sendOffer: newActionKey(),
    withdrawOffer: newActionKey(),
    offerPayment: newActionKey(),
    correctTime: Object.fromEntries(
      (view.membership?.visits ?? []).map((v) => [v.appointmentId, newActionKey()]),
    ),
    refundPaid: Object.fromEntries(payments.refundsToPay.map((r) => [r.id, newActionKey()])),
  };
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  return [{ title: `Membership: ${loaderData?.view.customer.name ?? "Customer"}` }];
}

type Outcome = FormAnswer<{ intent: string; message: string }>;

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
export async function action({ request, params, context }: Route.ActionArgs) {
  const refused = (intent: string, message: string, status = 400) =>
    answer<Outcome>({ ok: false, intent, message }, context, { status });
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const staffId = guard.employee.id;
  const values = formValues(await request.formData());
  const intent = values.intent ?? "";
  const view = await staffMembershipView(params.customerId);
  if (!view) return refused(intent, "Customer not found.", 404);
  const key = isActionKey(values.key) ? values.key : "";
  // The forms that write money or work are applied once per key; a post without one is refused.
  if (KEYED_INTENTS.has(intent) && !key) return refused(intent, FORM_OUT_OF_DATE);
  /** Done, or already done by the same form sent before (its key applied once). */
  const done = (applied: boolean, message: string, answerIntent = intent) => ({
    ok: true as const,
    intent: answerIntent,
    message: applied ? message : ALREADY_DONE,
  });
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
        const parsed = createStartMembershipSchema(businessNow().date).safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        const paid = paymentSchema.safeParse(values);
        if (!paid.success) return refused(intent, firstError(paid.error));
        const started = await startMembershipWithPayment(
          {
            customerId: params.customerId,
            ...parsed.data,
            payment: {
              amountCents: paid.data.amount,
              method: paid.data.method,
              reference: paid.data.reference,
            },
            key,
          },
          staffId,
        );
        return done(Boolean(started), "First payment recorded: the membership started.");
      }
      case "send-offer": {
        const parsed = createStartMembershipSchema(businessNow().date).safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        const sent = await sendMembershipOffer(
          { customerId: params.customerId, ...parsed.data },
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
        const parsed = paymentSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        const started = await startOfferByHand(
          params.customerId,
          {
            amountCents: parsed.data.amount,
            method: parsed.data.method,
            reference: parsed.data.reference,
          },
          staffId,
          businessNow().date,
          key,
        );
        return done(Boolean(started), "First payment recorded: the membership started.");
      }
      case "mark-refund-paid": {
        const parsed = paymentSchema.omit({ amount: true }).safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
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
            method: parsed.data.method,
            reference: parsed.data.reference,
            key,
          },
          staffId,
        );
        return done(Boolean(paid), "Refund marked paid.");
      }
      case "payment": {
        const parsed = paymentSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        // The latest membership, canceled too: what is owed after a cancel is still paid.
        const latestId = view.membership?.summary.membershipId;
        if (!latestId) return refused(intent, "There is no membership.");
        const recorded = await recordPayment(
          {
            membershipId: latestId,
            amountCents: parsed.data.amount,
            method: parsed.data.method,
            reference: parsed.data.reference,
            key,
          },
          staffId,
        );
        return done(Boolean(recorded), "Payment recorded.");
      }
      case "dedicated-handyman": {
        const message = await reassignFromForm(values, params.customerId, guard.employee);
        return { ok: true, intent, message };
      }
      case "refer": {
        const referred = await referFromForm(
          values,
          { id: staffId, isHandyman: false },
          { customerId: params.customerId },
        );
        return referred.ok ? { ...referred, intent } : refused(intent, referred.message);
      }
      case "complete": {
        const parsed = completeVisitSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        if (!(await ownsVisit(parsed.data.appointmentId))) return refused(intent, "Unknown visit.");
        const done = await completeVisit(
          { id: staffId, isEmployee: true },
          parsed.data.appointmentId,
          { minutesWorked: parsed.data.minutesWorked, outcomes: taskOutcomesFrom(values) },
        );
        return { ok: true, intent, message: `Visit completed. ${done.minutesBack} minutes back.` };
      }
      case "correct-time": {
        const parsed = correctTimeSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        if (!(await ownsVisit(parsed.data.appointmentId))) return refused(intent, "Unknown visit.");
        const corrected = await correctTimeWorked({ ...parsed.data, key }, staffId);
        return done(Boolean(corrected), "Time worked corrected.");
      }
      case "add-part": {
        const parsed = partSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        if (!(await ownsVisit(parsed.data.appointmentId)))
          return refused(intent, "Please choose the visit");
        if (!isActionKey(values.key)) return refused(intent, FORM_OUT_OF_DATE);
        const added = await addPartOnce(
          {
            appointmentId: parsed.data.appointmentId,
            description: parsed.data.description,
            costCents: parsed.data.cost,
          },
          staffId,
          values.key,
        );
        if (!added.applied) return { ok: true, intent, message: ALREADY_DONE };
        return {
          ok: true,
          intent,
          message: added.value.needsApproval
            ? "Part added. It waits for the member's approval."
            : "Part added.",
        };
      }
      case "part-bought":
      case "remove-part":
      case "correct-part": {
        const parsed = (intent === "correct-part" ? correctPartSchema : partIdSchema).safeParse(
          values,
        );
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        const partId = parsed.data.partId;
        if (!view.membership?.parts.some((p) => p.id === partId)) {
          return refused(intent, "Unknown part");
        }
        if (!isActionKey(values.key)) return refused(intent, FORM_OUT_OF_DATE);
        if (intent === "part-bought") {
          const done = await markPartBoughtOnce(partId, staffId, values.key);
          return { ok: true, intent, message: done.applied ? "Part marked bought." : ALREADY_DONE };
        }
        if (intent === "remove-part") {
          const done = await removePartOnce(partId, staffId, values.key);
          if (!done.applied) return { ok: true, intent, message: ALREADY_DONE };
          return {
            ok: true,
            intent,
            message:
              done.value.boughtAt !== null
                ? "Part removed: its charge is reversed on the statement."
                : "Part removed.",
          };
        }
        const fields = correctPartSchema.parse(values);
        const done = await correctPartOnce(
          { partId, description: fields.description, costCents: fields.cost },
          staffId,
          values.key,
        );
        if (!done.applied) return { ok: true, intent, message: ALREADY_DONE };
        return {
          ok: true,
          intent,
          message:
            done.value.status === "pending_approval"
              ? "Part corrected. It waits for the member's approval."
              : done.value.status === "bought"
                ? "Part corrected: the statement shows the difference."
                : "Part corrected.",
        };
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
        return { ok: true, intent, message: "Membership canceled." };
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

export default function EmployeeCustomerMembership({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  return (
    <StaffMembershipPage
      header={<StaffHeader employee={loaderData.employee} width="max-w-5xl" />}
      view={loaderData.view}
      today={loaderData.today}
      partKeys={loaderData.partKeys}
      outcome={actionData && "intent" in actionData ? (actionData as Outcome) : null}
      keys={loaderData.keys}
      offerOpen={Boolean(loaderData.payments.offer)}
    >
      <StaffPayments
        view={loaderData.payments}
        today={loaderData.today}
        outcome={actionData && "intent" in actionData ? (actionData as Outcome) : null}
        showOfferForm={loaderData.showOfferForm}
        keys={loaderData.keys}
      />
      <DedicatedHandymanForm
        current={loaderData.handyman.current}
        proposed={loaderData.handyman.proposed}
        handymen={loaderData.handyman.handymen}
        outcome={actionData && "intent" in actionData ? (actionData as Outcome) : null}
      />
      <StaffReferSpecialist
        specialists={loaderData.referral.specialists}
        jobs={loaderData.referral.jobs}
        actionKey={loaderData.referral.key}
        outcome={actionData && "intent" in actionData ? (actionData as Outcome) : null}
      />
      <MessagesList messages={loaderData.messages} />
      <CustomerOrigin customerId={loaderData.view.customer.userId} origin={loaderData.origin} />
      {loaderData.home && (
        <section aria-labelledby="home-title" className="grid gap-3">
          <h2 id="home-title" className="text-xl font-semibold">
            Home: {loaderData.home.address}
          </h2>
          <HomeRecord
            view={loaderData.home}
            back={`/employee/customers/${loaderData.view.customer.userId}/membership`}
          />
        </section>
      )}
    </StaffMembershipPage>
  );
}
