import { AppHeader } from "~/components/layout/app-header";
import { ProfileMenu } from "~/features/accounts";
import { Link, redirect, useNavigation } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { answer } from "~/lib/form-answer.server";
import type { Route } from "./+types/dashboard.book";
import { openDuePlanRequests } from "~/features/home/index.server";
import { loadOfferContext, offerVisits } from "~/features/availability/availability.server";
import { bookingHref, offeredStarts, parseBookingChoice } from "~/features/visits/booking-steps";
import { serviceRequestSchema } from "~/features/service-requests/schema";
import { createServiceRequest } from "~/features/service-requests/service-requests.server";
import { limitRequestCreation } from "~/features/service-requests/limits.server";
import { BookVisit } from "~/features/visits/components/book-visit";
import { currentMembership } from "~/features/memberships/summary.server";
import {
  MEMBERS_ONLY_MESSAGE,
  bookMemberVisit,
  bookingNextSteps,
  visitSpendSummary,
} from "~/features/visits/member-visits.server";
import {
  FIRST_VISIT_TASK_LIMIT,
  VisitRejectedError,
  bookableRequests,
  isFirstVisit,
} from "~/features/visits/visits.server";
import { minuteLabel } from "~/lib/business-calendar";
import { bookingHandymen } from "~/features/handymen/away.server";
import { bothHandymen } from "~/lib/two-handymen";
import { requireCustomer, requireCustomerForAction } from "~/lib/session.server";

/** 'Book a Visit', one step per GET form (works without JavaScript), confirmed by a POST. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCustomer(request);
  const choice = parseBookingChoice(new URL(request.url).searchParams);
  const membership = await currentMembership(user.id);
  // Booking is a member's: others see why, and the plans are one link away.
  if (membership?.status !== "active") return { user, membersOnly: MEMBERS_ONLY_MESSAGE } as const;
  // The plan's tasks due this month or overdue are offered like any task (ADR 087).
  await openDuePlanRequests(user.id);
  // What the step's offer and the away rule are computed from, read once for both (ADR 107).
  const context = choice.block ? await loadOfferContext({ customerId: user.id }) : undefined;
  // Her handyman, and when he is away his cover (ADR 088): named at each step.
  const handymen = choice.block
    ? await bookingHandymen(user.id, choice.block, context?.now, context)
    : null;
  const [offer, requests, firstVisit] = await Promise.all([
    // Once a day is chosen, only that day's free time is computed (the later steps need no other).
    choice.block
      ? offerVisits({
          context,
          employeeIds: choice.withId ? [choice.withId] : undefined,
          customerId: user.id,
          block: choice.block,
          onlyDate: choice.date,
          // The day step lists the days with time; a day's starts are the next step's.
          firstStartOnly: !choice.date,
          handymenNeeded: choice.two ? 2 : 1,
        })
      : null,
    bookableRequests(user.id),
    isFirstVisit(user.id),
  ]);
  const day = (choice.date && offer?.days.find((d) => d.date === choice.date)) || null;
  const slot = day?.slots.find((s) => s.startMinute === choice.startMinute);
  const handyman = slot?.handymen.find((h) => h.id === choice.employeeId) ?? slot?.handymen[0];
  // Only for a day on offer: a date typed into the URL (year 9999) is never estimated.
  const summary =
    choice.tasksChosen && choice.block && day
      ? await visitSpendSummary(user.id, {
          date: day.date,
          block: choice.block,
          asExtra: choice.asExtra,
        })
      : null;
  // The page carries what its step shows, not every handyman's free time (ADR 077).
  const choosingDay = !choice.date;
  const choosingStart = !!choice.date && choice.startMinute === undefined;
  return {
    user,
    choice,
    days: choosingDay && offer ? offer.days.map((d) => ({ date: d.date, label: d.label })) : null,
    day: choosingStart && day ? offeredStarts(day) : null,
    requests,
    firstVisit,
    taskLimit: firstVisit ? FIRST_VISIT_TASK_LIMIT : null,
    summary,
    // The bank cannot take it: the shorter block, or the extra visit at its price.
    nextSteps:
      summary?.refused && day && choice.block
        ? await bookingNextSteps(user.id, { date: day.date, block: choice.block })
        : [],
    handymanName: handyman
      ? bothHandymen(
          handyman.name,
          choice.two ? slot?.handymen.find((h) => h.id !== handyman.id)?.name : null,
        )
      : null,
    handymen,
    startLabel: choice.startMinute !== undefined ? minuteLabel(choice.startMinute) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCustomerForAction(request);
  const form = await request.formData();
  const choice = parseBookingChoice(form);
  if ((await currentMembership(user.id))?.status !== "active") {
    return answer({ ok: false, message: MEMBERS_ONLY_MESSAGE }, context, { status: 403 });
  }
  if (form.get("intent") === "add-task") {
    // 'Add a task': it becomes one of the member's requests (Next), chosen for this visit.
    const title = String(form.get("title") ?? "");
    const parsed = serviceRequestSchema.safeParse({ title, priority: "next" });
    if (!parsed.success)
      return answer(
        { ok: false, message: parsed.error.issues[0].message, title: title.slice(0, 300) },
        context,
      );
    if (!(await limitRequestCreation(user.id)).allowed)
      return answer(
        {
          ok: false,
          message: "You have added many requests in the last hour. Please try again later.",
          title,
        },
        context,
        { status: 429 },
      );
    const created = await createServiceRequest(user.id, parsed.data);
    return redirect(
      bookingHref(
        { ...choice, requestIds: [...choice.requestIds, created.id], tasksChosen: false },
        "summary",
      ),
    );
  }
  if (!choice.block || !choice.date || choice.startMinute === undefined) {
    return answer(
      { ok: false, message: "Please choose a visit length, a day and a start time." },
      context,
    );
  }
  try {
    const visit = await bookMemberVisit(user.id, {
      block: choice.block,
      date: choice.date,
      startMinute: choice.startMinute,
      employeeId: choice.employeeId,
      requestIds: choice.requestIds,
      asExtra: choice.asExtra,
      twoHandymen: choice.two,
    });
    return redirect(`/dashboard/visits/${visit.id}?booked=1`);
  } catch (error) {
    if (error instanceof VisitRejectedError) {
      return answer({ ok: false, message: error.message }, context, { status: 409 });
    }
    throw error;
  }
}

export function meta() {
  return [{ title: "Book a Visit" }];
}

export default function BookVisitPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  return (
    <>
      <AppHeader width="max-w-2xl">
        <ProfileMenu user={loaderData.user} />
      </AppHeader>
      <main className="mx-auto grid max-w-2xl gap-4 px-4 py-6 sm:py-8">
        <h1 className="text-2xl font-bold sm:text-3xl">Book a Visit</h1>
        {"membersOnly" in loaderData ? (
          <div className="grid gap-3 rounded-lg border bg-card p-4">
            <p>{loaderData.membersOnly}</p>
            <Link
              to="/dashboard?tab=membership"
              className={buttonVariants({ className: "w-full sm:w-fit" })}
            >
              See the plans
            </Link>
          </div>
        ) : (
          <BookVisit
            data={loaderData}
            error={actionData?.message}
            keptTitle={(actionData as { title?: string } | undefined)?.title}
            pending={navigation.state === "submitting"}
          />
        )}
      </main>
    </>
  );
}
