import { Form, href, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { longDate } from "~/lib/business-calendar";
import { VISIT_BLOCKS } from "~/features/availability";
import { onVisitLabel } from "../visit-state";
import {
  bookingHref,
  CHOOSE_A_TASK_MESSAGE,
  type BookingChoice,
  type OfferedStarts,
} from "../booking-steps";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useBusiness } from "~/lib/business";
import { hoursText } from "~/lib/hours";
import {
  bothHandymen,
  secondHandymanFeeLine,
  TWO_HANDYMEN_LABEL,
  twoHandymenOffer,
} from "~/lib/two-handymen";

export type BookVisitData = {
  choice: BookingChoice;
  /** The days on offer, on the day step only. */
  days: { date: string; label: string }[] | null;
  /** The chosen day's start times, on the start step only. */
  day: OfferedStarts | null;
  /** `onVisitDate`: already on another upcoming visit (shown, not offered). */
  requests: {
    id: string;
    title: string;
    priority: "next" | "later";
    onVisitDate: string | null;
    fromPlan?: boolean;
  }[];
  firstVisit: boolean;
  taskLimit: number | null;
  /** What the visit spends from the hours bank; `refused` when the bank cannot take it. */
  summary: { label: string; refused: boolean } | null;
  /** When the bank cannot take it: the shorter block, or the extra visit at its price. */
  nextSteps: { kind: "shorter" | "extra"; block: 105; label: string }[];
  handymanName: string | null;
  startLabel: string | null;
  /** Her dedicated handyman, named at each step, and when he is away his cover (ADR 088). */
  handymen: {
    dedicated: { id: string; name: string; firstName: string } | null;
    away: {
      untilLabel: string | null;
      cover: { id: string; name: string; firstName: string } | null;
    } | null;
  } | null;
};

/** A radio choice drawn as a tappable card (the steps of booking and moving a visit). */
export const radio =
  "flex min-h-11 cursor-pointer items-center gap-3 rounded-md border bg-background px-3 py-2 has-[:checked]:border-primary has-[:checked]:bg-primary/5";

/** The offered days as radios named "date", the first chosen. */
export function DayRadios({ days }: { days: { date: string; label: string }[] }) {
  return days.map((day, i) => (
    <label key={day.date} className={radio}>
      <input type="radio" name="date" value={day.date} required defaultChecked={i === 0} />
      {day.label}
    </label>
  ));
}

