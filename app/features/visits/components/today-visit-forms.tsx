import { Form } from "react-router";
import { marked, type MarkedOutcome } from "~/components/ui/marked-field";
import { hoursText } from "~/lib/hours";
import type { TodayCardVisit } from "./today-visit-card";

/*
 * The forms of a visit on 'Today': plain form posts (no JavaScript needed), each with its own
 * idempotency key drawn with the page (ADR 048). A refused form's fields are marked (ADR 093):
 * the answer is this visit's when it was posted with its id.
 */

/** A field of this visit's form `intent`, marked when the answer refused it. */
function markOf(outcome: MarkedOutcome, visitId: string, intent: string, name: string) {
  return marked(outcome, intent, name, `${intent}-${name}-${visitId}`, { appointmentId: visitId });
}

/**
 * One form and one key per action: a double tap on either is applied once, and 'Start visit'
 * right after 'On my way' is an action of its own.
 */
export function TodayStartForms({ visit: v }: { visit: TodayCardVisit }) {
  return (
    <div className="flex flex-wrap gap-2">
      {v.status === "booked" && (
        <Form method="post">
          <input type="hidden" name="appointmentId" value={v.id} />
          <input type="hidden" name="key" value={v.keys.onMyWay} />
          <button name="intent" value="on-my-way" className="btn btn-main">
            On my way
          </button>
        </Form>
      )}
      <Form method="post">
        <input type="hidden" name="appointmentId" value={v.id} />
        <input type="hidden" name="key" value={v.keys.start} />
        <button
          name="intent"
          value="start"
          className={v.status === "booked" ? "btn btn-line" : "btn btn-main"}
        >
          Start visit
        </button>
      </Form>
    </div>
  );
}

export function TodayFinishForm({
  visit: v,
  outcome,
}: {
  visit: TodayCardVisit;
  outcome: MarkedOutcome;
}) {
  const worked = markOf(outcome, v.id, "finish", "minutesWorked");
  return (
    <details className="box" open={worked.message ? true : undefined}>
      <summary>Finish visit</summary>
      <Form method="post" className="mt-3 grid gap-3">
        <input type="hidden" name="appointmentId" value={v.id} />
        <input type="hidden" name="key" value={v.keys.finish} />
        <label className="grid gap-1">
          Time worked
          <span className="text-sm text-muted-foreground">
            {v.started
              ? `From 'Start visit' at ${v.started} to now, rounded to 15 minutes.`
              : "The visit was not started here: the whole block."}
          </span>
          {/* Keyed on the offer: drawn again after 'Start visit', not kept. */}
          <select
            key={v.suggested}
            name="minutesWorked"
            defaultValue={v.suggested}
            className="field"
            {...worked.props}
          >
            {v.choices.map((m) => (
              <option key={m} value={m}>
                {hoursText(m)}
              </option>
            ))}
          </select>
        </label>
        {worked.message}
        <label className="flex items-start gap-2">
          <input type="checkbox" name="confirmWorked" value="yes" required className="mt-1" />I
          confirm the time worked
        </label>
        {v.tasks.map((t) => (
          <fieldset key={t.id}>
            <legend className="font-medium">{t.description}</legend>
            <label className="mr-4">
              <input type="radio" name={`task-${t.id}`} value="done" required /> Done
            </label>
            <label>
              <input type="radio" name={`task-${t.id}`} value="not_done" /> Not done
            </label>
          </fieldset>
        ))}
        <fieldset>
          <legend className="font-medium">Does the work need a new water or power source?</legend>
          <label className="mr-4">
            <input type="radio" name="newSource" value="yes" /> Yes
          </label>
          <label>
            <input type="radio" name="newSource" value="no" defaultChecked /> No
          </label>
        </fieldset>
        <button name="intent" value="finish" className="btn btn-main">
          Save and finish
        </button>
      </Form>
    </details>
  );
}

export function TodayPhotoForm({ visit: v }: { visit: TodayCardVisit }) {
  return (
    <details className="box">
      <summary>Add photo</summary>
      <Form method="post" encType="multipart/form-data" className="mt-3 grid gap-3">
        <input type="hidden" name="appointmentId" value={v.id} />
        <input type="hidden" name="key" value={v.keys.photo} />
        <label className="grid gap-1">
          Task
          <select name="taskId" className="field">
            {v.tasks
              .filter((t) => t.requestId)
              .map((t) => (
                <option key={t.id} value={t.id}>
                  {t.description}
                </option>
              ))}
          </select>
        </label>
        <fieldset>
          <legend>Taken</legend>
          <label className="mr-4">
            <input type="radio" name="when" value="before" required /> Before
          </label>
          <label>
            <input type="radio" name="when" value="after" /> After
          </label>
        </fieldset>
        <label className="grid gap-1">
          Photo
          <input className="field" type="file" name="photo" accept="image/*" required />
        </label>
        <button className="btn btn-main">Upload photo</button>
      </Form>
    </details>
  );
}

export function TodayPartForm({
  visit: v,
  outcome,
  action,
}: {
  visit: TodayCardVisit;
  outcome: MarkedOutcome;
  /** Where the multipart form posts (the page's view kept). */
  action: string;
}) {
  const description = markOf(outcome, v.id, "part", "description");
  const cost = markOf(outcome, v.id, "part", "cost");
  return (
    <details className="box" open={description.message || cost.message ? true : undefined}>
      <summary>Add part</summary>
      <Form
        // Drawn again, empty, once a part is added: a second tap cannot add the same part
        // twice (a mistake keeps what was typed).
        key={`part-${v.parts.length}`}
        method="post"
        action={action}
        encType="multipart/form-data"
        className="mt-3 grid gap-3"
      >
        <input type="hidden" name="appointmentId" value={v.id} />
        <input type="hidden" name="key" value={v.keys.part} />
        <label className="grid gap-1">
          Part
          <input
            className="field"
            name="description"
            maxLength={200}
            required
            {...description.props}
          />
        </label>
        {description.message}
        <label className="grid gap-1">
          Price (over $100, the member approves first)
          <input
            className="field"
            name="cost"
            inputMode="decimal"
            placeholder="$0.00"
            required
            {...cost.props}
          />
        </label>
        {cost.message}
        {/* Optional: a part is often recorded before it is bought. With its receipt it was
            bought: charged at once (over $100, once approved). */}
        <label className="grid gap-1">
          Receipt photo (with it, the part counts as bought)
          <input className="field" type="file" name="receipt" accept="image/*" />
        </label>
        <button name="intent" value="part" className="btn btn-main">
          Save part
        </button>
      </Form>
    </details>
  );
}
