import type { FormAnswer } from "~/lib/form-answer";
import type { ToastMessage } from "~/lib/toast-message";

/**
 * What a lead form's action answers, with or without JavaScript. The page shows `toast` as a
 * toast (with JavaScript) or inline (without), and each field error (in `result`) beside its
 * field. `outcome`:
 *   saved            the lead is in the database, its webhook call queued (the normal case)
 *   saved-elsewhere  the database failed, the webhook took the lead directly
 *   not-saved        both failed; the lead is in the error log (docs/product.md's "not successful")
 *   invalid          a field broke a rule of docs/product.md section 5; nothing was stored
 *   rate-limited     more than 3 submissions in 10 minutes; nothing was stored
 *   error            the request itself failed (network, server error)
 * The lead was taken (`ok`, and the form is emptied) for the first three.
 */
export type LeadStatus =
  "saved" | "saved-elsewhere" | "not-saved" | "invalid" | "rate-limited" | "error";

export type LeadResult = FormAnswer<{ outcome: LeadStatus; toast: ToastMessage }>;

export const REQUEST_FAILED: LeadResult = {
  ok: false,
  outcome: "error",
  toast: { kind: "error", title: "Error", description: "Something went wrong. Please try again." },
};
