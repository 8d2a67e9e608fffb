import { redirect } from "react-router";
import type { Route } from "./+types/dashboard.visits.$visitId";
import { answer } from "~/lib/form-answer.server";
import type { FormAnswer } from "~/lib/form-answer";
import { offerVisits } from "~/features/availability/availability.server";
import { isVisitBlock } from "~/features/availability/slots";
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
import { visitReport } from "~/features/visits/visit-report.server";
import { listEmployees } from "~/features/accounts/index.server";
import {
  VisitRejectedError,
  findVisit,
  memberMayChange,
  visitDetails,
} from "~/features/visits/visits.server";
import { minuteLabel, minuteOfDay, parseIsoDate, timeOfDay } from "~/lib/business-calendar";
import { getSessionUser } from "~/lib/session.server";
import { isUuid } from "~/lib/uuid";
import { hoursText } from "~/lib/hours";
import {
  ALREADY_DONE,
  FORM_OUT_OF_DATE,
  isActionKey,
  newActionKey,
} from "~/lib/action-keys.server";
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
 * The visit page's loader and action (the page is dashboard.visits.$visitId.tsx): the member may
 * move or cancel up to 24 hours before the start, staff always; a handyman is sent to 'Today'.
 */

/** The member or the office; anyone else is sent to sign in (a 401 or 403 for an action). */
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

/** The visit page's data: the visit, what may be done with it, and the move's day and times. */
export async function visitPageLoader({ request, params }: Route.LoaderArgs) {
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
export type VisitAnswer = FormAnswer<{
  warnings?: string[];
  values?: { date: string; startTime: string; employeeId: string | null };
}>;

/** A move (the member's or staff's), a cancel, or staff's second handyman. */
export async function visitAction({ request, params, context }: Route.ActionArgs) {
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
