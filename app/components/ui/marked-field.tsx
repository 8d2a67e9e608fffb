import type { SubmissionResult } from "@conform-to/react";
import { fieldErrorsOf } from "~/lib/form-answer";
import { Input } from "./input";
import { Label } from "./label";

/*
 * The fields an intent action refused, marked in the form that posted them (ADR 093): the
 * control's ARIA ties (aria-invalid, aria-describedby) and its message below it. Plain markup,
 * so a form posted without JavaScript is marked as well.
 */

/** What an intent action answered (ADR 033's envelope): the form it answers and its fields. */
export type MarkedOutcome =
  { ok: boolean; intent?: string; result?: SubmissionResult<string[]> } | null | undefined;

/**
 * One field of the form `intent` as its answer left it. `of` picks one form where a page draws
 * the same form many times (one per visit, per part): the answer is this form's when the values
 * it names were posted with it (`appointmentId`, say).
 */
export function marked(
  outcome: MarkedOutcome,
  intent: string,
  name: string,
  id: string,
  of?: Record<string, string>,
) {
  const posted = outcome?.result?.initialValue;
  const ours =
    outcome &&
    !outcome.ok &&
    outcome.intent === intent &&
    Object.entries(of ?? {}).every(([field, value]) => posted?.[field] === value);
  const message = ours ? fieldErrorsOf(outcome.result)[name] : undefined;
  if (!message) return { props: {}, message: null };
  return {
    props: { "aria-invalid": true, "aria-describedby": `${id}-error` } as const,
    message: (
      <p id={`${id}-error`} className="text-sm text-destructive">
        {message}
      </p>
    ),
  };
}

/** A labelled input, marked as `mark` (from `marked`) says. */
export function MarkedInput({
  mark,
  id,
  label,
  ...input
}: {
  mark: ReturnType<typeof marked>;
  id: string;
  label: string;
} & React.ComponentProps<typeof Input>) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...input} {...mark.props} />
      {mark.message}
    </div>
  );
}
