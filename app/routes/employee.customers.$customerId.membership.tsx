import type { FormAnswer } from "~/lib/form-answer";
import { answer } from "~/lib/form-answer.server";
import type { Route } from "./+types/employee.customers.$customerId.membership";
import { StaffMembershipPage } from "~/features/memberships/components/staff-membership";
import { businessNow } from "~/features/memberships/dates";
import { addPart, markPartBought } from "~/features/memberships/parts.server";
import { cancelMembership } from "~/features/memberships/cancel.server";
import { correctTimeWorked } from "~/features/memberships/visit-minutes.server";
import { MembershipRejectedError } from "~/features/memberships/errors.server";
import { recordPayment } from "~/features/memberships/money.server";
import { startMembership } from "~/features/memberships/start.server";
import {
  completeVisitSchema,
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
import { staffMembershipView, statementPageParam } from "~/features/memberships/views.server";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { guardEmployee } from "~/features/employee/guard.server";
import { messagesFor } from "~/features/notifications/index.server";
import { MessagesList } from "~/features/notifications";
import { CustomerOrigin } from "~/features/leads/components/customer-origin";
import { customerOrigin } from "~/features/leads/people.server";
import { logger } from "~/lib/logger.server";
import {
  markRefundPaid,
  sendMembershipOffer,
  staffPaymentsView,
  startOfferByHand,
  withdrawOffer,
} from "~/features/payments/index.server";
import { StaffPayments } from "~/features/payments";
import { requireEmployee } from "~/lib/session.server";

export async function loader({ request, params }: Route.LoaderArgs) {
  const employee = await requireEmployee(request);
  const view = await staffMembershipView(
    params.customerId,
    statementPageParam(new URL(request.url)),
  );
  if (!view) throw new Response("Customer not found", { status: 404 });
  return {
    employee,
    view,
    today: businessNow().date,
    messages: await messagesFor(params.customerId),
    payments: await staffPaymentsView(params.customerId),
    showOfferForm: new URL(request.url).searchParams.get("offer") === "new",
    origin: await customerOrigin(params.customerId),
  };
}

export function meta({ data: loaderData }: Route.MetaArgs) {
  return [{ title: `Membership: ${loaderData?.view.customer.name ?? "Customer"}` }];
}

type Outcome = FormAnswer<{ intent: string; message: string }>;

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
  const membershipId =
    view.membership?.summary.status === "active" ? view.membership.summary.membershipId : null;
  const ownsVisit = (appointmentId: string) =>
    Boolean(view.membership?.visits.some((v) => v.appointmentId === appointmentId));
  try {
    switch (intent) {
      case "start": {
        const parsed = createStartMembershipSchema(businessNow().date).safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        await startMembership({ customerId: params.customerId, ...parsed.data }, staffId);
        return { ok: true, intent, message: "Membership started." };
      }
      case "send-offer": {
        const parsed = createStartMembershipSchema(businessNow().date).safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        await sendMembershipOffer({ customerId: params.customerId, ...parsed.data }, staffId);
        return { ok: true, intent, message: "Membership offer sent." };
      }
      case "withdraw-offer": {
        await withdrawOffer(params.customerId);
        return { ok: true, intent: "send-offer", message: "Offer withdrawn." };
      }
      case "offer-payment": {
        const parsed = paymentSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        await startOfferByHand(
          params.customerId,
          {
            amountCents: parsed.data.amount,
            method: parsed.data.method,
            reference: parsed.data.reference,
          },
          staffId,
          businessNow().date,
        );
        return { ok: true, intent, message: "First payment recorded: the membership started." };
      }
      case "mark-refund-paid": {
        const parsed = paymentSchema.omit({ amount: true }).safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        const payments = await staffPaymentsView(params.customerId);
        if (!payments.refundsToPay.some((r) => r.id === values.refundId)) {
          return refused(intent, "This refund is not waiting to be paid.");
        }
        await markRefundPaid(
          {
            refundId: values.refundId,
            method: parsed.data.method,
            reference: parsed.data.reference,
          },
          staffId,
        );
        return { ok: true, intent, message: "Refund marked paid." };
      }
      case "payment": {
        const parsed = paymentSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        // The latest membership, canceled too: what is owed after a cancel is still paid.
        const latestId = view.membership?.summary.membershipId;
        if (!latestId) return refused(intent, "There is no membership.");
        await recordPayment(
          {
            membershipId: latestId,
            amountCents: parsed.data.amount,
            method: parsed.data.method,
            reference: parsed.data.reference,
          },
          staffId,
        );
        return { ok: true, intent, message: "Payment recorded." };
      }
      case "complete": {
        const parsed = completeVisitSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        if (!ownsVisit(parsed.data.appointmentId)) return refused(intent, "Unknown visit.");
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
        if (!ownsVisit(parsed.data.appointmentId)) return refused(intent, "Unknown visit.");
        await correctTimeWorked(parsed.data, staffId);
        return { ok: true, intent, message: "Time worked corrected." };
      }
      case "add-part": {
        const parsed = partSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        if (!ownsVisit(parsed.data.appointmentId))
          return refused(intent, "Please choose the visit");
        const part = await addPart(
          {
            appointmentId: parsed.data.appointmentId,
            description: parsed.data.description,
            costCents: parsed.data.cost,
          },
          staffId,
        );
        return {
          ok: true,
          intent,
          message: part.needsApproval
            ? "Part added. It waits for the member's approval."
            : "Part added.",
        };
      }
      case "part-bought": {
        const parsed = partIdSchema.safeParse(values);
        if (!parsed.success) return refused(intent, firstError(parsed.error));
        if (!view.membership?.parts.some((p) => p.id === parsed.data.partId)) {
          return refused(intent, "Unknown part");
        }
        await markPartBought(parsed.data.partId, staffId);
        return { ok: true, intent, message: "Part marked bought." };
      }
      case "cancel": {
        if (!membershipId) return refused(intent, "There is no active membership.");
        const result = await cancelMembership({ membershipId }, { id: staffId, isEmployee: true });
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
      outcome={actionData && "intent" in actionData ? (actionData as Outcome) : null}
    >
      <StaffPayments
        view={loaderData.payments}
        today={loaderData.today}
        outcome={actionData && "intent" in actionData ? (actionData as Outcome) : null}
        showOfferForm={loaderData.showOfferForm}
      />
      <MessagesList messages={loaderData.messages} />
      <CustomerOrigin customerId={loaderData.view.customer.userId} origin={loaderData.origin} />
    </StaffMembershipPage>
  );
}
