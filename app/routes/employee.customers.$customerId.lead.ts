import { redirect } from "react-router";
import { requireEmployee } from "~/lib/session.server";
import type { Route } from "./+types/employee.customers.$customerId.lead";
import { guardEmployee } from "~/features/employee/guard.server";
import { leadOfCustomer } from "~/features/leads/people.server";
import { answer } from "~/lib/form-answer.server";

/** Nothing to show: staff reach a customer's lead from the customer's page (a POST). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireEmployee(request);
  throw redirect(`/employee/customers/${encodeURIComponent(params.customerId)}/membership`);
}

/**
 * Staff open a customer's lead (made from the account when they came in some other way) to book
 * their walk-thru or work it: a POST, since it may create the lead. Staff only.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const leadId = await leadOfCustomer(params.customerId);
  if (!leadId)
    return answer({ ok: false, message: "Customer not found." }, context, { status: 404 });
  return redirect(`/employee/leads/${leadId}`);
}
