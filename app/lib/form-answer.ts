import type { SubmissionResult } from "@conform-to/react";

/*
 * What every form's action answers (ADR 033): the public lead and booking forms, the request
 * actions, /account's intents, sign-in and the staff's actions. One shape, whoever shows it: a
 * signed-in page's Conform form, a public page's enhancement script, the page rendered again
 * for a form posted without JavaScript, or an API client.
 */
export type FormAnswer<Extra extends object = object> = {
  /** Whether the action did what was asked. */
  ok: boolean;
  /** What the person is told, where the action has one sentence to say. */
  message?: string;
  /**
   * Conform's `submission.reply()`: each refused field's messages by name (`error`), and the
   * values to put back in the form (`initialValue`; null once the form is to be emptied).
   */
  result?: SubmissionResult<string[]>;
} & Extra;

/** Each refused field's first message, by field name. */
export function fieldErrorsOf(result: SubmissionResult<string[]> | undefined) {
  const errors: Record<string, string> = {};
  for (const [name, messages] of Object.entries(result?.error ?? {})) {
    if (name && messages?.[0]) errors[name] = messages[0];
  }
  return errors;
}

/** The submitted text values to show again, or undefined when the form is to be emptied. */
export function keptValuesOf(result: SubmissionResult<string[]> | undefined) {
  if (!result?.initialValue) return undefined;
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.initialValue)) {
    if (typeof value === "string") values[name] = value;
  }
  return values;
}
