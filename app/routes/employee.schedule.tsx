import type { CSSProperties } from "react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/employee.schedule";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { NativeSelect } from "~/components/ui/native-select";
import { StaffHeader } from "~/features/employee/components/staff-header";
import { handymanWeek } from "~/features/availability/week.server";
import { VISIT_STATUS_LABELS } from "~/features/visits/visit-state";
import { cn } from "~/lib/utils";
import { dayLabel, minuteLabel } from "~/lib/business-calendar";
import { requireEmployee } from "~/lib/session.server";

/** The week view per handyman: day columns, visits as blocks, time off and closed days shaded. */
export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireEmployee(request);
  const params = new URL(request.url).searchParams;
  return { employee, ...(await handymanWeek(params.get("employee"), params.get("week"))) };
}

export function meta() {
  return [{ title: "Week View" }];
}

const FIRST = 7 * 60;
const LAST = 19 * 60;
const PX_PER_MIN = 0.8;

export default function WeekView({ loaderData: d }: Route.ComponentProps) {
  const href = (week: string) =>
    `/employee/schedule?${new URLSearchParams({ ...(d.handymanId ? { employee: d.handymanId } : {}), week })}`;
  return (
    <>
      <StaffHeader employee={d.employee} />
      <main className="mx-auto grid max-w-6xl gap-4 px-4 py-6 sm:py-8">
        <h1 className="text-2xl font-bold sm:text-3xl">Week View</h1>
        <div className="flex flex-wrap items-end gap-3">
          <Form method="get" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="week" value={d.monday} />
            <label className="grid gap-1 text-sm">
              Handyman
              <NativeSelect name="employee" defaultValue={d.handymanId ?? ""}>
                {d.handymen.map((h) => (
                  <option key={h.id} value={h.id}>
                    {h.name}
                  </option>
                ))}
              </NativeSelect>
            </label>
            <Button type="submit" variant="outline">
              Show
            </Button>
          </Form>
          <nav aria-label="Weeks" className="flex gap-2">
            <Link to={href(d.previous)} className={buttonVariants({ variant: "outline" })}>
              Previous week
            </Link>
            <Link to={href(d.today)} className={buttonVariants({ variant: "outline" })}>
              This week
            </Link>
            <Link to={href(d.next)} className={buttonVariants({ variant: "outline" })}>
              Next week
            </Link>
          </nav>
        </div>
        {/* At phone width a day list (each day's hours, then its visits in order); from the
            small breakpoint up, seven columns with the visits placed on a 7 AM-7 PM timeline.
            One set of links serves both: the timeline's positions are CSS variables that only
            the wide layout reads. */}
        <ul className="grid grid-cols-1 gap-2 sm:grid-cols-7" aria-label="Visits this week">
          {d.days.map((day) => {
            const off = day.away || day.closedReason || !day.hours;
            return (
              <li
                key={day.date}
                aria-label={dayLabel(day.date)}
                className="grid content-start gap-1 rounded-md border bg-card p-2 sm:p-1"
              >
                <h2 className="px-1 text-sm font-semibold">{dayLabel(day.date)}</h2>
                <p className="px-1 text-xs text-muted-foreground">
                  {day.closedReason
                    ? `Closed: ${day.closedReason}`
                    : day.away
                      ? "Time off"
                      : day.hours
                        ? `${minuteLabel(day.hours.start)}-${minuteLabel(day.hours.end)}`
                        : "Not working"}
                  {day.visits.length === 0 && !off ? (
                    <span className="sm:hidden"> · No visits</span>
                  ) : null}
                </p>
                <div
                  className={`grid gap-1 sm:relative sm:block sm:h-(--day-height) sm:rounded ${off ? "sm:bg-[repeating-linear-gradient(45deg,var(--color-muted),var(--color-muted)_6px,transparent_6px,transparent_12px)]" : ""}`}
                  style={{ "--day-height": `${(LAST - FIRST) * PX_PER_MIN}px` } as CSSProperties}
                  data-shaded={off ? "true" : "false"}
                >
                  {day.visits.map((v) => (
                    <Link
                      key={v.id}
                      to={
                        v.kind === "walk_thru" && v.leadId
                          ? `/employee/leads/${v.leadId}`
                          : `/dashboard/visits/${v.id}`
                      }
                      data-status={v.status}
                      data-kind={v.kind}
                      className={cn(
                        "overflow-hidden rounded p-2 text-sm sm:absolute sm:inset-x-0.5 sm:top-(--visit-top) sm:h-(--visit-height) sm:p-1 sm:text-xs",
                        v.status === "booked" ||
                          v.status === "on_the_way" ||
                          v.status === "in_progress"
                          ? "bg-primary text-primary-foreground"
                          : "border border-dashed bg-muted text-muted-foreground",
                      )}
                      style={
                        {
                          "--visit-top": `${(Math.max(v.start, FIRST) - FIRST) * PX_PER_MIN}px`,
                          "--visit-height": `${Math.max(
                            24,
                            (Math.min(v.end, LAST) - Math.max(v.start, FIRST)) * PX_PER_MIN,
                          )}px`,
                        } as CSSProperties
                      }
                    >
                      {minuteLabel(v.start)}-{minuteLabel(v.end)} {v.customer}
                      {v.kind === "walk_thru" ? (
                        <span className="block font-semibold">Walk-thru</span>
                      ) : null}
                      {v.status !== "booked" ? (
                        <span className="block font-semibold">{VISIT_STATUS_LABELS[v.status]}</span>
                      ) : null}
                      <span className="block">{v.address}</span>
                    </Link>
                  ))}
                </div>
              </li>
            );
          })}
        </ul>
        <Link
          to="/employee?tab=appointments"
          className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
        >
          Back to the dashboard
        </Link>
      </main>
    </>
  );
}
