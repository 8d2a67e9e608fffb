import type { ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { hoursText } from "~/lib/hours";
import type { ApplianceView, HomeRecordView, PlanTaskView } from "../types";
import { ActionButton } from "./action-button";
import { ApplianceForm } from "./appliance-form";
import { LabelPhotoForm } from "./label-photo-form";
import { PlanTaskForm } from "./plan-task-form";
import { formKey } from "./use-home-form";

/**
 * The home's record (ADR 087): 'Appliances and systems' and 'Maintenance plan', the plan's
 * 60-day status and the history. The same component on the member's 'My Home' tab, the
 * customer's page for the office and 'Today' for the day's handyman; `view.rights` says which
 * forms show. `back` is where a form posted without JavaScript returns.
 */
export function HomeRecord({ view, back }: { view: HomeRecordView; back: string }) {
  const action = `/homes/${view.homeId}`;
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
      <Appliances view={view} action={action} back={back} />
      <Plan view={view} action={action} back={back} />
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

function Appliances({
  view,
  action,
  back,
}: {
  view: HomeRecordView;
  action: string;
  back: string;
}) {
  return (
    <Section id="appliances-title" title="Appliances and systems">
      {view.appliances.length === 0 && (
        <p className="text-sm text-muted-foreground">No appliances on record yet.</p>
      )}
      <ul className="grid gap-3">
        {view.appliances.map((a) => (
          <li key={a.id} className="grid gap-2 rounded-md border p-3">
            <ApplianceSummary appliance={a} homeId={view.homeId} />
            {view.rights.appliances && (
              <div className="flex flex-wrap gap-2">
                <details className="w-full">
                  <summary className="cursor-pointer text-sm font-medium">
                    Edit <span className="sr-only">{a.typeLabel}</span>
                  </summary>
                  <div className="pt-3">
                    <ApplianceForm action={action} back={back} seed={view.keySeed} appliance={a} />
                  </div>
                </details>
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
        <details className="rounded-md border p-3" open={Boolean(view.labelRead)}>
          <summary className="cursor-pointer font-medium">Add appliance</summary>
          <div className="grid gap-4 pt-3">
            <LabelPhotoForm homeId={view.homeId} back={back} />
            <ApplianceForm
              key={view.labelRead?.id ?? view.keySeed}
              action={action}
              back={back}
              seed={view.keySeed}
              labelRead={view.labelRead}
            />
          </div>
        </details>
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
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
          {rows
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="break-words">{value}</dd>
              </div>
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

function Plan({ view, action, back }: { view: HomeRecordView; action: string; back: string }) {
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
          <PlanTaskItem key={task.id} task={task} view={view} action={action} back={back} />
        ))}
      </ul>
      {view.rights.plan && (
        <details className="rounded-md border p-3">
          <summary className="cursor-pointer font-medium">Add task</summary>
          <div className="pt-3">
            <PlanTaskForm key={view.keySeed} action={action} back={back} seed={view.keySeed} />
          </div>
        </details>
      )}
    </Section>
  );
}

function PlanTaskItem({
  task,
  view,
  action,
  back,
}: {
  task: PlanTaskView;
  view: HomeRecordView;
  action: string;
  back: string;
}) {
  const state = STATE_LABEL[task.state];
  return (
    <li className="grid gap-2 rounded-md border p-3" data-testid="plan-task">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-medium">{task.title}</h3>
        {state && (
          <Badge variant={task.state === "overdue" ? "destructive" : "secondary"}>{state}</Badge>
        )}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="text-muted-foreground">How often</dt>
        <dd>{task.frequency}</dd>
        <dt className="text-muted-foreground">Months due</dt>
        <dd>{task.monthsLabel}</dd>
        <dt className="text-muted-foreground">Estimated time</dt>
        <dd>{hoursText(task.estimatedMinutes)}</dd>
        <dt className="text-muted-foreground">Last done</dt>
        <dd>{task.lastDoneOn ?? "Not yet"}</dd>
        <dt className="text-muted-foreground">Next due</dt>
        <dd>{task.nextDueLabel}</dd>
      </dl>
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
      {view.rights.plan && (
        <details>
          <summary className="cursor-pointer text-sm font-medium">
            Edit <span className="sr-only">{task.title}</span>
          </summary>
          <div className="pt-3">
            <PlanTaskForm action={action} back={back} seed={view.keySeed} task={task} />
          </div>
        </details>
      )}
    </li>
  );
}

/** 'Home record' on a visit of 'Today' (the day's handyman). */
export function TodayHomeRecord({ view }: { view: HomeRecordView }) {
  return (
    <details className="rounded-md border p-3">
      <summary className="cursor-pointer font-medium">Home record</summary>
      <div className="pt-3">
        <HomeRecord view={view} back="/employee/today" />
      </div>
    </details>
  );
}
