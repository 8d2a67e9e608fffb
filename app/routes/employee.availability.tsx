import { Link, redirect } from "react-router";
import { answer } from "~/lib/form-answer.server";
import type { Route } from "./+types/employee.availability";
import { buttonVariants } from "~/components/ui/button-variants";
import {
  daysClosedByHolidaySettings,
  holidaySettings,
  listClosedDays,
  saveHolidaySettings,
  setClosedDay,
} from "~/features/availability/closed-days.server";
import {
  AvailabilityInputError,
  addTimeOff,
  listTimeOff,
  parseClosedDay,
  parseTimeOff,
  removeTimeOff,
  saveWorkingWeek,
  weekOfForm,
  workingWeek,
} from "~/features/availability/staff-availability.server";
import {
  isStaffRole,
  LastOfficeAccountError,
  listEmployees,
  setStaffRole,
} from "~/features/accounts/index.server";
import { denial, guardStaff, OFFICE_ONLY_MESSAGE } from "~/features/employee/guard.server";
import { strandedHeadline, type Closure } from "~/features/availability/closures.server";
import {
  ClosureWarningsError,
  cancelStrandedVisits,
  moveStrandedVisits,
  strandedVisits,
  type MoveTarget,
} from "~/features/visits/closures.server";
import { overrideFromForm } from "~/features/visits/overrides.server";
import { VisitRejectedError } from "~/features/visits/visits.server";
import { StrandedVisits } from "~/features/visits/components/stranded-visits";
import {
  addYears,
  businessToday,
  parseIsoDate,
  DATE_WINDOW,
  isHolidayKey,
  longDate,
} from "~/lib/business-calendar";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { ClosedDays } from "~/features/availability/components/closed-days";
import { TimeOff, WhoseHours, WorkingHours } from "~/features/availability/components/staff-hours";
import { requireStaff } from "~/lib/session.server";

/*
 * Staff availability settings: a working week and time off (reached from Profile Settings), and
 * the business's closed days. Office staff pick whose hours they set (the 'Handyman' picker,
 * ?employee=), set each employee's role, and keep the closed days; a handyman sets their own
 * hours and time off only (ADR 047).
 */

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireStaff(request);
  const today = businessToday();
  const office = !employee.isHandyman;
  const employees = office ? await listEmployees() : [];
  const asked = new URL(request.url).searchParams.get("employee");
  const chosen = employees.find((e) => e.userId === asked) ?? null;
  const subjectId = chosen?.userId ?? employee.id;
  const [week, timeOff, closed, holidays] = await Promise.all([
    workingWeek(subjectId),
    listTimeOff(subjectId, today),
    office ? listClosedDays(today, 400) : [],
    office ? holidaySettings() : [],
  ]);
  const params = new URL(request.url).searchParams;
  const saved = params.get("saved");
  // How many visits the closure moved or canceled before it was saved.
  const count = (name: string) => Math.max(0, Math.min(999, Number(params.get(name)) || 0));
  const handled = { canceled: count("canceled"), moved: count("moved") };
  // The furthest day the forms take (ADR 039); the server checks it too.
  const latest = addYears(today, DATE_WINDOW.schedule.yearsAhead);
  const subject = employees.find((e) => e.userId === subjectId) ?? null;
  return {
    employee,
    office,
    employees,
    subject: {
      id: subjectId,
      own: subjectId === employee.id,
      name: subject?.name ?? null,
      role: subject?.role ?? null,
    },
    today,
    latest,
    week,
    timeOff,
    closed,
    holidays,
    saved,
    handled,
  };
}

/** The holidays the holidays form closes. */
function closedHolidaysOf(form: FormData) {
  return new Set(form.getAll("closedHoliday").map(String).filter(isHolidayKey));
}

