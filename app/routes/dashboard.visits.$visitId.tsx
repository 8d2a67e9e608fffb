import { AppHeader } from "~/components/layout/app-header";
import { Form, Link, redirect, useNavigation } from "react-router";
import { answer } from "~/lib/form-answer.server";
import type { FormAnswer } from "~/lib/form-answer";
import type { Route } from "./+types/dashboard.visits.$visitId";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { ProfileMenu } from "~/features/accounts/components/profile-menu";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { offerVisits } from "~/features/availability/availability.server";
import { isVisitBlock } from "~/features/availability/slots";
import { DayRadios, radio } from "~/features/visits/components/book-visit";
import { VISIT_STATUS_LABELS } from "~/features/visits/visit-state";
import {
  cancelMemberVisit,
  moveMemberVisit,
  staffMoveMemberVisit,
} from "~/features/visits/member-visits.server";
import {
  BookAnywayNeededError,
  overrideFromForm,
  overridesOf,
} from "~/features/visits/overrides.server";
import { visitHold } from "~/features/memberships/index.server";
import { visitReport, type VisitReport } from "~/features/visits/visit-report.server";
import { listEmployees } from "~/features/accounts/index.server";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import {
  VisitRejectedError,
  findVisit,
  memberMayChange,
  visitDetails,
} from "~/features/visits/visits.server";
import {
  longDate,
  minuteLabel,
  minuteOfDay,
  parseIsoDate,
  timeOfDay,
} from "~/lib/business-calendar";
import { getSessionUser } from "~/lib/session.server";
import { useBusiness } from "~/lib/business";
import { isUuid } from "~/lib/uuid";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import {
  ALREADY_DONE,
  FORM_OUT_OF_DATE,
  isActionKey,
  newActionKey,
} from "~/lib/action-keys.server";
import { bothHandymen } from "~/lib/two-handymen";
import { SecondHandymanForm } from "~/features/visits/components/second-handyman-form";
import { secondHandymanDetails } from "~/features/visits/second-handyman.server";
import { setSecondHandyman } from "~/features/visits/second-handyman-office.server";

/** What the office hears after 'Save second handyman' (ADR 091). */
const SECOND_HANDYMAN_ANSWERS = {
  added: "The second handyman is added, the fee charged, and the member told by e-mail.",
  removed: "The second handyman is removed, the fee reversed, and the member told by e-mail.",
  unchanged: "The visit already has these handymen.",
  "already done": ALREADY_DONE,
} as const;

/*
 * One visit: its details, 'Move Visit' (day, then start time) and 'Cancel Visit' for the member
 * up to 24 hours before the start, for staff always; later, 'Call us'. Plain forms throughout.
 */

async function actorFor(request: Request, forAction: boolean) {
  const user = await getSessionUser(request);
  if (!user) {
    if (forAction) throw new Response("Unauthorized", { status: 401 });
    throw redirect("/auth");
  }
  if (!user.isEmployee && !user.hasHome) throw redirect("/auth");
  // A handyman works their visits from 'Today' (ADR 047); this page is the member's and the office's.
  if (user.isHandyman) {
    if (forAction) throw new Response("Forbidden", { status: 403 });
    throw redirect("/employee/today");
  }
  return user;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const actor = await actorFor(request, false);
  if (!isUuid(params.visitId)) throw new Response("Not Found", { status: 404 });
  const visit = await findVisit(actor, params.visitId);
  if (!visit) throw new Response("Not Found", { status: 404 });
  const url = new URL(request.url);
  const details = await visitDetails(visit.id, visit.assignedEmployeeId);
  const mayChange = visit.status === "booked" && (actor.isEmployee || memberMayChange(visit.start));
  const moveDate = url.searchParams.get("date");
  const offer =
    mayChange && url.searchParams.has("move") && isVisitBlock(visit.block)
      ? await offerVisits({
          customerId: visit.customerId,
          block: visit.block,
          excludeAppointmentId: visit.id,
          handymenNeeded: visit.secondHandymanId ? 2 : 1,
        })
      : null;
  const day =
    moveDate && parseIsoDate(moveDate)
      ? (offer?.days.find((d) => d.date === moveDate) ?? null)
      : null;
  const [hold, overrides, employees, report, second] = await Promise.all([
    mayChange ? visitHold(visit.id) : null,
    actor.isEmployee ? overridesOf(visit.id) : [],
    actor.isEmployee && mayChange ? listEmployees() : [],
    // A finished visit shows what it did (issue 40 item 2).
    visit.status === "completed" ? visitReport(visit.id) : null,
    secondHandymanDetails(visit.id),
  ]);
  return {
    user: actor,
    isEmployee: actor.isEmployee,
    // 'Cancel Visit' asks first: ?cancel=1 is the confirm step (a page of its own without
    // JavaScript too).
    confirmCancel: mayChange && url.searchParams.get("cancel") === "1",
    cancelReturns: cancelReturns(actor.isEmployee, hold),
    overrides: overrides.map((o) => ({
      id: o.id,
      staffName: o.staffName,
      action: o.action,
      warnings: o.warnings,
      reason: o.reason,
    })),
    employees,
    assignedEmployeeId: visit.assignedEmployeeId,
    second,
    secondHandymanKey: actor.isEmployee && mayChange ? newActionKey() : null,
    startTime: timeOfDay(minuteOfDay(visit.startTime)),
    booked: url.searchParams.get("booked") === "1",
    visit: {
      id: visit.id,
      status: visit.status,
      date: visit.scheduledDate,
      when: `${minuteLabel(minuteOfDay(visit.startTime))} to ${minuteLabel(minuteOfDay(visit.endTime))}`,
      block: hoursText(visit.block),
      ...details,
    },
    report,
    mayChange,
    moving: Boolean(offer),
    days: offer?.days.map((d) => ({ date: d.date, label: d.label })) ?? [],
    day,
  };
}

