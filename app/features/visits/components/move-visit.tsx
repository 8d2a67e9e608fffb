import { Form } from "react-router";
import type { OfferedDay } from "~/features/availability";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { bothHandymen } from "~/lib/two-handymen";
import { DayRadios, radio } from "./booking-parts";

/**
 * 'Move Visit' (ADR 017): the button, then the offered days, then the day's start times with
 * who comes; the day and times are GET steps, so each works without JavaScript.
 */
export function MoveVisit({
  moving,
  done,
  days,
  day,
  second,
  busy,
}: {
  /** The move was asked for (?move=1) and days are on offer. */
  moving: boolean;
  /** A move or cancel was just answered: the picker closes. */
  done?: string | null;
  days: { date: string; label: string }[];
  day: OfferedDay | null;
  /** The visit has a second handyman: each time names both. */
  second: { name: string } | null;
  busy: boolean;
}) {
  return !moving || done ? (
    <Form method="get">
      <input type="hidden" name="move" value="1" />
      <Button type="submit" variant="outline" className="w-full sm:w-fit">
        Move Visit
      </Button>
    </Form>
  ) : !day ? (
    days.length ? (
      <Form method="get" className="grid gap-3">
        <input type="hidden" name="move" value="1" />
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="mb-2 text-sm text-muted-foreground">Choose a new day</legend>
          <DayRadios days={days} />
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
      <input type="hidden" name="date" value={day.date} />
      <fieldset className="grid gap-2 sm:grid-cols-2">
        <legend className="mb-2 text-sm text-muted-foreground">
          Choose a new start time on {day.label}
        </legend>
        {day.slots.map((slot, i) => (
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
                with {bothHandymen(slot.handymen[0].name, second && slot.handymen[1]?.name)}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <Button type="submit" className="w-full sm:w-fit" disabled={busy}>
        Confirm New Time
      </Button>
    </Form>
  );
}

/** Staff move the visit to a day, start and handyman they choose, warned before 'Book anyway'. */
export function StaffMove({
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
