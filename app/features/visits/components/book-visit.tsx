import { href, Link } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { longDate } from "~/lib/business-calendar";
import { bookingHref } from "../booking-steps";
import { Chosen } from "./booking-parts";
import {
  AwayStep,
  BlockStep,
  type BookVisitData,
  DayStep,
  HandymanLine,
  StartStep,
} from "./book-visit-steps";
import { SummaryStep, TasksStep } from "./book-visit-tasks";

/** The member's booking, one step after another, each choice kept in the address (ADR 017). */
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
      <BlockStep choice={choice} />
      {choice.block && !choice.date && data.handymen?.away && !choice.withId ? (
        <AwayStep data={data} />
      ) : choice.block && !choice.date ? (
        <DayStep choice={choice} days={data.days} />
      ) : null}
      {choice.date ? (
        <Chosen label="Day" value={longDate(choice.date)} change={bookingHref(choice, "date")} />
      ) : null}

      {choice.date && choice.startMinute === undefined ? (
        <StartStep choice={choice} day={data.day} />
      ) : null}
      {choice.startMinute !== undefined && data.startLabel ? (
        <Chosen
          label="Start time"
          value={`${data.startLabel}${data.handymanName ? ` with ${data.handymanName}` : ""}`}
          change={bookingHref(choice, "start")}
        />
      ) : null}

      {choice.startMinute !== undefined && !choice.tasksChosen ? (
        <TasksStep data={data} keptTitle={keptTitle} pending={pending} />
      ) : null}
      {choice.tasksChosen ? <SummaryStep data={data} pending={pending} /> : null}
      <Link
        to={`${href("/dashboard")}?tab=schedule`}
        className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
      >
        Back to the dashboard
      </Link>
    </div>
  );
}