/** The closure a form would save, or null for the forms that close nothing. */
async function closureOf(intent: unknown, form: FormData, employeeId: string) {
  const today = businessToday();
  if (intent === "holidays") {
    // The days it would newly close, as far ahead as anything can be booked.
    const latest = addYears(today, DATE_WINDOW.schedule.yearsAhead);
    const days = await daysClosedByHolidaySettings(closedHolidaysOf(form), today, latest);
    return days.length ? ({ kind: "days", days } satisfies Closure) : null;
  }
  if (intent === "close-day")
    return { kind: "day", date: parseClosedDay(form, today).date } satisfies Closure;
  if (intent === "time-off") {
    const { startDate, endDate } = parseTimeOff(form, today);
    return { kind: "time-off", employeeId, startDate, endDate } satisfies Closure;
  }
  if (intent === "hours")
    return { kind: "hours", employeeId, week: weekOfForm(form) } satisfies Closure;
  return null;
}

/** Why the business canceled, as the member's e-mail says it. */
function closureWhy(closure: Closure, form: FormData) {
  const note = String(form.get("note") ?? "").trim();
  if (closure.kind === "day")
    return `we are closed on ${longDate(closure.date)}${note ? `: ${note}` : ""}`;
  if (closure.kind === "days")
    return `we are closed on ${[...new Set(closure.days.map((d) => d.name))].join(" and ")}`;
  if (closure.kind === "time-off") return "your handyman is away that day";
  return "your handyman's working hours changed";
}

