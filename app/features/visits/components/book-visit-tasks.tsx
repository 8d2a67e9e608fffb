import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useBusiness } from "~/lib/business";
import { secondHandymanFeeLine } from "~/lib/two-handymen";
import { bookingHref, CHOOSE_A_TASK_MESSAGE } from "../booking-steps";
import { onVisitLabel } from "../visit-state";
import { Hidden, radio, Step } from "./booking-parts";
import type { BookVisitData } from "./book-visit-steps";

/*
 * The member's last booking steps: the tasks from her lists (or one added there and then), and
 * the summary with what the visit spends from the hours bank, or what she can do instead.
 */

/** 'Choose the tasks': Next and Later, a task already on a visit shown but not offered. */
export function TasksStep({
  data,
  keptTitle,
  pending,
}: {
  data: BookVisitData;
  /** The task title typed into 'Add a task' when it was refused, to put back. */
  keptTitle?: string;
  pending: boolean;
}) {
  const { choice } = data;
  return (
    <Step title="Choose the tasks">
      {choice.tasksMissing ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 px-4 py-3 text-destructive"
        >
          {CHOOSE_A_TASK_MESSAGE}
        </p>
      ) : null}
      {data.requests.length ? (
        <Form method="get" className="grid gap-3">
          <Hidden choice={choice} upTo="tasks" />
          <input type="hidden" name="tasks" value="chosen" />
          {data.taskLimit ? (
            <p className="text-sm text-muted-foreground">
              Your first visit can take at most {data.taskLimit} tasks.
            </p>
          ) : null}
          {(["next", "later"] as const).map((priority) => {
            const list = data.requests.filter((r) => r.priority === priority);
            if (!list.length) return null;
            return (
              <fieldset key={priority} className="grid gap-2">
                <legend className="mb-1 font-medium">
                  {priority === "next" ? "Next" : "Later"}
                </legend>
                {list.map((request) =>
                  request.onVisitDate ? (
                    <label
                      key={request.id}
                      className={`${radio} text-muted-foreground`}
                      data-on-visit={request.onVisitDate}
                    >
                      <input type="checkbox" disabled />
                      <span>
                        {request.title} ({onVisitLabel(request.onVisitDate)})
                      </span>
                    </label>
                  ) : (
                    <label key={request.id} className={radio}>
                      <input
                        type="checkbox"
                        name="task"
                        value={request.id}
                        defaultChecked={choice.requestIds.includes(request.id)}
                      />
                      <span>
                        {request.title}
                        {request.fromPlan && (
                          <span className="block text-sm text-muted-foreground">
                            From your maintenance plan
                          </span>
                        )}
                      </span>
                    </label>
                  ),
                )}
              </fieldset>
            );
          })}
          <Button type="submit" className="w-full sm:w-fit">
            Next
          </Button>
        </Form>
      ) : (
        <p>Your Next and Later lists are empty. Add a task below for this visit.</p>
      )}
      <Form method="post" className="grid gap-2 border-t pt-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <Hidden choice={{ ...choice, tasksChosen: false }} upTo="summary" />
        <input type="hidden" name="intent" value="add-task" />
        <div className="grid gap-1">
          <Label htmlFor="booking-new-task">New task</Label>
          <Input
            id="booking-new-task"
            name="title"
            maxLength={200}
            required
            defaultValue={keptTitle}
            placeholder="Fix the squeaky door"
          />
        </div>
        <Button type="submit" variant="outline" className="w-full sm:w-fit" disabled={pending}>
          Add a task
        </Button>
      </Form>
    </Step>
  );
}

/** 'Summary': the tasks, the fee of a second handyman, the spend, and 'Confirm Visit'. */
export function SummaryStep({ data, pending }: { data: BookVisitData; pending: boolean }) {
  const { choice } = data;
  const business = useBusiness();
  return (
    <Step title="Summary">
      <ul className="list-disc pl-5">
        {data.requests
          .filter((r) => choice.requestIds.includes(r.id))
          .map((r) => (
            <li key={r.id}>{r.title}</li>
          ))}
      </ul>
      <Link to={bookingHref(choice, "tasks")} className="text-sm underline underline-offset-4">
        Change tasks
      </Link>
      {choice.two ? (
        <p className="font-medium" data-testid="second-handyman-fee">
          {secondHandymanFeeLine(business.secondHandymanFeeCents)}, charged to your membership
        </p>
      ) : null}
      {data.summary ? (
        <p
          className={data.summary.refused ? "font-medium text-destructive" : "font-medium"}
          data-testid="visit-spend"
        >
          {data.summary.label}
        </p>
      ) : null}
      {data.summary?.refused ? (
        <div className="grid gap-2" aria-label="What you can do instead">
          {data.nextSteps.map((step) => (
            <Link
              key={step.kind}
              to={bookingHref(
                { ...choice, block: step.block, asExtra: step.kind === "extra" },
                "summary",
              )}
              className={buttonVariants({ className: "w-full sm:w-fit" })}
            >
              {step.kind === "shorter"
                ? `Book 1 h 45 min instead (${step.label})`
                : `Book it as an extra visit (${step.label})`}
            </Link>
          ))}
          <a
            href={business.phoneHref}
            className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
          >
            Call us {business.phone}
          </a>
        </div>
      ) : (
        <Form method="post" className="grid gap-3">
          <Hidden choice={choice} upTo="summary" />
          <Button type="submit" className="w-full sm:w-fit" disabled={pending}>
            {pending ? "Booking..." : "Confirm Visit"}
          </Button>
        </Form>
      )}
    </Step>
  );
}
