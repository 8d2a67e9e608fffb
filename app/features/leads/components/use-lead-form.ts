import { useActionData } from "react-router";
import { fieldErrorsOf, keptValuesOf } from "~/lib/form-answer";
import type { LeadResult } from "../result";

/**
 * A lead form's answer when it came with the page: the form was posted without JavaScript and
 * refused, so the page is rendered again with the result shown inline, the messages beside the
 * fields and what was typed put back (a lead that was taken is redirected instead, ADR 025).
 * With JavaScript the page's script posts the form and shows the answer itself
 * (lead-form.enhance.ts).
 */
export function usePostedLead(fieldOrder: readonly string[]) {
  const answer = useActionData() as LeadResult | undefined;
  const errors = fieldErrorsOf(answer?.result);
  // Where the focus lands when the answer loads (`autofocus`, which the browser honours on
  // load): the first refused field in the form's order, else the answer itself (a limit, say).
  // Focusing on load scrolls the page to the form (the action's fragment names no element, so
  // the browser honours autofocus: sent.ts LEAD_ANSWER_FRAGMENT).
  const firstRefused = fieldOrder.find((name) => errors[name as keyof typeof errors]);
  return {
    answer,
    errors,
    kept: keptValuesOf(answer?.result),
    autoFocus: (name: string) => name === firstRefused,
    focusAnswer: Boolean(answer && !answer.ok && !firstRefused),
  };
}