/** What canceling gives back, said to the member or, for staff, about the member. */
function cancelReturns(staff: boolean, hold: { minutes: number; isExtra: boolean } | null) {
  if (staff) {
    if (!hold) return "The tasks go back to the customer's lists.";
    return hold.isExtra
      ? "The member's $150 extra-visit charge is reversed and the tasks go back to their lists."
      : `The member's hours go back to the bank (${hoursText(hold.minutes)}) and the tasks back to their lists.`;
  }
  if (!hold) return "Its tasks go back to your lists.";
  return hold.isExtra
    ? "It was booked as an extra visit: its $150 charge is reversed. Its tasks go back to your lists."
    : `Its ${hoursText(hold.minutes)} go back to your hours bank and its tasks back to your lists.`;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * What a move or a cancel answers (ADR 033), in place on this page: what was done, or why not
 * (with the warnings to book anyway over, and the staff move's values to put back).
 */
type VisitAnswer = FormAnswer<{
  warnings?: string[];
  values?: { date: string; startTime: string; employeeId: string | null };
}>;

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = await actorFor(request, true);
  if (!isUuid(params.visitId)) throw new Response("Not Found", { status: 404 });
  const form = await request.formData();
  const intent = form.get("intent");
  const moved = () =>
    answer<VisitAnswer>(
      {
        ok: true,
        message: actor.isEmployee
          ? "The visit has moved. The member's e-mail carries the new calendar file."
          : "Your visit has moved. The e-mail's calendar file updates your calendar.",
      },
      context,
    );
  try {
    if (intent === "second-handyman" && actor.isEmployee) {
      const key = form.get("key");
      if (!isActionKey(key)) return answer({ ok: false, message: FORM_OUT_OF_DATE }, context);
      const second = String(form.get("second") ?? "") || null;
      const change = await setSecondHandyman(actor, params.visitId, second, key);
      return answer<VisitAnswer>({ ok: true, message: SECOND_HANDYMAN_ANSWERS[change] }, context);
    }
    if (intent === "cancel") {
      await cancelMemberVisit(actor, params.visitId);
      // Staff go back to their list of appointments; the member is answered here, in place.
      if (actor.isEmployee) return redirect("/employee?tab=appointments");
      return answer<VisitAnswer>(
        { ok: true, message: "Your visit is canceled. Its hours are back in your bank." },
        context,
      );
    }
    if (intent === "staff-move" && actor.isEmployee) {
      const date = String(form.get("date") ?? "");
      const time = TIME.exec(String(form.get("startTime") ?? ""));
      const employeeId = String(form.get("employee") ?? "") || null;
      if (!parseIsoDate(date) || !time)
        return answer({ ok: false, message: "Please choose a day and a start time." }, context);
      try {
        await staffMoveMemberVisit(
          actor,
          params.visitId,
          { date, startMinute: Number(time[1]) * 60 + Number(time[2]), employeeId },
          { override: overrideFromForm(form) },
        );
      } catch (error) {
        if (error instanceof BookAnywayNeededError)
          return answer(
            {
              ok: false,
              message: "Please check before moving.",
              warnings: error.warnings,
              values: { date, startTime: String(form.get("startTime")), employeeId },
            },
            context,
            { status: 409 },
          );
        throw error;
      }
      return moved();
    }
    if (intent === "move") {
      const date = String(form.get("date") ?? "");
      const [start, employee] = String(form.get("start") ?? "").split("|");
      if (!parseIsoDate(date) || !/^\d{1,4}$/.test(start)) {
        return answer({ ok: false, message: "Please choose a day and a start time." }, context);
      }
      await moveMemberVisit(actor, params.visitId, {
        date,
        startMinute: Number(start),
        employeeId: actor.isEmployee && employee ? employee : undefined,
      });
      return moved();
    }
    return answer({ ok: false, message: "Unknown action." }, context);
  } catch (error) {
    if (error instanceof VisitRejectedError)
      return answer({ ok: false, message: error.message }, context, { status: 409 });
    throw error;
  }
}

export function meta() {
  return [{ title: "Your Visit" }];
}

export default function VisitPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const business = useBusiness();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const back = d.isEmployee ? "/employee?tab=appointments" : "/dashboard?tab=schedule";
  const answered = actionData as VisitAnswer | undefined;
  const warnings = answered?.warnings ?? [];
  // Moved or canceled just now: the answer says so, and the time picker the form was on closes.
  const done = answered?.ok ? answered.message : null;
  return (
    <>
      {d.user.isEmployee ? (
        <StaffHeader employee={d.user} width="max-w-2xl" />
      ) : (
        <AppHeader width="max-w-2xl">
          <ProfileMenu user={d.user} />
        </AppHeader>
      )}
      <main className="mx-auto grid max-w-2xl gap-4 px-4 py-6 sm:py-8">
        <h1 className="text-2xl font-bold sm:text-3xl">
          {d.isEmployee ? `Visit for ${d.visit.customerName}` : "Your Visit"}
        </h1>
        {d.booked ? (
          <p
            role="status"
            className="rounded-md border border-green-600/40 bg-green-600/10 px-4 py-3"
          >
            Your visit is booked! A confirmation with a calendar file is on its way.
          </p>
        ) : null}
        {done ? (
          <p
            role="status"
            className="rounded-md border border-green-600/40 bg-green-600/10 px-4 py-3"
          >
            {done}
          </p>
        ) : null}
        {answered && !answered.ok && answered.message && !warnings.length ? (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/10 px-4 py-3 text-destructive"
          >
            {answered.message}
          </p>
        ) : null}
        <section className="grid gap-2 rounded-lg border bg-card p-4" aria-label="Visit details">
          <p className="text-lg font-semibold">{longDate(d.visit.date)}</p>
          <p>
            {d.visit.when} ({d.visit.block})
          </p>
          {d.isEmployee ? <p>Customer: {d.visit.customerName}</p> : null}
          {d.visit.handymanName ? (
            <p data-testid="visit-handymen">
              {d.second
                ? `Handymen: ${bothHandymen(d.visit.handymanName, d.second.name)}`
                : `Handyman: ${d.visit.handymanName}`}
            </p>
          ) : null}
          {d.second?.feeLine ? (
            <p data-testid="second-handyman-fee">
              <span className="font-medium">{d.second.feeLine}</span>, charged to the membership.
            </p>
          ) : null}
          {d.visit.extra ? (
            <p data-testid="extra-visit-charge">
              <span className="font-medium">{d.visit.extra.label}.</span>
              {d.visit.extra.reason ? ` ${d.visit.extra.reason}` : null}
            </p>
          ) : null}
          {d.overrides.map((o) => (
            <p key={o.id} className="text-sm">
              {o.action === "move" ? "Moved" : "Booked"} anyway by {o.staffName}:{" "}
              {o.warnings.join(" ")}
              {o.reason ? ` Reason: ${o.reason}` : ""}
            </p>
          ))}
          {d.visit.status === "canceled" ? (
            <p className="font-medium">This visit is canceled.</p>
          ) : d.visit.status === "completed" ? (
            <p className="font-medium">
              This visit is completed. A completed visit cannot be moved or canceled.
            </p>
          ) : d.visit.status !== "booked" ? (
            <p className="font-medium">Status: {VISIT_STATUS_LABELS[d.visit.status]}</p>
          ) : null}
          {d.visit.tasks.length && !d.report ? (
            <ul className="list-disc pl-5">
              {d.visit.tasks.map((task, i) => (
                <li key={i}>{task}</li>
              ))}
            </ul>
          ) : null}
        </section>

        {d.report ? <VisitReportSection report={d.report} /> : null}

        {d.visit.status === "booked" && !d.mayChange ? (
          <section
            className="grid gap-2 rounded-lg border bg-card p-4"
            aria-label="Change this visit"
          >
            <p>This visit starts in less than 24 hours. To move or cancel it, please call us.</p>
            <a
              href={business.phoneHref}
              className={buttonVariants({ className: "w-full sm:w-fit" })}
            >
              Call us {business.phone}
            </a>
          </section>
        ) : null}

        {d.mayChange ? (
          <section
            className="grid gap-3 rounded-lg border bg-card p-4"
            aria-label="Move this visit"
          >
            <h2 className="text-lg font-semibold">Move Visit</h2>
            {!d.moving || done ? (
              <Form method="get">
                <input type="hidden" name="move" value="1" />
                <Button type="submit" variant="outline" className="w-full sm:w-fit">
                  Move Visit
                </Button>
              </Form>
            ) : !d.day ? (
              d.days.length ? (
                <Form method="get" className="grid gap-3">
                  <input type="hidden" name="move" value="1" />
                  <fieldset className="grid gap-2 sm:grid-cols-2">
                    <legend className="mb-2 text-sm text-muted-foreground">Choose a new day</legend>
                    <DayRadios days={d.days} />
                  </fieldset>
                  <Button type="submit" className="w-full sm:w-fit">
                    Next
                  </Button>
                </Form>
              ) : (
                <p>No other time is free in the next 4 weeks. Please call us.</p>
              )
            ) : (
              <Form method="post" className="grid gap-3">
                <input type="hidden" name="intent" value="move" />
                <input type="hidden" name="date" value={d.day.date} />
                <fieldset className="grid gap-2 sm:grid-cols-2">
                  <legend className="mb-2 text-sm text-muted-foreground">
                    Choose a new start time on {d.day.label}
                  </legend>
                  {d.day.slots.map((slot, i) => (
                    <label key={slot.startMinute} className={radio}>
                      <input
                        type="radio"
                        name="start"
                        value={`${slot.startMinute}|${slot.handymen[0].id}`}
                        required
                        defaultChecked={i === 0}
                      />
                      <span>
                        {slot.label}{" "}
                        <span className="text-sm text-muted-foreground">
                          with{" "}
                          {bothHandymen(slot.handymen[0].name, d.second && slot.handymen[1]?.name)}
                        </span>
                      </span>
                    </label>
                  ))}
                </fieldset>
                <Button type="submit" className="w-full sm:w-fit" disabled={busy}>
                  Confirm New Time
                </Button>
              </Form>
            )}
            {d.isEmployee ? (
              <StaffMove
                date={answered?.values?.date ?? d.visit.date}
                startTime={answered?.values?.startTime ?? d.startTime}
                employeeId={answered?.values ? answered.values.employeeId : d.assignedEmployeeId}
                employees={d.employees}
                warnings={warnings}
                busy={busy}
              />
            ) : null}
            {d.secondHandymanKey ? (
              <SecondHandymanForm
                secondId={d.second?.id ?? null}
                firstId={d.assignedEmployeeId}
                employees={d.employees}
                feeCents={business.secondHandymanFeeCents}
                actionKey={d.secondHandymanKey}
                busy={busy}
              />
            ) : null}
            <h2 className="pt-2 text-lg font-semibold">Cancel Visit</h2>
            {d.confirmCancel ? (
              <div
                role="alertdialog"
                aria-labelledby="cancel-confirm-title"
                aria-describedby="cancel-confirm-text"
                className="grid gap-3 rounded-md border border-destructive/40 p-3"
              >
                <p id="cancel-confirm-title" className="font-semibold">
                  Cancel this visit?
                </p>
                <p id="cancel-confirm-text">{d.cancelReturns}</p>
                <div className="flex flex-wrap gap-2">
                  <Form method="post">
                    <input type="hidden" name="intent" value="cancel" />
                    <Button
                      type="submit"
                      variant="destructive"
                      className="w-full sm:w-fit"
                      disabled={busy}
                    >
                      Yes, cancel the visit
                    </Button>
                  </Form>
                  <Link
                    to={`/dashboard/visits/${d.visit.id}`}
                    className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
                  >
                    Keep the visit
                  </Link>
                </div>
              </div>
            ) : (
              <>
                <p className="text-sm text-muted-foreground">{d.cancelReturns}</p>
                <Form method="get">
                  <input type="hidden" name="cancel" value="1" />
                  <Button type="submit" variant="destructive" className="w-full sm:w-fit">
                    Cancel Visit
                  </Button>
                </Form>
              </>
            )}
          </section>
        ) : null}
        <Link
          to={back}
          className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
        >
          Back to the dashboard
        </Link>
      </main>
    </>
  );
}

