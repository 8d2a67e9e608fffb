import { redirect } from "react-router";
import type { LeadStatus } from "./result";
import { SENT_FRAGMENTS } from "./sent";

/**
 * Post/redirect/get for a form posted without JavaScript (ADR 025): a lead that was taken is
 * answered 303 to `path#fragment`, so the address bar shows the page, not `/?index`, and a
 * reload posts nothing again. Null for the page's own script (it shows a toast) and for a
 * refused submission (the page is rendered again with what was typed and the messages).
 */
export function redirectAfterLead(
  result: { outcome: LeadStatus },
  context: { scriptRequest?: boolean },
  path: string,
) {
  if (context.scriptRequest) return null;
  const fragment = SENT_FRAGMENTS[result.outcome];
  return fragment ? redirect(`${path}#${fragment}`, 303) : null;
}
