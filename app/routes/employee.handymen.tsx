import { Link } from "react-router";
import type { Route } from "./+types/employee.handymen";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { guardEmployee } from "~/features/employee/guard.server";
import { HandymenTable, type Outcome } from "~/features/handymen/components/handymen-table";
import { HandymanRejectedError } from "~/features/handymen/dedicated.server";
import { handymenOverview, OVERVIEW_DAYS } from "~/features/handymen/overview.server";
import { reassignFromForm } from "~/features/handymen/reassign.server";
import { answer } from "~/lib/form-answer.server";
import { requireEmployee } from "~/lib/session.server";
import { isUuid } from "~/lib/uuid";

/*
 * 'Handymen' (issue 41, item 4; ADR 088): each handyman's members, hours booked against hours
 * available in the next 14 days and time off; the members with no dedicated handyman; and
 * 'Reassign', which moves a member (and her future visits when asked) and tells her.
 */

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireEmployee(request);
  return { employee, days: OVERVIEW_DAYS, ...(await handymenOverview()) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const form = await request.formData();
  const values = Object.fromEntries(
    [...form.entries()].map(([k, v]) => [k, typeof v === "string" ? v : undefined]),
  );
  const customerId = values.customerId ?? "";
  const reply = (ok: boolean, message: string, status = ok ? 200 : 400) =>
    answer<NonNullable<Outcome>>({ ok, intent: "reassign", message, id: customerId }, context, {
      status,
    });
  if (values.intent !== "reassign" || !isUuid(customerId) || !isUuid(values.handymanId ?? ""))
    return reply(false, "Please choose a member and a handyman.");
  try {
    return reply(true, await reassignFromForm(values, customerId, guard.employee));
  } catch (error) {
    if (error instanceof HandymanRejectedError) return reply(false, error.message);
    throw error;
  }
}

export function meta() {
  return [{ title: "Handymen" }];
}

export default function Handymen({ loaderData: d, actionData }: Route.ComponentProps) {
  const outcome = actionData && "intent" in actionData ? (actionData as Outcome) : null;
  return (
    <div className="min-h-dvh bg-muted/40">
      <StaffHeader employee={d.employee} width="max-w-3xl" />
      <main className="mx-auto grid max-w-3xl gap-4 px-4 py-6">
        <p>
          <Link to="/employee" className="text-sm underline underline-offset-4">
            Back to the dashboard
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Handymen</h1>
        <p className="text-sm text-muted-foreground">
          Each member has one dedicated handyman. A new member gets the one with the fewest members
          in her area; &apos;Reassign&apos; moves her, tells her by e-mail, and when chosen moves
          her future visits at their own day and time.
        </p>
        <HandymenTable
          rows={d.rows}
          unassigned={d.unassigned}
          unassignedCount={d.unassignedCount}
          days={d.days}
          outcome={outcome}
        />
      </main>
    </div>
  );
}
