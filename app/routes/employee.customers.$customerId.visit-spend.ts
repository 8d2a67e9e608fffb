import { data } from "react-router";
import type { Route } from "./+types/employee.customers.$customerId.visit-spend";
import { guardEmployee } from "~/features/employee/guard.server";
import { memberBankSummary, visitSpend } from "~/features/memberships/summary.server";
import { bookingBlockSchema } from "~/features/memberships/schema";
import { businessToday, DATE_WINDOW, isWithinWindow } from "~/lib/business-calendar";

/**
 * For 'Create New Appointment': is the customer a member, and what would a visit of this block
 * on this date spend ('Uses 1 h 45 min of 12 h 15 min left' or 'Extra visit: $150'). Staff only.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const url = new URL(request.url).searchParams;
  const headers = { "Cache-Control": "private, no-store" };
  const customerId = params.customerId.slice(0, 100);
  const summary = await memberBankSummary(customerId);
  if (!summary || summary.status !== "active") {
    return data({ ok: true as const, member: false as const }, { headers });
  }
  const block = bookingBlockSchema.safeParse(url.get("block") ?? "105");
  const date = url.get("date") ?? "";
  const spend =
    // A real day in the window appointments are planned in (ADR 039); else no estimate.
    block.success && isWithinWindow(date, businessToday(), DATE_WINDOW.schedule)
      ? await visitSpend(customerId, {
          date,
          block: block.data,
          asExtra: url.get("asExtra") === "on",
        })
      : null;
  return data(
    {
      ok: true as const,
      member: true as const,
      planName: summary.planName,
      meterLabel: summary.meterLabel,
      spend: spend ? { kind: spend.decision.kind, label: spend.label, reason: spend.reason } : null,
    },
    { headers },
  );
}