/** The fields a closure form posted, to post again with the choice (without the choice). */
const CHOICE_FIELD = /^(resolution|bookAnyway|overrideReason|visit|date-|start-|employee-)/;
function closureFields(form: FormData) {
  return [...form.entries()]
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .filter(([name]) => !CHOICE_FIELD.test(name));
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
function targetsOf(form: FormData) {
  const targets: Record<string, MoveTarget | undefined> = {};
  for (const id of form.getAll("visit").map(String)) {
    const date = String(form.get(`date-${id}`) ?? "");
    const time = TIME.exec(String(form.get(`start-${id}`) ?? ""));
    const employeeId = String(form.get(`employee-${id}`) ?? "") || null;
    // A two-handymen visit's second handyman (ADR 091): posted only for such a visit.
    const second = form.get(`second-${id}`);
    const secondHandymanId = second === null ? undefined : String(second) || null;
    targets[id] =
      parseIsoDate(date) && time
        ? {
            date,
            startMinute: Number(time[1]) * 60 + Number(time[2]),
            employeeId,
            secondHandymanId,
          }
        : undefined;
  }
  return targets;
}

export async function action({ request, context }: Route.ActionArgs) {
  const guard = await guardStaff(request);
  if (guard.denied) return guard.denied;
  const form = await request.formData();
  const intent = form.get("intent");
  const office = !guard.employee.isHandyman;
  // Whose hours: office staff choose any employee; a handyman only ever their own.
  const asked = String(form.get("employeeId") ?? "") || guard.employee.id;
  if (asked !== guard.employee.id) {
    if (!office) return denial(403, "You can change your own hours and time off only.");
    if (!(await listEmployees()).some((e) => e.userId === asked))
      return answer({ ok: false as const, message: "Please choose an employee." }, context, {
        status: 400,
      });
  }
  const id = asked;
  const officeOnly = ["holidays", "close-day", "open-day", "role"];
  if (!office && officeOnly.includes(String(intent))) return denial(403, OFFICE_ONLY_MESSAGE);
  const back = (saved: string) =>
    redirect(
      `/employee/availability?saved=${saved}${id !== guard.employee.id ? `&employee=${encodeURIComponent(id)}` : ""}`,
    );
  const actor = { id: guard.employee.id, isEmployee: true };
  let handled = "";
  try {
    if (intent === "role") {
      const role = form.get("role");
      if (!isStaffRole(role))
        return answer({ ok: false as const, message: "Please choose a role." }, context, {
          status: 400,
        });
      try {
        await setStaffRole(id, role);
      } catch (error) {
        if (!(error instanceof LastOfficeAccountError)) throw error;
        return answer({ ok: false as const, message: error.message }, context, { status: 409 });
      }
      return back("role");
    }
    // A closure over booked visits lists them first; it is saved once each is moved or
    // canceled (issue 26, item 4; ADR 050).
    const closure: Closure | null = await closureOf(intent, form, id);
    if (closure) {
      const resolution = form.get("resolution");
      let warnings: Record<string, string[]> | undefined;
      let message: string | undefined;
      try {
        if (resolution === "cancel")
          handled = `&canceled=${await cancelStrandedVisits(actor, closure, closureWhy(closure, form))}`;
        else if (resolution === "move")
          handled = `&moved=${await moveStrandedVisits(actor, closure, targetsOf(form), overrideFromForm(form))}`;
      } catch (error) {
        if (error instanceof ClosureWarningsError) warnings = error.warnings;
        else if (error instanceof VisitRejectedError) message = error.message;
        else throw error;
      }
      const stranded = await strandedVisits(actor, closure);
      if (stranded.length)
        return answer(
          {
            ok: false as const,
            message: message ?? strandedHeadline(stranded.length),
            stranded: {
              headline: strandedHeadline(stranded.length),
              visits: stranded,
              fields: closureFields(form),
              warnings: warnings ?? {},
              targets: resolution === "move" ? targetsOf(form) : {},
            },
          },
          context,
          { status: 409 },
        );
    }
    if (intent === "hours") await saveWorkingWeek(id, form);
    else if (intent === "time-off") await addTimeOff(id, form, businessToday());
    else if (intent === "remove-time-off") await removeTimeOff(id, String(form.get("id") ?? ""));
    else if (intent === "holidays")
      await saveHolidaySettings(closedHolidaysOf(form), guard.employee.id);
    else if (intent === "close-day" || intent === "open-day") {
      const { date, note } = parseClosedDay(form, businessToday());
      await setClosedDay({ date, closed: intent === "close-day", note }, guard.employee.id);
    } else
      return answer({ ok: false as const, message: "Unknown action." }, context, { status: 400 });
  } catch (error) {
    if (error instanceof AvailabilityInputError)
      return answer({ ok: false as const, message: error.message }, context, { status: 400 });
    throw error;
  }
  return back(`${String(intent)}${handled}`);
}

export function meta() {
  return [{ title: "Working Hours and Closed Days" }];
}

const SAVED: Record<string, string> = {
  hours: "Working hours saved.",
  "time-off": "Time off added.",
  "remove-time-off": "Time off removed.",
  "close-day": "Closed day saved.",
  "open-day": "The day is open again.",
  holidays: "Holidays saved.",
  role: "Role saved.",
};

function visitCount(n: number) {
  return n === 1 ? "1 visit" : `${n} visits`;
}

export default function AvailabilityPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const stranded = (
    actionData as
      { stranded?: Omit<React.ComponentProps<typeof StrandedVisits>, "employees"> } | undefined
  )?.stranded;
  const error =
    actionData && !actionData.ok && actionData.message !== stranded?.headline
      ? actionData.message
      : undefined;
  return (
    <>
      <StaffHeader employee={d.employee} width="max-w-3xl" />
      <main className="mx-auto grid max-w-3xl gap-6 px-4 py-6 sm:py-8">
        <h1 className="text-2xl font-bold sm:text-3xl">Working Hours and Closed Days</h1>
        {error ? (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/10 px-4 py-3 text-destructive"
          >
            {error}
          </p>
        ) : d.saved && SAVED[d.saved] ? (
          <p role="status" className="rounded-md border bg-card px-4 py-3">
            {SAVED[d.saved]}
            {d.handled.canceled
              ? ` ${visitCount(d.handled.canceled)} canceled; the members were told by e-mail.`
              : ""}
            {d.handled.moved ? ` ${visitCount(d.handled.moved)} moved.` : ""}
          </p>
        ) : null}
        {stranded ? <StrandedVisits {...stranded} employees={d.employees} /> : null}

        {d.office && <WhoseHours subject={d.subject} employees={d.employees} />}

        <WorkingHours subject={d.subject} week={d.week} />

        <TimeOff subject={d.subject} timeOff={d.timeOff} today={d.today} latest={d.latest} />

        {d.office && (
          <ClosedDays holidays={d.holidays} closed={d.closed} today={d.today} latest={d.latest} />
        )}
        <Link
          to={d.office ? "/employee?tab=appointments" : "/employee/today"}
          className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
        >
          {d.office ? "Back to the dashboard" : "Back to Today"}
        </Link>
      </main>
    </>
  );
}
