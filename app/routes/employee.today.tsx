import { href, Link } from "react-router";
import type { Route } from "./+types/employee.today";
import { todayAction } from "./employee.today.server";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { WORKED_CHOICES } from "~/features/memberships/schema";
import {
  handymanVisits,
  isTodayView,
  suggestedMinutes,
  type TodayView,
} from "~/features/visits/today.server";
import { TodayVisitCard } from "~/features/visits/components/today-visit-card";
import { newActionKey } from "~/lib/action-keys.server";
import { businessToday, businessWallClock, minuteLabel } from "~/lib/business-calendar";
import { requireStaff } from "~/lib/session.server";
import { TodayHomeRecord } from "~/features/home";
import { homeRecordsFor } from "~/features/home/index.server";
import { ReferSpecialist } from "~/features/specialists";
import { specialistOptions } from "~/features/specialists/refer-form.server";

/*
 * 'Today' (issue 26 items 9-10): the handyman's day on a phone, a card per visit
 * (features/visits/components/today-visit-card.tsx). Its actions are answered beside this route
 * (employee.today.server.ts): plain form posts, each applied once, answered in place.
 */

const VIEW_LABELS: Record<TodayView, string> = {
  today: "Today",
  tomorrow: "Tomorrow",
  week: "This week",
};

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireStaff(request);
  const url = new URL(request.url);
  const asked = url.searchParams.get("view");
  const view: TodayView = isTodayView(asked) ? asked : "today";
  const today = businessToday();
  const now = new Date();
  const [visits, specialists] = await Promise.all([
    handymanVisits(employee.id, view, today),
    specialistOptions(),
  ]);
  return {
    employee,
    view,
    today,
    // The home records of the day's visits (ADR 087).
    homes: await homeRecordsFor(
      employee,
      visits.filter((v) => v.date === today && v.homeId).map((v) => v.homeId!),
    ),
    specialists,
    visits: visits.map(({ startedAt, ...v }) => ({
      ...v,
      suggested: suggestedMinutes(startedAt, v.block, now),
      choices: WORKED_CHOICES.filter((m) => m <= v.block),
      // When 'Start visit' was tapped, as the clock on the wall read it.
      started: startedAt ? minuteLabel(businessWallClock(new Date(startedAt)).minute) : null,
      // One key per form, drawn now: a form sent twice is applied once.
      keys: {
        onMyWay: newActionKey(),
        start: newActionKey(),
        finish: newActionKey(),
        photo: newActionKey(),
        part: newActionKey(),
        refer: newActionKey(),
      },
    })),
  };
}

export function meta({ data }: Route.MetaArgs) {
  return [{ title: data ? VIEW_LABELS[data.view] : "Today" }];
}

/** The handyman's actions on his own visits (employee.today.server.ts beside this route). */
export async function action(args: Route.ActionArgs) {
  return todayAction(args);
}

export default function Today({ loaderData: d, actionData }: Route.ComponentProps) {
  const error = actionData && !actionData.ok ? actionData.message : null;
  const said = actionData?.ok ? actionData.message : null;
  const referFor = actionData && "referFor" in actionData ? actionData.referFor : undefined;
  return (
    <>
      <StaffHeader employee={d.employee} width="max-w-3xl" />
      <main className="mx-auto grid max-w-3xl gap-4 px-4 py-4 sm:py-8">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-2xl font-bold">{VIEW_LABELS[d.view]}</h1>
          {/* His working hours and time off, one tap from his day. */}
          <Link
            to={href("/employee/availability")}
            className="text-sm underline underline-offset-4"
          >
            My hours
          </Link>
        </div>
        <nav aria-label="Days" className="flex gap-2">
          {(["today", "tomorrow", "week"] as const).map((view) => (
            <Link
              key={view}
              to={view === "today" ? "/employee/today" : `/employee/today?view=${view}`}
              aria-current={view === d.view ? "page" : undefined}
              className="rounded-md border px-3 py-2 text-sm aria-[current=page]:bg-primary aria-[current=page]:text-primary-foreground"
            >
              {VIEW_LABELS[view]}
            </Link>
          ))}
        </nav>
        {error ? (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 p-3">
            {error}
          </p>
        ) : said ? (
          <p role="status" className="rounded-md border bg-card p-3">
            {said}
          </p>
        ) : null}
        {d.visits.length === 0 && <p className="text-muted-foreground">No visits.</p>}
        <ol className="grid gap-4">
          {d.visits.map((v, index) => {
            // A short id: 8 visits' forms keep the page within 60 KB.
            const titleId = `v${index}`;
            const home = v.homeId ? d.homes[v.homeId] : undefined;
            return (
              <li key={v.id}>
                <TodayVisitCard
                  visit={v}
                  titleId={titleId}
                  view={d.view}
                  today={d.today}
                  outcome={actionData}
                  home={home && <TodayHomeRecord view={home} />}
                  refer={
                    <ReferSpecialist
                      specialists={d.specialists}
                      source={{ appointmentId: v.id }}
                      actionKey={v.keys.refer}
                      photoCount={v.tasks.reduce((n, t) => n + t.photos.length, 0)}
                      open={referFor === v.id}
                      newWaterOrPower={referFor === v.id}
                      idPrefix={`${titleId}-refer`}
                    />
                  }
                />
              </li>
            );
          })}
        </ol>
      </main>
    </>
  );
}
