import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { longDate, plainDate, type HolidayKey, type IsoDate } from "~/lib/business-calendar";

/**
 * The business's closed days (office staff only): the holidays it closes on every year, each
 * day closed or reopened ahead with a button that names it, and the form that closes a day.
 */
export function ClosedDays({
  holidays,
  closed,
  today,
  latest,
}: {
  holidays: { key: HolidayKey; name: string; closed: boolean }[];
  /** Closed-days.server.ts's list: default holidays, days staff closed, defaults they reopened. */
  closed: { date: IsoDate; name: string; kind: "default" | "added" | "reopened" }[];
  today: IsoDate;
  latest: IsoDate;
}) {
  return (
    <section
      id="closed-days"
      className="grid gap-3 rounded-lg border bg-card p-4"
      aria-labelledby="closed-title"
    >
      <h2 id="closed-title" className="text-lg font-semibold">
        Closed days
      </h2>
      <p className="text-sm text-muted-foreground">
        Nothing is offered or bookable on a closed day: not visits, not intro calls. The holidays
        checked below are closed every year; a single day can be reopened or closed in the list.
      </p>
      <Form method="post" className="grid gap-3">
        <input type="hidden" name="intent" value="holidays" />
        <fieldset className="grid gap-2">
          <legend className="mb-2 font-medium">Holidays we close on</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {holidays.map((holiday) => (
              <label key={holiday.key} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="closedHoliday"
                  value={holiday.key}
                  defaultChecked={holiday.closed}
                />
                {holiday.name}
              </label>
            ))}
          </div>
        </fieldset>
        <Button type="submit" variant="outline" className="w-full sm:w-fit">
          Save Holidays
        </Button>
      </Form>
      <ul className="grid gap-2">
        {closed.map((day) => (
          <li key={day.date} className="flex flex-wrap items-center justify-between gap-2">
            <span
              className={day.kind === "reopened" ? "text-muted-foreground line-through" : undefined}
            >
              {longDate(day.date)}: {day.name}
              {day.kind === "reopened" ? " (open)" : ""}
            </span>
            <Form method="post">
              <input type="hidden" name="date" value={day.date} />
              <input
                type="hidden"
                name="intent"
                value={day.kind === "reopened" ? "close-day" : "open-day"}
              />
              {/* Says what it does and to which day: 'Reopen November 27'. */}
              <Button type="submit" variant="outline" size="sm">
                {day.kind === "reopened" ? "Close" : "Reopen"} {plainDate(day.date, { today })}
              </Button>
            </Form>
          </li>
        ))}
      </ul>
      <Form method="post" className="grid gap-3 sm:grid-cols-3 sm:items-end">
        <input type="hidden" name="intent" value="close-day" />
        <div className="grid gap-1">
          <Label htmlFor="closed-date">Date</Label>
          <Input id="closed-date" type="date" name="date" min={today} max={latest} required />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="closed-note">Reason</Label>
          <Input id="closed-note" name="note" maxLength={100} placeholder="Team training" />
        </div>
        <Button type="submit" className="w-full sm:w-fit">
          Close This Day
        </Button>
      </Form>
    </section>
  );
}
