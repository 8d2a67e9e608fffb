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
export function usePostedLead() {
  const answer = useActionData() as LeadResult | undefined;
  return {
    answer,
    errors: fieldErrorsOf(answer?.result),
    kept: keptValuesOf(answer?.result),
  };
}
