import { getInputProps } from "@conform-to/react";
import { PlusIcon, XIcon } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { TASK_MAX_LENGTH } from "../staff-booking-schema";
import type { OpenRequestChoice } from "~/features/customers/index.server";
import { statusLabel } from "~/features/service-requests";
import { onVisitLabel } from "../visit-state";
import type { AppointmentFields, AppointmentForm } from "./staff-booking-dialog";

const PRIORITY_GROUPS = [
  { priority: "next", label: "Next" },
  { priority: "later", label: "Later" },
] as const;

/** The planned tasks: the customer's open requests to add, and the task rows. */
export function PlannedTaskFields({
  id,
  form,
  fields,
  openRequests,
  showRequests,
  disabled,
}: {
  id: string;
  form: AppointmentForm;
  fields: AppointmentFields;
  openRequests: OpenRequestChoice[];
  /** A customer is chosen: their requests are listed (or that there are none). */
  showRequests: boolean;
  disabled: boolean;
}) {
  const tasks = fields.tasks.getFieldList();
  const taskValues = (fields.tasks.value ?? []) as (
    { description?: string; serviceRequestId?: string } | undefined
  )[];
  const linkedIds = new Set(taskValues.map((t) => t?.serviceRequestId).filter(Boolean));

  /** A checked request becomes a planned task (in the first blank row, if any); unchecked,
   * its task goes (a lone row is emptied instead: one row always remains). */
  function toggleExistingTask(request: OpenRequestChoice, checked: boolean) {
    if (checked) {
      const value = { description: request.title, serviceRequestId: request.id };
      const blankIndex = taskValues.findIndex(
        (t) => !t?.description?.trim() && !t?.serviceRequestId,
      );
      if (blankIndex >= 0 || tasks.length === 0) {
        form.update({ name: fields.tasks.name, index: Math.max(0, blankIndex), value });
      } else {
        form.insert({ name: fields.tasks.name, defaultValue: value });
      }
      return;
    }
    const index = taskValues.findIndex((t) => t?.serviceRequestId === request.id);
    if (index < 0) return;
    if (tasks.length > 1) {
      form.remove({ name: fields.tasks.name, index });
    } else {
      form.update({
        name: fields.tasks.name,
        index,
        value: { description: "", serviceRequestId: "" },
      });
    }
  }

  return (
    <fieldset className="grid min-w-0 grid-cols-[minmax(0,1fr)] gap-3" disabled={disabled}>
      <legend className="mb-1 font-semibold">Planned Tasks</legend>
      {showRequests && (
        <fieldset className="grid min-w-0 gap-2 rounded-md border p-3">
          <legend className="px-1 text-sm font-medium">Add Existing Customer Tasks</legend>
          {openRequests.length === 0 ? (
            <p className="text-sm text-muted-foreground">No open requests to add</p>
          ) : (
            PRIORITY_GROUPS.map(({ priority, label }) => {
              const group = openRequests.filter((request) => request.priority === priority);
              if (group.length === 0) return null;
              return (
                <fieldset key={priority} className="grid min-w-0 gap-1.5">
                  <legend className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                    {label}
                  </legend>
                  <ul className="grid gap-1.5">
                    {group.map((request) => (
                      <RequestChoice
                        key={request.id}
                        checkboxId={`${id}-request-${request.id}`}
                        request={request}
                        checked={!request.onVisitDate && linkedIds.has(request.id)}
                        onToggle={(checked) => toggleExistingTask(request, checked)}
                      />
                    ))}
                  </ul>
                </fieldset>
              );
            })
          )}
        </fieldset>
      )}
      <ol className="grid gap-2">
        {tasks.map((task, index) => {
          const taskFields = task.getFieldset();
          return (
            <li key={task.key} className="grid gap-1">
              <div className="flex items-center gap-2">
                <Label htmlFor={taskFields.description.id} className="sr-only">
                  Task {index + 1}
                </Label>
                <Input
                  {...getInputProps(taskFields.description, { type: "text" })}
                  required
                  className="w-auto flex-1"
                  maxLength={TASK_MAX_LENGTH}
                  placeholder={`Task ${index + 1}`}
                />
                <input {...getInputProps(taskFields.serviceRequestId, { type: "hidden" })} />
                {tasks.length > 1 && (
                  <Button
                    {...form.remove.getButtonProps({ name: fields.tasks.name, index })}
                    variant="ghost"
                    size="icon"
                    aria-label={`Remove task ${index + 1}`}
                  >
                    <XIcon aria-hidden="true" />
                  </Button>
                )}
              </div>
              {taskFields.description.errors && (
                <p id={taskFields.description.errorId} className="text-sm text-destructive">
                  {taskFields.description.errors[0]}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {fields.tasks.errors && (
        <p id={fields.tasks.errorId} role="alert" className="text-sm text-destructive">
          {fields.tasks.errors[0]}
        </p>
      )}
      <Button
        {...form.insert.getButtonProps({
          name: fields.tasks.name,
          defaultValue: { description: "" },
        })}
        variant="outline"
        size="sm"
        className="justify-self-start"
      >
        <PlusIcon aria-hidden="true" />
        Add Task
      </Button>
    </fieldset>
  );
}

/** One open request, checked to become a task; one already on another upcoming visit is shown. */
function RequestChoice({
  checkboxId,
  request,
  checked,
  onToggle,
}: {
  checkboxId: string;
  request: OpenRequestChoice;
  checked: boolean;
  onToggle: (checked: boolean) => void;
}) {
  return (
    <li className="flex min-w-0 items-start gap-2">
      <input
        id={checkboxId}
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 accent-primary"
        checked={checked}
        // Already on another upcoming visit: shown, not offered.
        disabled={Boolean(request.onVisitDate)}
        onChange={(event) => onToggle(event.target.checked)}
        aria-describedby={`${checkboxId}-status`}
      />
      <Label htmlFor={checkboxId} className="block min-w-0 leading-snug font-normal break-words">
        {request.title}
      </Label>
      <span id={`${checkboxId}-status`} className="ml-auto shrink-0 text-xs text-muted-foreground">
        {request.onVisitDate ? onVisitLabel(request.onVisitDate) : statusLabel(request.status)}
      </span>
    </li>
  );
}
