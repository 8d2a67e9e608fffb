import type { ToastMessage } from "~/lib/toast-message";
import type { LeadStatus } from "./result";

/*
 * A lead form posted without JavaScript is answered post/redirect/get (ADR 025): once the lead
 * is taken, a 303 to the page with a fragment naming the result. The public pages are
 * prerendered, so the message is already in their HTML, hidden, and CSS `:target` shows the one
 * the fragment names: no server render, no script.
 */

/** The fragment for each result that took the lead (the form is cleared). */
export const SENT_FRAGMENTS: Partial<Record<LeadStatus, string>> & Record<TakenStatus, string> = {
  saved: "lead-sent",
  "saved-elsewhere": "lead-received",
  "not-saved": "lead-submitted",
};

/**
 * The fragment of the lead forms' action (issue 32): a form refused without JavaScript comes
 * back as the page at `...#lead-answer` with its first refused field (or the answer, when no
 * field was refused) `autofocus`ed, which scrolls the page to the form and puts the cursor there.
 * It must name no element: a browser skips autofocus when the address's fragment targets one.
 */
export const LEAD_ANSWER_FRAGMENT = "lead-answer";

/** A lead taken (the form is emptied), however it was kept. */
export type TakenStatus = "saved" | "saved-elsewhere" | "not-saved";

/** The home form's messages (docs/product.md section 8), as its toasts say them. */
export const HOME_SENT: Record<TakenStatus, ToastMessage> = {
  saved: {
    kind: "success",
    title: "Thank you for your interest!",
    description: "We'll be in touch soon to schedule your free consultation.",
  },
  "saved-elsewhere": {
    kind: "success",
    title: "Thank you for your interest!",
    description: "We'll be in touch soon to schedule your free consultation.",
  },
  "not-saved": {
    kind: "info",
    title: "Form submitted",
    description: "We'll be in touch soon to schedule your consultation.",
  },
};

/** The city form's messages (docs/product.md section 8), as its toasts say them. */
export const CITY_SENT: Record<TakenStatus, ToastMessage> = {
  saved: {
    kind: "success",
    title: "Thank you for your interest!",
    description: "Your message has been received and saved. We'll contact you within 24 hours.",
  },
  "saved-elsewhere": {
    kind: "success",
    title: "Thank you for your interest!",
    description: "We'll contact you within 24 hours to schedule your consultation.",
  },
  "not-saved": {
    kind: "info",
    title: "Form submitted",
    description: "We'll be in touch within 24 hours to schedule your consultation.",
  },
};
