import { Link, useNavigation } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/employee.leads.$leadId";
import { Button } from "~/components/ui/button";
import { LEAD_STATUS_LABELS } from "~/db/lead-status";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { useAnswerToast } from "~/features/employee/use-action-toast";
import { guardEmployee } from "~/features/employee/guard.server";
import {
  LeadEntriesCard,
  LeadFactsCard,
  LeadNextStepCard,
  LeadUpdateCard,
} from "~/features/leads/components/lead-detail-cards";
import { cancelable, LeadWalkThruCard } from "~/features/leads/components/lead-walk-thrus";
import { leadDetail, LeadRejectedError, updateLead } from "~/features/leads/people.server";
import { inviteLead } from "~/features/leads/invite.server";
import { WalkThruBooking } from "~/features/visits/components/walk-thru-booking";
import {
  bookWalkThru,
  cancelWalkThru,
  walkThruOffer,
  walkThruSchema,
} from "~/features/visits/walk-thru.server";
import { listEmployees } from "~/features/accounts/index.server";
import { isUuid } from "~/lib/uuid";
import { VisitRejectedError } from "~/features/visits/visits.server";
import type { FormAnswer } from "~/lib/form-answer";
import { answer, parseIntent } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { requireEmployee } from "~/lib/session.server";
import { withoutControlCharacters } from "~/lib/validation";

export async function loader({ request, params }: Route.LoaderArgs) {
  const employee = await requireEmployee(request);
  const lead = await leadDetail(params.leadId);
  if (!lead) throw new Response("Lead not found", { status: 404 });
  const url = new URL(request.url);
  const [offer, handymen] = await Promise.all([
    walkThruOffer({
      customerId: lead.customerId,
      date: url.searchParams.get("date"),
      handymanId: url.searchParams.get("handyman") || null,
    }),
    bookableHandymen(),
  ]);
  // 'Cancel walk-thru' asks first (?cancel=<id>): a page of its own, so it works without script.
  const asked = url.searchParams.get("cancel");
  const confirmCancel = lead.walkThrus.find((w) => w.id === asked && cancelable(w.status)) ?? null;
  return { employee, lead, offer, handymen, confirmCancel };
}

/** The walk-thru's handyman picker lists handymen only (staff_role 'handyman', ADR 047). */
async function bookableHandymen() {
  return (await listEmployees())
    .filter((e) => e.role === "handyman")
    .map((e) => ({ id: e.userId, name: e.name }));
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: `Lead: ${data?.lead.name ?? "Lead"}` }];
}

type Outcome = FormAnswer<{ intent: string; message: string }>;

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be less than ${max} characters`)
    .refine(withoutControlCharacters, `${label} contains characters that are not allowed`)
    .optional()
    .transform((v) => v || null);

const updateSchema = z.object({
  status: z.enum(["new", "contacted", "walk_thru_booked", "member", "lost"], {
    error: "Please choose a status",
  }),
  lostReason: optionalText("Reason", 300),
  notes: optionalText("Notes", 4000),
  ownerId: z
    .string()
    .max(100)
    .optional()
    .transform((v) => v || null),
});

/** Staff's actions on a lead: update it, invite it, book its walk-thru. Staff only. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const refused = (intent: string, message: string, status = 400) =>
    answer<Outcome>({ ok: false, intent, message }, context, { status });
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const staff = guard.employee;
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = text("intent");
  const lead = await leadDetail(params.leadId);
  if (!lead) return refused(intent, "Lead not found.", 404);
  try {
    switch (intent) {
      case "update": {
        const parsed = parseIntent(form, updateSchema, intent);
        if (!parsed.ok) return answer(parsed.refusal, context);
        const { status } = parsed.value;
        // 'Walk-thru booked' and 'Member' follow what happened; staff keep them or choose another.
        if ((status === "walk_thru_booked" || status === "member") && status !== lead.status)
          return refused(
            intent,
            `'${LEAD_STATUS_LABELS[status]}' is set by booking a walk-thru or starting a membership.`,
          );
        await updateLead(params.leadId, { ...parsed.value, keep: status === lead.status });
        return answer<Outcome>({ ok: true, intent, message: "Lead saved." }, context);
      }
      case "invite": {
        const invited = await inviteLead(params.leadId);
        return answer<Outcome>(
          {
            ok: true,
            intent,
            message: invited.linked
              ? "This e-mail already has an account: the lead is now linked to it."
              : `Invitation sent to ${invited.email}.`,
          },
          context,
        );
      }
      case "book-walk-thru": {
        const parsed = parseIntent(form, walkThruSchema, intent);
        if (!parsed.ok) return answer(parsed.refusal, context);
        const { employeeId } = parsed.value;
        if (employeeId && !(await bookableHandymen()).some((h) => h.id === employeeId))
          return refused(intent, "Please choose a handyman.");
        const booked = await bookWalkThru(
          {
            ...parsed.value,
            leadId: lead.id,
            customerId: lead.customerId,
            email: lead.email,
          },
          { id: staff.id, isEmployee: true },
        );
        return answer<Outcome>(
          {
            ok: true,
            intent,
            message: `Walk-thru booked: ${booked.when} with ${booked.handyman.name}.`,
          },
          context,
        );
      }
      case "cancel-walk-thru": {
        const appointmentId = text("appointmentId");
        if (!isUuid(appointmentId)) return refused(intent, "Walk-thru not found.", 404);
        const canceled = await cancelWalkThru(
          { id: staff.id, isEmployee: true },
          { leadId: lead.id, appointmentId },
        );
        return answer<Outcome>(
          {
            ok: true,
            intent,
            message: `Walk-thru canceled (${canceled.when}); ${lead.name} was told by e-mail.`,
          },
          context,
        );
      }
      default:
        return refused(intent, "Unknown action.");
    }
  } catch (error) {
    if (error instanceof LeadRejectedError) return refused(intent, error.message, 409);
    if (error instanceof VisitRejectedError) return refused(intent, error.message, 409);
    logger.error({ err: (error as Error).message, intent }, "lead action failed");
    return refused(intent, "Something went wrong. Nothing was changed.", 500);
  }
}

export default function EmployeeLead({ loaderData, actionData }: Route.ComponentProps) {
  const { lead, offer, employee, handymen, confirmCancel } = loaderData;
  const outcome = actionData && "intent" in actionData ? (actionData as Outcome) : null;
  useAnswerToast(outcome);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <>
      <StaffHeader employee={employee} width="max-w-5xl" />
      <main className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-6 sm:py-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-bold">{lead.name}</h1>
          <Button asChild variant="outline">
            <Link to="/employee?tab=leads">Back to Leads</Link>
          </Button>
        </div>
        <LeadFactsCard lead={lead} />
        <LeadNextStepCard lead={lead} busy={busy} outcome={outcome} />
        <LeadWalkThruCard lead={lead} confirmCancel={confirmCancel} busy={busy} outcome={outcome}>
          <WalkThruBooking
            offer={offer}
            defaults={{ name: lead.name, address: "" }}
            handymen={handymen}
            error={outcome?.intent === "book-walk-thru" && !outcome.ok ? outcome.message : null}
            refused={outcome}
          />
        </LeadWalkThruCard>
        <LeadUpdateCard lead={lead} busy={busy} outcome={outcome} />
        <LeadEntriesCard entries={lead.entries} />
      </main>
    </>
  );
}
