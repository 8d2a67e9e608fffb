import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { STAFF_ROLE_LABELS, STAFF_ROLES, type StaffRole } from "~/db/staff-role";
import { longDate, timeOfDay, type IsoDate } from "~/lib/business-calendar";
import type { WeeklyHours } from "../slots";

/*
 * The sections of the working hours page (/employee/availability) about one employee: whose
 * hours office staff are setting and that employee's role, the working week, and time off.
 */

/** Whose hours the page shows. */
export type HoursSubject = {
  id: string;
  own: boolean;
  name: string | null;
  role: StaffRole | null;
};

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Office staff choose whose hours they set (a plain GET form) and set that employee's role. */
export function WhoseHours({
  subject,
  employees,
}: {
  subject: HoursSubject;
  employees: { userId: string; name: string; role: StaffRole }[];
}) {
  return (
    <section className="grid gap-3 rounded-lg border bg-card p-4" aria-labelledby="picker-title">
      <h2 id="picker-title" className="text-lg font-semibold">
        Whose hours
      </h2>
      {/* A plain GET form: works without JavaScript. */}
      <Form
        method="get"
        className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end"
      >
        <div className="grid min-w-0 gap-1">
          <Label htmlFor="employee-picker">Handyman</Label>
          <select
            id="employee-picker"
            name="employee"
            defaultValue={subject.id}
            className="h-10 w-full min-w-0 rounded-md border bg-background px-3"
          >
            {employees.map((e) => (
              <option key={e.userId} value={e.userId}>
                {e.name} ({STAFF_ROLE_LABELS[e.role].toLowerCase()})
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="outline" className="w-full sm:w-fit">
          Show Hours
        </Button>
      </Form>
      <Form
        method="post"
        className="grid grid-cols-[minmax(0,1fr)] gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end"
      >
        <input type="hidden" name="intent" value="role" />
        <input type="hidden" name="employeeId" value={subject.id} />
        <div className="grid min-w-0 gap-1">
          <Label htmlFor="staff-role">Role of {subject.name ?? "this employee"}</Label>
          <select
            id="staff-role"
            name="role"
            defaultValue={subject.role ?? "office"}
            className="h-10 w-full min-w-0 rounded-md border bg-background px-3"
          >
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {STAFF_ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="outline" className="w-full sm:w-fit">
          Save Role
        </Button>
      </Form>
    </section>
  );
}

/** The employee's working week, one row per weekday. */
export function WorkingHours({ subject, week }: { subject: HoursSubject; week: WeeklyHours }) {
  return (
    <section className="grid gap-3 rounded-lg border bg-card p-4" aria-labelledby="hours-title">
      <h2 id="hours-title" className="text-lg font-semibold">
        {subject.own ? "My working hours" : `Working hours of ${subject.name}`}
      </h2>
      <Form method="post" className="grid gap-2">
        <input type="hidden" name="intent" value="hours" />
        <input type="hidden" name="employeeId" value={subject.id} />
        {WEEKDAYS.map((name, weekday) => {
          const day = week[weekday];
          return (
            <fieldset
              key={name}
              className="grid grid-cols-2 items-center gap-2 sm:grid-cols-[7rem_1fr_1fr]"
            >
              <legend className="sr-only">{name}</legend>
              {/* On a phone the day has its own row and each time half of the next, so a
                  time field is wide enough for "08:00 AM". */}
              <label className="col-span-2 flex items-center gap-2 sm:col-span-1">
                <input type="checkbox" name={`works-${weekday}`} defaultChecked={Boolean(day)} />
                {name}
              </label>
              <Input
                type="time"
                step={1800}
                name={`start-${weekday}`}
                aria-label={`${name} start`}
                defaultValue={timeOfDay(day?.start ?? 480)}
              />
              <Input
                type="time"
                step={1800}
                name={`end-${weekday}`}
                aria-label={`${name} end`}
                defaultValue={timeOfDay(day?.end ?? 1080)}
              />
            </fieldset>
          );
        })}
        <Button type="submit" className="w-full sm:w-fit">
          Save Working Hours
        </Button>
      </Form>
    </section>
  );
}

/** The employee's time off ahead, each with 'Remove', and the form that adds one. */
export function TimeOff({
  subject,
  timeOff,
  today,
  latest,
}: {
  subject: HoursSubject;
  timeOff: { id: string; startDate: IsoDate; endDate: IsoDate; note: string | null }[];
  today: IsoDate;
  latest: IsoDate;
}) {
  return (
    <section className="grid gap-3 rounded-lg border bg-card p-4" aria-labelledby="off-title">
      <h2 id="off-title" className="text-lg font-semibold">
        {subject.own ? "My time off" : `Time off of ${subject.name}`}
      </h2>
      {timeOff.length ? (
        <ul className="grid gap-2">
          {timeOff.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                {longDate(t.startDate)}
                {t.endDate !== t.startDate ? ` to ${longDate(t.endDate)}` : ""}
                {t.note ? ` (${t.note})` : ""}
              </span>
              <Form method="post">
                <input type="hidden" name="intent" value="remove-time-off" />
                <input type="hidden" name="employeeId" value={subject.id} />
                <input type="hidden" name="id" value={t.id} />
                <Button
                  type="submit"
                  variant="outline"
                  size="sm"
                  aria-label={`Remove time off from ${longDate(t.startDate)}`}
                >
                  Remove
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-muted-foreground">No time off planned.</p>
      )}
      <Form method="post" className="grid gap-3 sm:grid-cols-3 sm:items-end">
        <input type="hidden" name="intent" value="time-off" />
        <input type="hidden" name="employeeId" value={subject.id} />
        <div className="grid gap-1">
          <Label htmlFor="off-start">First day</Label>
          <Input id="off-start" type="date" name="startDate" min={today} max={latest} required />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="off-end">Last day (optional)</Label>
          <Input id="off-end" type="date" name="endDate" min={today} max={latest} />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="off-note">Note (optional)</Label>
          <Input id="off-note" name="note" maxLength={200} />
        </div>
        <Button type="submit" className="w-full sm:w-fit">
          Add Time Off
        </Button>
      </Form>
    </section>
  );
}