/** Staff move the visit to a day, start and handyman they choose, warned before 'Book anyway'. */
function StaffMove({
  date,
  startTime,
  employeeId,
  employees,
  warnings,
  busy,
}: {
  date: string;
  startTime: string;
  employeeId: string | null;
  employees: { userId: string; name: string }[];
  warnings: string[];
  busy: boolean;
}) {
  return (
    <Form method="post" className="grid gap-3 sm:grid-cols-3 sm:items-end">
      <input type="hidden" name="intent" value="staff-move" />
      <h3 className="font-semibold sm:col-span-3">Move to a time you choose</h3>
      <div className="grid gap-1">
        <Label htmlFor="staff-move-date">Day</Label>
        <Input id="staff-move-date" type="date" name="date" defaultValue={date} required />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="staff-move-start">Start</Label>
        <Input
          id="staff-move-start"
          type="time"
          name="startTime"
          defaultValue={startTime}
          required
        />
      </div>
      <div className="grid gap-1">
        <Label htmlFor="staff-move-employee">Handyman</Label>
        <NativeSelect id="staff-move-employee" name="employee" defaultValue={employeeId ?? ""}>
          <option value="">Unassigned</option>
          {employees.map((e) => (
            <option key={e.userId} value={e.userId}>
              {e.name}
            </option>
          ))}
        </NativeSelect>
      </div>
      {warnings.length ? (
        <div
          role="alert"
          className="grid gap-2 rounded-md border border-amber-600/50 bg-amber-50 p-3 text-amber-950 sm:col-span-3 dark:bg-amber-950/30 dark:text-amber-50"
        >
          <p className="font-medium">Please check before moving:</p>
          <ul className="list-disc pl-5 text-sm">
            {warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
          <Label htmlFor="staff-move-reason">Why book anyway (optional)</Label>
          <Input id="staff-move-reason" name="overrideReason" maxLength={200} />
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2 sm:col-span-3">
        <Button type="submit" variant="outline" className="w-full sm:w-fit" disabled={busy}>
          Move to this time
        </Button>
        {warnings.length ? (
          <Button
            type="submit"
            name="bookAnyway"
            value="on"
            className="w-full sm:w-fit"
            disabled={busy}
          >
            Book anyway
          </Button>
        ) : null}
      </div>
    </Form>
  );
}

const PART_STATUS_WORDS: Record<VisitReport["parts"][number]["status"], string> = {
  pending_approval: "waiting for your approval",
  approved: "approved",
  declined: "declined",
  bought: "bought",
};

/** A completed visit: the time worked, each task's outcome with its photos, the parts. */
function VisitReportSection({ report }: { report: VisitReport }) {
  return (
    <section
      aria-labelledby="visit-report-title"
      className="grid gap-3 rounded-lg border bg-card p-4"
    >
      <h2 id="visit-report-title" className="text-lg font-semibold">
        What was done
      </h2>
      <p>
        Time worked:{" "}
        <span className="font-medium" data-testid="time-worked">
          {report.minutesWorked === null ? "Not recorded" : hoursText(report.minutesWorked)}
        </span>
      </p>
      <ul className="grid gap-3">
        {report.tasks.map((t) => (
          <li key={t.id} className="grid gap-1" data-task-outcome={t.outcome ?? "none"}>
            <p>
              <span className="font-medium">{t.description}</span>:{" "}
              {t.outcome === "done"
                ? "Done"
                : t.outcome === "not_done"
                  ? "Not done (back on your list)"
                  : "Not marked"}
            </p>
            {t.photos.length ? (
              <ul className="flex flex-wrap gap-2" aria-label={`Photos of ${t.description}`}>
                {t.photos.map((p) => {
                  const label =
                    p.taken === "before" ? "Before" : p.taken === "after" ? "After" : "Your photo";
                  return (
                    <li key={p.id} className="grid justify-items-center gap-1 text-xs">
                      <a href={`/request-photos/${p.id}`}>
                        <img
                          src={`/request-photos/${p.id}/thumbnail`}
                          alt={`${label}: ${p.name}`}
                          width={80}
                          height={80}
                          loading="lazy"
                          className="size-20 rounded object-cover"
                        />
                      </a>
                      <span>{label}</span>
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
      {report.parts.length ? (
        <>
          <h3 className="font-medium">Parts</h3>
          <ul className="grid gap-1 text-sm">
            {report.parts.map((p) => (
              <li key={p.id}>
                {p.description}: {formatCents(p.costCents)} ({PART_STATUS_WORDS[p.status]})
                {p.hasReceipt ? (
                  <>
                    {" "}
                    <a className="underline" href={`/part-receipts/${p.id}`}>
                      Receipt
                    </a>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
