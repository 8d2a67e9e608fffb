import type { IntentAnswer } from "~/lib/form-answer.server";
import { membershipAction } from "./employee.customers.$customerId.membership.server";
import type { Route } from "./+types/employee.customers.$customerId.membership";
import { StaffMembershipPage } from "~/features/memberships/components/staff-membership";
import {
  staffMembershipView,
  statementPageParam,
  visitsPageParam,
} from "~/features/memberships/views.server";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { messagesFor } from "~/features/notifications/index.server";
import { MessagesList } from "~/features/notifications";
import { CustomerOrigin } from "~/features/leads/components/customer-origin";
import { customerOrigin } from "~/features/leads/people.server";
import { staffPaymentsView } from "~/features/payments/index.server";
import { StaffPayments } from "~/features/payments";
import type { StaffFormKeys } from "~/features/memberships/types";
import { newActionKey } from "~/lib/action-keys.server";
import { DedicatedHandymanForm } from "~/features/handymen";
import {
  dedicatedHandymanOf,
  listHandymen,
  proposedHandymanFor,
} from "~/features/handymen/dedicated.server";
import { StaffReferSpecialist } from "~/features/specialists";
import { referralJobs, specialistOptions } from "~/features/specialists/refer-form.server";
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

type Outcome = IntentAnswer;

/** Staff's membership actions for one customer (membership.server.ts beside this route). */
export async function action(args: Route.ActionArgs) {
  return membershipAction(args);
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
