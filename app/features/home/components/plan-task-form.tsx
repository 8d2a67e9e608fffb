import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { monthName } from "../plan-dates";
import type { PlanTaskView } from "../types";
import { formKey, useHomeForm } from "./use-home-form";

/** The office's 'Add task' and a task's 'Edit': the task, the months it is due, the time. */
export function PlanTaskForm({
  action,
  back,
  seed,
  task,
}: {
  action: string;
  back: string;
  seed: string;
  task?: PlanTaskView;
}) {
  const { fetcher, formRef, answer, errors, pending } = useHomeForm({ clearOnSave: !task });
  const id = task ? `task-${task.id.slice(0, 8)}` : "task-new";
  return (
    <fetcher.Form ref={formRef} method="post" action={action} className="grid gap-3">
      <input type="hidden" name="intent" value={task ? "edit-task" : "add-task"} />
      <input
        type="hidden"
        name="key"
        value={formKey(seed, task ? `t${task.id.slice(0, 8)}` : "task")}
      />
      <input type="hidden" name="back" value={back} />
      {task && <input type="hidden" name="id" value={task.id} />}
      <Field id={`${id}-title`} label="Task" error={errors.title}>
        {(control) => <Input {...control} name="title" defaultValue={task?.title ?? ""} />}
      </Field>
      <fieldset
        className="grid gap-2"
        aria-describedby={errors.months ? `${id}-months-error` : undefined}
      >
        <legend className="text-sm font-medium">Months due</legend>
        <div className="grid grid-cols-3 gap-1 sm:grid-cols-6">
          {Array.from({ length: 12 }, (_, i) => i + 1).map((m) => (
            <label key={m} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                name="months"
                value={m}
                defaultChecked={task?.months.includes(m) ?? false}
              />
              {monthName(m).slice(0, 3)}
            </label>
          ))}
        </div>
        {errors.months && (
          <p id={`${id}-months-error`} className="text-sm text-destructive">
            {errors.months}
          </p>
        )}
      </fieldset>
      <Field id={`${id}-minutes`} label="Estimated time (minutes)" error={errors.estimatedMinutes}>
        {(control) => (
          <Input
            {...control}
            name="estimatedMinutes"
            inputMode="numeric"
            defaultValue={task ? String(task.estimatedMinutes) : "30"}
          />
        )}
      </Field>
      {answer && (
        <p role={answer.ok ? "status" : "alert"} className="text-sm">
          {answer.message}
        </p>
      )}
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : "Save task"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
