import { data } from "react-router";
import type { Route } from "./+types/employee.customer-options";
import {
  customerAppointmentOptions,
  findCustomerChoices,
} from "~/features/customers/queries.server";
import { guardEmployee } from "~/features/employee/guard.server";
import { normaliseSearch } from "~/lib/query";
import { isUuid } from "~/lib/uuid";

/*
 * Data for the Create Appointment dialog, fetched as the employee types and picks:
 *   (no parameter)  the first customers by name
 *   ?q=maria        customers whose name, e-mail or phone matches (the first ones by name)
 *   ?customerId=ID  that customer's homes and open requests (new or reviewed, by priority)
 */
export async function loader({ request }: Route.LoaderArgs) {
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const params = new URL(request.url).searchParams;
  const customerId = params.get("customerId");
  const headers = { "Cache-Control": "private, no-store" };
  if (customerId !== null) {
    const options = isUuid(customerId) ? await customerAppointmentOptions(customerId) : null;
    if (!options) {
      return data({ ok: false as const, message: "No such customer" }, { status: 404, headers });
    }
    return data({ ok: true as const, kind: "customer" as const, ...options }, { headers });
  }
  const choices = await findCustomerChoices(normaliseSearch(params.get("q")));
  return data({ ok: true as const, kind: "search" as const, ...choices }, { headers });
}
