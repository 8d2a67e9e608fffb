import { Link } from "react-router";
import type { Route } from "./+types/employee.specialists";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { guardEmployee } from "~/features/employee/guard.server";
import { SpecialistsList, type Outcome } from "~/features/specialists/components/specialists-list";
import { StaffReferrals } from "~/features/specialists/components/staff-referrals";
import { setReferralStatus, staffReferrals } from "~/features/specialists/referrals.server";
import { referralStatusSchema, specialistSchema } from "~/features/specialists/schema";
import {
  addSpecialist,
  listSpecialists,
  updateSpecialist,
} from "~/features/specialists/specialists.server";
import {
  ALREADY_DONE,
  FORM_OUT_OF_DATE,
  isActionKey,
  newActionKey,
} from "~/lib/action-keys.server";
import { answer, parseIntent, type IntentAnswer } from "~/lib/form-answer.server";
import { requireEmployee } from "~/lib/session.server";
import { isUuid } from "~/lib/uuid";

/*
 * 'Specialists' (issue 41, items 5 and 6; ADR 088): the partner network office staff keep,
 * and the referrals made to it with their status. Office staff only (ADR 047).
 */

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireEmployee(request);
  return {
    employee,
    specialists: await listSpecialists({ all: true }),
    addKey: newActionKey(),
    referrals: await staffReferrals(),
  };
}

/**
 * 'Add specialist', a specialist's 'Save' and a referral's 'Save status'. Each form is checked by
 * parseIntent (ADR 093): a refusal names every refused field, and a field sent twice arrives as
 * a list the schema refuses (ADR 098).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const intent = text("intent") ?? "";
  const id = text("id");
  const reply = (ok: boolean, message: string, status = ok ? 200 : 400) =>
    answer<NonNullable<Outcome>>({ ok, intent, message, id }, context, { status });
  const refused = (refusal: IntentAnswer) =>
    answer<NonNullable<Outcome>>({ ...refusal, id }, context);
  if (intent === "add" || intent === "save") {
    const parsed = parseIntent(form, specialistSchema, intent);
    if (!parsed.ok) return refused(parsed.refusal);
    const key = text("key");
    if (intent === "add") {
      if (!isActionKey(key)) return reply(false, FORM_OUT_OF_DATE);
      const added = await addSpecialist(parsed.value, guard.employee.id, key);
      return reply(true, added ? `${added.company} added.` : ALREADY_DONE);
    }
    if (!id || !isUuid(id)) return reply(false, "Unknown specialist.");
    const saved = await updateSpecialist(id, { ...parsed.value, active: text("active") === "1" });
    return saved
      ? reply(true, `${saved.company} saved.`)
      : reply(false, "Unknown specialist.", 404);
  }
  if (intent === "status") {
    const parsed = parseIntent(form, referralStatusSchema, intent);
    if (!parsed.ok) return refused(parsed.refusal);
    const saved = await setReferralStatus(parsed.value.referralId, parsed.value.status);
    return saved ? reply(true, "Status saved.") : reply(false, "Unknown referral.", 404);
  }
  return reply(false, "Unknown action.");
}

export function meta() {
  return [{ title: "Specialists" }];
}

export default function Specialists({ loaderData, actionData }: Route.ComponentProps) {
  const outcome = actionData && "intent" in actionData ? (actionData as Outcome) : null;
  return (
    <div className="min-h-dvh bg-muted/40">
      <StaffHeader employee={loaderData.employee} width="max-w-3xl" />
      <main className="mx-auto grid max-w-3xl gap-4 px-4 py-6">
        <p>
          <Link to="/employee" className="text-sm underline underline-offset-4">
            Back to the dashboard
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">Specialists</h1>
        <p className="text-sm text-muted-foreground">
          The partner network: plumbers, electricians and other trades a handyman refers a member to
          when the job needs a license (a new water or power source). A referral fee is shown to the
          member.
        </p>
        <SpecialistsList
          specialists={loaderData.specialists}
          addKey={loaderData.addKey}
          outcome={outcome}
        />
        <StaffReferrals referrals={loaderData.referrals} outcome={outcome} />
      </main>
    </div>
  );
}
