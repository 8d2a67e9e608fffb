import { useActionData } from "react-router";
import type { LeadResult } from "../result";

/**
 * A lead form's answer when it came with the page: the form was posted without JavaScript and
 * refused, so the page is rendered again with the result shown inline, the messages beside the
 * fields and what was typed put back (a lead that was taken is redirected instead, ADR 025).
 * With JavaScript the page's script posts the form and shows the answer itself
 * (lead-form.enhance.ts).
 */
export function usePostedLead<Field extends string>() {
  const result = useActionData() as LeadResult<Field> | undefined;
  return { result, kept: result && !result.clear ? result.values : undefined };
}