function Step({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="grid gap-3 rounded-lg border bg-card p-4" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Chosen({ label, value, change }: { label: string; value: string; change: string }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-card px-4 py-3">
      <p>
        <span className="text-muted-foreground">{label}: </span>
        <strong>{value}</strong>
      </p>
      <Link
        to={change}
        className="text-sm underline underline-offset-4"
        aria-label={`Change ${label.toLowerCase()}`}
      >
        Change
      </Link>
    </div>
  );
}

function Hidden({
  choice,
  upTo,
}: {
  choice: BookingChoice;
  upTo: "date" | "start" | "tasks" | "summary";
}) {
  const order = ["block", "date", "start", "tasks", "summary"];
  const before = (step: string) => order.indexOf(step) < order.indexOf(upTo);
  return (
    <>
      {before("block") && choice.block ? (
        <input type="hidden" name="block" value={choice.block} />
      ) : null}
      {choice.withId ? <input type="hidden" name="with" value={choice.withId} /> : null}
      {choice.two ? <input type="hidden" name="two" value="1" /> : null}
      {before("date") && choice.date ? (
        <input type="hidden" name="date" value={choice.date} />
      ) : null}
      {before("start") && choice.startMinute !== undefined ? (
        <input
          type="hidden"
          name="start"
          value={`${choice.startMinute}|${choice.employeeId ?? ""}`}
        />
      ) : null}
      {before("tasks")
        ? choice.requestIds.map((id) => <input key={id} type="hidden" name="task" value={id} />)
        : null}
      {upTo === "summary" && choice.asExtra ? <input type="hidden" name="extra" value="1" /> : null}
    </>
  );
}

/** 'Two handymen' with its fee, on the block step (ADR 091). */
export function TwoHandymenChoice({ checked, feeCents }: { checked: boolean; feeCents: number }) {
  return (
    <div className="grid gap-1">
      <label className={radio}>
        <input
          type="checkbox"
          name="two"
          value="1"
          defaultChecked={checked}
          aria-describedby="two-handymen-offer"
        />
        {TWO_HANDYMEN_LABEL}
      </label>
      <p id="two-handymen-offer" className="text-sm text-muted-foreground">
        {twoHandymenOffer(feeCents)}
      </p>
    </div>
  );
}

/** Names her handyman at each step, or the one covering for him (ADR 088). */
function HandymanLine({ data }: { data: BookVisitData }) {
  const dedicated = data.handymen?.dedicated;
  if (!dedicated) return null;
  const cover = data.handymen?.away?.cover;
  const covering = data.choice.withId && data.choice.withId !== dedicated.id && cover;
  return (
    <p className="rounded-lg border bg-card px-4 py-3" data-testid="booking-handyman">
      {covering
        ? `With ${cover.name}, covering for ${dedicated.name}.`
        : `With your handyman, ${dedicated.name}: his times come first.`}
    </p>
  );
}

/** "Dana is away until December 14": 'Wait for Dana' or 'Book with Sam'. */
function AwayStep({ data }: { data: BookVisitData }) {
  const dedicated = data.handymen!.dedicated!;
  const { untilLabel, cover } = data.handymen!.away!;
  const title = untilLabel
    ? `${dedicated.firstName} is away until ${untilLabel}`
    : `${dedicated.firstName} is away for the next 4 weeks`;
  return (
    <Step title={title}>
      <p>
        {dedicated.firstName} has no free time for this visit in the next 14 days.
        {cover ? ` ${cover.name} covers for him meanwhile.` : ""}
      </p>
      <div className="flex flex-wrap gap-2">
        {untilLabel ? (
          <Link
            to={bookingHref({ ...data.choice, withId: dedicated.id }, "date")}
            className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
          >
            Wait for {dedicated.firstName}
          </Link>
        ) : null}
        {cover ? (
          <Link
            to={bookingHref({ ...data.choice, withId: cover.id }, "date")}
            className={buttonVariants({ className: "w-full sm:w-fit" })}
          >
            Book with {cover.firstName}
          </Link>
        ) : (
          <p>No other handyman is free either. Please call us.</p>
        )}
      </div>
    </Step>
  );
}

export function BookVisit({
  data,
  error,
  keptTitle,
  pending,
}: {
  data: BookVisitData;
  error?: string;
  /** The task title typed into 'Add a task' when it was refused, to put back. */
  keptTitle?: string;
  pending: boolean;
}) {
  const { choice } = data;
  const business = useBusiness();
  return (
    <div className="grid gap-4">
      {error ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 px-4 py-3 text-destructive"
        >
          {error}
        </p>
      ) : null}
      <HandymanLine data={data} />
      {choice.block ? (
        <Chosen
          label="Visit length"
          value={`${hoursText(choice.block)}${choice.two ? `, ${TWO_HANDYMEN_LABEL.toLowerCase()}` : ""}`}
          change={bookingHref(choice, "block")}
        />
      ) : (
        <Step title="How long a visit?">
          <Form method="get" className="grid gap-3">
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm text-muted-foreground">
                Choose the block of time your tasks need.
              </legend>
              {VISIT_BLOCKS.map((block, i) => (
                <label key={block} className={radio}>
                  <input
                    type="radio"
                    name="block"
                    value={block}
                    required
                    defaultChecked={i === 0}
                  />
                  {hoursText(block)}
                </label>
              ))}
            </fieldset>
            <TwoHandymenChoice checked={choice.two} feeCents={business.secondHandymanFeeCents} />
            <Button type="submit" className="w-full sm:w-fit">
              Next
            </Button>
          </Form>
        </Step>
      )}

      {choice.block && !choice.date && data.handymen?.away && !choice.withId ? (
        <AwayStep data={data} />
      ) : choice.block && !choice.date ? (
        <Step title="Choose a day">
          {data.days?.length ? (
            <Form method="get" className="grid gap-3">
              <Hidden choice={choice} upTo="date" />
              <fieldset className="grid gap-2 sm:grid-cols-2">
                <legend className="sr-only">Days with a free time</legend>
                <DayRadios days={data.days} />
              </fieldset>
              <Button type="submit" className="w-full sm:w-fit">
                Next
              </Button>
            </Form>
          ) : (
            <p>No day in the next 4 weeks has a free time for this visit. Please call us.</p>
          )}
        </Step>
      ) : null}
      {choice.date ? (
        <Chosen label="Day" value={longDate(choice.date)} change={bookingHref(choice, "date")} />
      ) : null}

      {choice.date && choice.startMinute === undefined ? (
        <Step title="Choose a start time">
          {data.day?.slots.length ? (
            <Form method="get" className="grid gap-3">
              <Hidden choice={choice} upTo="start" />
              <fieldset className="grid gap-2 sm:grid-cols-2">
                <legend className="sr-only">Start times</legend>
                {data.day.slots.map((slot, i) => {
                  const first = slot.handyman;
                  return (
                    <label key={slot.startMinute} className={radio}>
                      <input
                        type="radio"
                        name="start"
                        value={`${slot.startMinute}|${first.id}`}
                        required
                        defaultChecked={i === 0}
                      />
                      <span>
                        {slot.label}{" "}
                        <span className="text-sm text-muted-foreground">
                          {slot.withDedicated || choice.withId
                            ? `with ${bothHandymen(first.name, slot.second?.name)}`
                            : `your handyman is busy; ${bothHandymen(first.name, slot.second?.name)} ${slot.second ? "are" : "is"} free`}
                        </span>
                      </span>
                    </label>
                  );
                })}
              </fieldset>
              <Button type="submit" className="w-full sm:w-fit">
                Next
              </Button>
            </Form>
          ) : (
            <p>That day has no free time left. Please choose another day.</p>
          )}
        </Step>
      ) : null}
      {choice.startMinute !== undefined && data.startLabel ? (
        <Chosen
          label="Start time"
          value={`${data.startLabel}${data.handymanName ? ` with ${data.handymanName}` : ""}`}
          change={bookingHref(choice, "start")}
        />
      ) : null}

      {choice.startMinute !== undefined && !choice.tasksChosen ? (
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
          <Form
            method="post"
            className="grid gap-2 border-t pt-3 sm:grid-cols-[1fr_auto] sm:items-end"
          >
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
      ) : null}

      {choice.tasksChosen ? (
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
      ) : null}
      <Link
        to={`${href("/dashboard")}?tab=schedule`}
        className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
      >
        Back to the dashboard
      </Link>
    </div>
  );
}
