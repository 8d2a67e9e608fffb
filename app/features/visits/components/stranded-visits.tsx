import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { timeOfDay } from "~/lib/business-calendar";
import { bothHandymen } from "~/lib/two-handymen";

type Stranded = {
  id: string;
  customerName: string;
  date: string;
  start: number;
  label: string;
  employeeId: string | null;
  handymanName: string | null;
  secondHandymanId: string | null;
  secondHandymanName: string | null;
  freeHandyman: { id: string; name: string; replaces: "first" | "second" } | null;
};

type Target = {
  date: string;
  startMinute: number;
  employeeId: string | null;
  secondHandymanId?: string | null;
};

/** Where the visit would go with the handyman free then, in place of the one the closure takes. */
function proposal(v: Stranded): Target | null {
  const free = v.freeHandyman;
  if (!free) return null;
  return free.replaces === "second"
    ? { date: v.date, startMinute: v.start, employeeId: v.employeeId, secondHandymanId: free.id }
    : { date: v.date, startMinute: v.start, employeeId: free.id };
}

/**
 * A closure over booked visits (ADR 050): the visits, then 'Move them' (each to another
 * handyman free then, or to the day, start and handyman staff choose) or 'Cancel and tell the
 * members'. Both re-post the closure's own fields: nothing is saved until one is chosen.
 */
export function StrandedVisits({
  headline,
  visits,
  fields,
  warnings,
  targets,
  employees,
}: {
  headline: string;
  visits: Stranded[];
  fields: [string, string][];
  warnings: Record<string, string[]>;
  targets: Record<string, Target | undefined>;
  employees: Employees;
}) {
  const hidden = fields.map(([name, value], i) => (
    <input key={`${name}-${i}`} type="hidden" name={name} value={value} />
  ));
  const warned = visits.some((v) => warnings[v.id]?.length);
  return (
    <section
      className="grid gap-3 rounded-lg border border-amber-600/50 bg-amber-50 p-4 text-amber-950 dark:bg-amber-950/30 dark:text-amber-50"
      aria-labelledby="stranded-title"
    >
      <div role="alert">
        <h2 id="stranded-title" className="text-lg font-semibold">
          {headline}
        </h2>
      </div>
      <p>Nothing is saved yet. Move these visits or cancel them and tell the members first.</p>
      <ul className="grid gap-1" aria-label="Visits booked in that time">
        {visits.map((v) => (
          <li key={v.id}>
            <strong>{v.customerName}</strong>: {v.label}
            {v.handymanName ? ` with ${bothHandymen(v.handymanName, v.secondHandymanName)}` : ""}
          </li>
        ))}
      </ul>
      <Form method="post" className="grid gap-2">
        {hidden}
        <input type="hidden" name="resolution" value="cancel" />
        <p className="text-sm">
          Each member gets an e-mail with a link to choose another time; their hours go back to the
          bank.
        </p>
        <Button type="submit" variant="destructive" className="w-full sm:w-fit">
          Cancel and tell the members
        </Button>
      </Form>
      <Form method="post" className="grid gap-3">
        {hidden}
        <input type="hidden" name="resolution" value="move" />
        {visits.map((v) => (
          <MoveFields
            key={v.id}
            visit={v}
            target={targets[v.id] ?? proposal(v)}
            proposed={!targets[v.id]}
            warnings={warnings[v.id] ?? []}
            employees={employees}
          />
        ))}
        {warned ? (
          <div className="grid gap-1">
            <Label htmlFor="stranded-override-reason">Why book anyway (optional)</Label>
            <Input id="stranded-override-reason" name="overrideReason" maxLength={200} />
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" className="w-full sm:w-fit">
            Move them
          </Button>
          {warned ? (
            <Button
              type="submit"
              name="bookAnyway"
              value="on"
              variant="outline"
              className="w-full sm:w-fit"
            >
              Book anyway
            </Button>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

type Employees = { userId: string; name: string }[];

/** One stranded visit's new day, start and handymen, and what is wrong with them. */
function MoveFields({
  visit: v,
  target,
  proposed,
  warnings,
  employees,
}: {
  visit: Stranded;
  target: Target | null;
  proposed: boolean;
  warnings: string[];
  employees: Employees;
}) {
  return (
    <fieldset className="grid gap-2 rounded-md border bg-background p-3 sm:grid-cols-3">
      <legend className="px-1 font-medium">
        New time for {v.customerName}
        {v.freeHandyman && proposed ? ` (${v.freeHandyman.name} is free then)` : ""}
      </legend>
      <input type="hidden" name="visit" value={v.id} />
      <div className="grid gap-1">
        <Label htmlFor={`date-${v.id}`}>Day</Label>
        <Input
          id={`date-${v.id}`}
          type="date"
          name={`date-${v.id}`}
          defaultValue={target?.date ?? ""}
          required
        />
      </div>
      <div className="grid gap-1">
        <Label htmlFor={`start-${v.id}`}>Start</Label>
        <Input
          id={`start-${v.id}`}
          type="time"
          name={`start-${v.id}`}
          defaultValue={target ? timeOfDay(target.startMinute) : ""}
          required
        />
      </div>
      <HandymanSelect
        name={`employee-${v.id}`}
        label="Handyman"
        none="Unassigned"
        defaultValue={target?.employeeId ?? v.employeeId ?? ""}
        employees={employees}
      />
      {v.secondHandymanId ? (
        <HandymanSelect
          name={`second-${v.id}`}
          label="Second handyman"
          none="None (one handyman, the fee reversed)"
          defaultValue={
            target?.secondHandymanId === undefined
              ? v.secondHandymanId
              : (target.secondHandymanId ?? "")
          }
          employees={employees}
        />
      ) : null}
      {warnings.length ? (
        <ul
          className="list-disc pl-5 text-sm sm:col-span-3"
          aria-label={`Warnings for ${v.customerName}`}
        >
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}

function HandymanSelect({
  name,
  label,
  none,
  defaultValue,
  employees,
}: {
  name: string;
  label: string;
  /** The first choice, for nobody. */
  none: string;
  defaultValue: string;
  employees: Employees;
}) {
  return (
    <div className="grid gap-1">
      <Label htmlFor={name}>{label}</Label>
      <NativeSelect id={name} name={name} defaultValue={defaultValue}>
        <option value="">{none}</option>
        {employees.map((e) => (
          <option key={e.userId} value={e.userId}>
            {e.name}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
