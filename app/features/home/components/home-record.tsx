import { Fragment, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { plainDate } from "~/lib/business-calendar";
import { hoursText } from "~/lib/hours";
import type { ApplianceView, HomeRecordView, PlanTaskView } from "../types";
import { ActionButton } from "./action-button";
import { ApplianceForm } from "./appliance-form";
import { LabelPhotoForm } from "./label-photo-form";
import { PlanTaskForm } from "./plan-task-form";
import { formKey } from "./use-home-form";

/** The query parameter naming the one form of the record that is open (ADR 104). */
const OPEN_FORM_PARAM = "item";

/** Which form of the record is open, and the links that open and close one. */
type Opener = { open: string | null; href: (form: string, anchor?: string) => string };

function useOpener(): Opener {
  const { pathname, search } = useLocation();
  const open = new URLSearchParams(search).get(OPEN_FORM_PARAM);
  return {
    open,
    href(form, anchor) {
      const params = new URLSearchParams(search);
      if (open === form) {
        params.delete(OPEN_FORM_PARAM);
        if (form.startsWith("add-")) params.delete("label");
      } else params.set(OPEN_FORM_PARAM, form);
      const query = params.toString();
      return `${pathname}${query ? `?${query}` : ""}${open !== form && anchor ? `#${anchor}` : ""}`;
    },
  };
}

/**
 * 'Edit', 'Add appliance', 'Add task': a link that opens its form (or closes it when open). The
 * page renders the open form only (ADR 104): closed forms cost nothing to render or send. A
 * plain link, so it works without JavaScript; with it, the dashboard does not read its data
 * again for it (`shouldRevalidate`).
 */
function OpenLink({
  opener,
  form,
  anchor,
  open = opener.open === form,
  className,
  children,
}: {
  opener: Opener;
  form: string;
  anchor?: string;
  open?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={opener.href(form, anchor)}
      replace
      preventScrollReset
      aria-expanded={open}
      className={`disclosure ${className ?? ""}`}
    >
      {children}
    </Link>
  );
}

/**
 * The home's record (ADR 087): 'Appliances and systems' and 'Maintenance plan', the plan's
 * 60-day status and the history. The same component on the member's 'My Home' tab, the
 * customer's page for the office and 'Today' for the day's handyman; `view.rights` says which
 * forms show. `back` is where a form posted without JavaScript returns.
 */
export function HomeRecord({ view, back }: { view: HomeRecordView; back: string }) {
  const action = `/homes/${view.homeId}`;
  const opener = useOpener();
  return (
    <div className="grid gap-4">
      {view.status && (
        <p
          role="status"
          className="rounded-md border bg-background px-4 py-3 text-sm font-medium"
          data-testid="plan-status"
        >
          {view.status.sentence}
        </p>
      )}
      <Appliances view={view} action={action} back={back} opener={opener} />
      <Plan view={view} action={action} back={back} opener={opener} />
      {view.history.length > 0 && (
        <details className="rounded-md border bg-background px-4 py-3">
          <summary className="cursor-pointer text-sm font-medium">History of the record</summary>
          <ul className="mt-2 grid gap-1 text-sm">
            {view.history.map((h, i) => (
              <li key={i}>
                <time dateTime={h.at}>{h.when}</time> · {h.who}: {h.summary}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    // No aria-labelledby: a card named "Maintenance plan" would answer to the label "Plan" of the
    // membership form on the same staff page; the heading structures it.
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 id={id} className="text-lg font-semibold">
            {title}
          </h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

type PartProps = { view: HomeRecordView; action: string; back: string; opener: Opener };

function Appliances({ view, action, back, opener }: PartProps) {
  const add = `add-${view.homeId}`;
  const adding = opener.open === add || Boolean(view.labelRead);
  return (
    <Section id="appliances-title" title="Appliances and systems">
      {view.appliances.length === 0 && (
        <p className="text-sm text-muted-foreground">No appliances on record yet.</p>
      )}
      <ul className="grid gap-3">
        {view.appliances.map((a) => (
          <li key={a.id} id={`a-${a.id}`} className="grid gap-2 rounded-md border p-3">
            <ApplianceSummary appliance={a} homeId={view.homeId} />
            {view.rights.appliances && (
              <div className="flex flex-wrap gap-2">
                <div className="w-full">
                  <OpenLink opener={opener} form={a.id} anchor={`a-${a.id}`} className="text-sm">
                    Edit <span className="sr-only">{a.typeLabel}</span>
                  </OpenLink>
                  {opener.open === a.id && (
                    <div className="pt-3">
                      <ApplianceForm
                        action={action}
                        back={back}
                        seed={view.keySeed}
                        appliance={a}
                      />
                    </div>
                  )}
                </div>
                <ActionButton
                  action={action}
                  back={back}
                  intent="remove-appliance"
                  id={a.id}
                  formKey={formKey(view.keySeed, `r${a.id.slice(0, 8)}`)}
                  label={`Remove ${a.typeLabel}`}
                  pendingLabel="Removing..."
                  variant="destructive"
                />
              </div>
            )}
          </li>
        ))}
      </ul>
      {view.rights.appliances && (
        <div className="rounded-md border p-3">
          <OpenLink opener={opener} form={add} open={adding}>
            Add appliance
          </OpenLink>
          {adding && (
            <div className="grid gap-4 pt-3">
              <LabelPhotoForm homeId={view.homeId} back={back} />
              <ApplianceForm
                key={view.labelRead?.id ?? "add"}
                action={action}
                back={back}
                seed={view.keySeed}
                labelRead={view.labelRead}
              />
            </div>
          )}
        </div>
      )}
    </Section>
  );
}

function ApplianceSummary({ appliance: a, homeId }: { appliance: ApplianceView; homeId: string }) {
  const installed = a.installedOn ?? (a.installedYear ? String(a.installedYear) : null);
  const rows: [string, string | null][] = [
    ["Brand", a.brand],
    ["Model", a.model],
    ["Serial number", a.serialNumber],
    ["Installed", installed ? `${installed}${a.installedEstimated ? " (estimate)" : ""}` : null],
    ["Warranty ends", a.warrantyEndsOn],
    ["Location", a.location],
    ["Filter size", a.filterSize],
    ["Notes", a.notes],
  ];
  return (
    <div className="grid gap-2 sm:grid-cols-[1fr_auto]">
      <div className="grid gap-1">
        <h3 className="font-medium">{a.typeLabel}</h3>
        {a.flags.map((flag) => (
          <p key={flag} className="text-sm font-medium text-amber-800">
            <Badge variant="outline">Check</Badge> {flag}
          </p>
        ))}
        <dl className="facts">
          {rows
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <Fragment key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </Fragment>
            ))}
        </dl>
      </div>
      {a.hasLabelPhoto && (
        <a href={`/homes/${homeId}/appliances/${a.id}/label`} className="text-sm underline">
          <img
            src={`/homes/${homeId}/appliances/${a.id}/label?thumbnail=1`}
            alt={`Label photo of the ${a.typeLabel.toLowerCase()}`}
            width={120}
            height={90}
            className="h-auto max-w-[120px] rounded border"
          />
        </a>
      )}
    </div>
  );
}

const STATE_LABEL = { overdue: "Overdue", due: "Due this month", later: null } as const;

function Plan({ view, action, back, opener }: PartProps) {
  return (
    <Section id="plan-title" title="Maintenance plan">
      {view.tasks.length === 0 && (
        <p className="text-sm text-muted-foreground">
          No plan yet: the office draws it from your home and its appliances.
        </p>
      )}
      {view.rights.plan && (
        <ActionButton
          action={action}
          back={back}
          intent="draw-plan"
          formKey={formKey(view.keySeed, "draw")}
          label={view.tasks.length ? "Add tasks for new appliances" : "Draw the plan"}
          pendingLabel="Drawing..."
          variant="default"
        />
      )}
      <ul className="grid gap-3">
        {view.tasks.map((task) => (
          <PlanTaskItem
            key={task.id}
            task={task}
            view={view}
            action={action}
            back={back}
            opener={opener}
          />
        ))}
      </ul>
      {view.rights.plan && (
        <div className="rounded-md border p-3">
          <OpenLink opener={opener} form={`task-${view.homeId}`}>
            Add task
          </OpenLink>
          {opener.open === `task-${view.homeId}` && (
            <div className="pt-3">
              <PlanTaskForm action={action} back={back} seed={view.keySeed} />
            </div>
          )}
        </div>
      )}
    </Section>
  );
}

function PlanTaskItem({ task, view, action, back, opener }: PartProps & { task: PlanTaskView }) {
  const state = STATE_LABEL[task.state];
  return (
    <li id={`t-${task.id}`} className="grid gap-2 rounded-md border p-3" data-testid="plan-task">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium">{task.title}</h3>
        {state && (
          <Badge variant={task.state === "overdue" ? "destructive" : "secondary"}>{state}</Badge>
        )}
      </div>
      <dl className="facts">
        <dt>How often</dt>
        <dd>{task.frequency}</dd>
        <dt>Months due</dt>
        <dd>{task.monthsLabel}</dd>
        <dt>Estimated time</dt>
        <dd>{hoursText(task.estimatedMinutes)}</dd>
        <dt>Last done</dt>
        <dd>{task.lastDoneOn ? plainDate(task.lastDoneOn) : "Not yet"}</dd>
        <dt>Next due</dt>
        <dd>{task.nextDueLabel}</dd>
      </dl>
      {(view.rights.markDone || view.rights.plan) && (
        <div className="flex flex-wrap gap-2">
          {view.rights.markDone && (
            <ActionButton
              action={action}
              back={back}
              intent="mark-done"
              id={task.id}
              formKey={formKey(view.keySeed, `d${task.id.slice(0, 8)}`)}
              label={`Mark done: ${task.title}`}
              pendingLabel="Saving..."
            />
          )}
          {view.rights.plan && (
            <ActionButton
              action={action}
              back={back}
              intent="remove-task"
              id={task.id}
              formKey={formKey(view.keySeed, `x${task.id.slice(0, 8)}`)}
              label="Remove task"
              pendingLabel="Removing..."
              variant="destructive"
            />
          )}
        </div>
      )}
      {view.rights.plan && (
        <div>
          <OpenLink opener={opener} form={task.id} anchor={`t-${task.id}`} className="text-sm">
            Edit <span className="sr-only">{task.title}</span>
          </OpenLink>
          {opener.open === task.id && (
            <div className="pt-3">
              <PlanTaskForm action={action} back={back} seed={view.keySeed} task={task} />
            </div>
          )}
        </div>
      )}
    </li>
  );
}

/** 'Home record' on a visit of 'Today' (the day's handyman). */
export function TodayHomeRecord({ view }: { view: HomeRecordView }) {
  // Open when one of its forms is (a link followed without JavaScript reloads the page).
  const { open } = useOpener();
  const mine =
    open !== null &&
    (open.endsWith(view.homeId) ||
      view.appliances.some((a) => a.id === open) ||
      view.tasks.some((t) => t.id === open));
  return (
    <details className="rounded-md border p-3" open={mine || undefined}>
      <summary className="cursor-pointer font-medium">Home record</summary>
      <div className="pt-3">
        <HomeRecord view={view} back="/employee/today" />
      </div>
    </details>
  );
}
