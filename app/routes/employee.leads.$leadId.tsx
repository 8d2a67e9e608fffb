import { Form, Link, useNavigation } from "react-router";
import { zipAndCity } from "~/content/zip-cities";
import { z } from "zod";
import type { Route } from "./+types/employee.leads.$leadId";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { LEAD_STATUS_LABELS, type LeadStatus } from "~/db/lead-status";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { useAnswerToast } from "~/features/employee/use-action-toast";
import { guardEmployee } from "~/features/employee/guard.server";
import {
  LeadStatusBadge,
  sourceLabel,
  whenLabel,
} from "~/features/leads/components/lead-status-badge";
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
import { buttonVariants } from "~/components/ui/button-variants";
import { isUuid } from "~/lib/uuid";
import { VisitRejectedError } from "~/features/visits/visits.server";
import type { FormAnswer } from "~/lib/form-answer";
import { answer } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { requireEmployee } from "~/lib/session.server";
import { withoutControlCharacters } from "~/lib/validation";
import { formatPhone } from "~/lib/phone";
import { longDate, minuteLabel } from "~/lib/business-calendar";

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

/** A walk-thru not yet under way can be canceled from the lead page. */
function cancelable(status: string) {
  return status === "booked" || status === "on_the_way";
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

function formValues(form: FormData) {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}

/** Staff's actions on a lead: update it, invite it, book its walk-thru. Staff only. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const refused = (intent: string, message: string, status = 400) =>
    answer<Outcome>({ ok: false, intent, message }, context, { status });
  const guard = await guardEmployee(request);
  if (guard.denied) return guard.denied;
  const staff = guard.employee;
  const values = formValues(await request.formData());
  const intent = values.intent ?? "";
  const lead = await leadDetail(params.leadId);
  if (!lead) return refused(intent, "Lead not found.", 404);
  try {
    switch (intent) {
      case "update": {
        const parsed = updateSchema.safeParse(values);
        if (!parsed.success) return refused(intent, parsed.error.issues[0].message);
        const { status } = parsed.data;
        // 'Walk-thru booked' and 'Member' follow what happened; staff keep them or choose another.
        if ((status === "walk_thru_booked" || status === "member") && status !== lead.status)
          return refused(
            intent,
            `'${LEAD_STATUS_LABELS[status]}' is set by booking a walk-thru or starting a membership.`,
          );
        await updateLead(params.leadId, { ...parsed.data, keep: status === lead.status });
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
        const parsed = walkThruSchema.safeParse(values);
        if (!parsed.success) return refused(intent, parsed.error.issues[0].message);
        const { employeeId } = parsed.data;
        if (employeeId && !(await bookableHandymen()).some((h) => h.id === employeeId))
          return refused(intent, "Please choose a handyman.");
        const booked = await bookWalkThru(
          {
            ...parsed.data,
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
        const appointmentId = values.appointmentId ?? "";
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

const STAFF_STATUSES: LeadStatus[] = ["new", "contacted", "lost"];

export default function EmployeeLead({ loaderData, actionData }: Route.ComponentProps) {
  const { lead, offer, employee, handymen, confirmCancel } = loaderData;
  const outcome = actionData && "intent" in actionData ? (actionData as Outcome) : null;
  useAnswerToast(outcome);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const statuses =
    lead.status === "walk_thru_booked" || lead.status === "member"
      ? [lead.status, ...STAFF_STATUSES]
      : STAFF_STATUSES;
  const said = (intent: string) =>
    outcome?.intent === intent ? (
      <p
        role={outcome.ok ? "status" : "alert"}
        className={outcome.ok ? "text-sm text-primary" : "text-sm text-destructive"}
      >
        {outcome.message}
      </p>
    ) : null;
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
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2 className="text-xl">Lead</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-3 sm:grid-cols-2">
              <div>
                <dt className="text-sm text-muted-foreground">Status</dt>
                <dd>
                  <LeadStatusBadge status={lead.status} lostReason={lead.lostReason} />
                </dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">E-mail</dt>
                <dd className="break-all">
                  <a className="text-primary underline" href={`mailto:${lead.email}`}>
                    {lead.email}
                  </a>
                </dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">Phone</dt>
                <dd>{formatPhone(lead.phone) ?? "Not given"}</dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">ZIP and city</dt>
                <dd>{zipAndCity(lead.zipCode, lead.city) ?? "Not given"}</dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">Came from</dt>
                <dd className="break-all">
                  {sourceLabel(lead.source)}
                  {lead.pageUrl ? <span className="block text-sm">{lead.pageUrl}</span> : null}
                </dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">First seen</dt>
                <dd>{whenLabel(lead.createdAt)}</dd>
              </div>
              <div>
                <dt className="text-sm text-muted-foreground">Account</dt>
                <dd data-testid="lead-account">
                  {lead.customerId ? (
                    <Link
                      className="text-primary underline"
                      to={`/employee/customers/${lead.customerId}/membership`}
                    >
                      Linked to the customer's account
                    </Link>
                  ) : lead.invitedAt ? (
                    `Invited ${whenLabel(lead.invitedAt)}; no account yet`
                  ) : (
                    "No account yet"
                  )}
                </dd>
              </div>
            </dl>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2 className="text-xl">Next step</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3">
            {lead.customerId ? (
              <Button asChild className="w-fit">
                <Link to={`/employee/customers/${lead.customerId}/membership`}>
                  Send membership offer
                </Link>
              </Button>
            ) : (
              <Form method="post" preventScrollReset>
                <Button type="submit" name="intent" value="invite" disabled={busy}>
                  Invite to create an account
                </Button>
              </Form>
            )}
            {said("invite")}
            {!lead.customerId ? (
              <p className="text-sm text-muted-foreground">
                The membership offer is sent from the customer's page once they have an account.
              </p>
            ) : null}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2 className="text-xl">Walk-thru</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4">
            {lead.walkThrus.length ? (
              <ul className="grid gap-2">
                {lead.walkThrus.map((w) => (
                  <li key={w.id} className="rounded-lg border p-3" data-walk-thru={w.status}>
                    {longDate(w.date)}, {minuteLabel(w.startTime)} to {minuteLabel(w.endTime)}
                    {w.handyman ? ` with ${w.handyman}` : ""} ({w.status.replace(/_/g, " ")})
                    {w.address ? <span className="block text-sm">{w.address}</span> : null}
                    {confirmCancel?.id === w.id ? (
                      <div
                        role="alertdialog"
                        aria-labelledby="cancel-walk-thru-title"
                        aria-describedby="cancel-walk-thru-text"
                        className="mt-2 grid gap-2 rounded-md border border-destructive/40 p-3"
                      >
                        <p id="cancel-walk-thru-title" className="font-semibold">
                          Cancel this walk-thru?
                        </p>
                        <p id="cancel-walk-thru-text" className="text-sm">
                          {lead.name} is told by e-mail and asked to call to choose another time.
                        </p>
                        <div className="flex flex-wrap gap-2">
                          <Form method="post" action={`/employee/leads/${lead.id}`}>
                            <input type="hidden" name="appointmentId" value={w.id} />
                            <Button
                              type="submit"
                              name="intent"
                              value="cancel-walk-thru"
                              variant="destructive"
                              disabled={busy}
                            >
                              Yes, cancel the walk-thru
                            </Button>
                          </Form>
                          <Link
                            to={`/employee/leads/${lead.id}`}
                            className={buttonVariants({ variant: "outline" })}
                          >
                            Keep the walk-thru
                          </Link>
                        </div>
                      </div>
                    ) : cancelable(w.status) ? (
                      <Form method="get" className="mt-2">
                        <input type="hidden" name="cancel" value={w.id} />
                        <Button type="submit" variant="outline" size="sm">
                          Cancel walk-thru
                        </Button>
                      </Form>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">No walk-thru booked yet.</p>
            )}
            {said("book-walk-thru") && outcome?.ok ? said("book-walk-thru") : null}
            {said("cancel-walk-thru")}
            <h3 className="font-semibold">Book a walk-thru</h3>
            <WalkThruBooking
              offer={offer}
              defaults={{ name: lead.name, address: "" }}
              handymen={handymen}
              error={outcome?.intent === "book-walk-thru" && !outcome.ok ? outcome.message : null}
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2 className="text-xl">Status, owner and notes</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <Form method="post" className="grid gap-3" preventScrollReset>
              <div className="grid gap-1.5">
                <Label htmlFor="lead-status">Status</Label>
                <NativeSelect id="lead-status" name="status" defaultValue={lead.status}>
                  {statuses.map((s) => (
                    <option key={s} value={s}>
                      {LEAD_STATUS_LABELS[s]}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="lead-lost-reason">Reason (when lost)</Label>
                <Input
                  id="lead-lost-reason"
                  name="lostReason"
                  defaultValue={lead.lostReason ?? ""}
                  maxLength={300}
                />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="lead-owner">Owner</Label>
                <NativeSelect id="lead-owner" name="ownerId" defaultValue={lead.ownerId ?? ""}>
                  <option value="">Nobody yet</option>
                  {lead.staff.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </NativeSelect>
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="lead-notes">Notes</Label>
                <Textarea
                  id="lead-notes"
                  name="notes"
                  defaultValue={lead.notes ?? ""}
                  maxLength={4000}
                  rows={4}
                />
              </div>
              {said("update")}
              <Button type="submit" name="intent" value="update" disabled={busy} className="w-fit">
                Save lead
              </Button>
            </Form>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2 className="text-xl">Entries ({lead.entries.length})</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2">
              {lead.entries.map((e, i) => (
                <li key={i} className="rounded-lg border p-3 text-sm">
                  <span className="font-medium">
                    {e.kind === "intro-call" ? "Intro call booked" : "Form sent"}
                  </span>{" "}
                  {whenLabel(e.at)}: {sourceLabel(e.source)}
                  {e.startsAt ? (
                    <span className="block">Call at {whenLabel(e.startsAt)}</span>
                  ) : null}
                  {e.pageUrl ? <span className="block break-all">{e.pageUrl}</span> : null}
                  {e.message ? <span className="block">"{e.message}"</span> : null}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </main>
    </>
  );
}
