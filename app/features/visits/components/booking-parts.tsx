import { Link } from "react-router";
import type { BookingChoice } from "../booking-steps";

/*
 * The pieces every step of booking and moving a visit is drawn with: tappable radio cards, a
 * step's card, a choice already made with its 'Change' link, and the choices carried forward.
 */

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

/** One step of booking: a card with its title. */
export function Step({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="grid gap-3 rounded-lg border bg-card p-4" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** A choice already made, with the link back to its step. */
export function Chosen({ label, value, change }: { label: string; value: string; change: string }) {
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

/** The choices made before `upTo`, carried as hidden fields. */
export function Hidden({
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
