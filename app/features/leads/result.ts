import type { ToastMessage } from "~/lib/toast-message";

/**
 * What a lead form's action answers, with or without JavaScript. The page shows `toast` as a
 * toast (with JavaScript) or inline (without), and each field error beside its field.
 *   saved            the lead is in the database, its webhook call queued (the normal case)
 *   saved-elsewhere  the database failed, the webhook took the lead directly
 *   not-saved        both failed; the lead is in the error log (SPEC.md's "not successful")
 *   invalid          a field broke a rule of SPEC.md section 5; nothing was stored
 *   rate-limited     more than 3 submissions in 10 minutes; nothing was stored
 *   error            the request itself failed (network, server error)
 */
export type LeadStatus =
  "saved" | "saved-elsewhere" | "not-saved" | "invalid" | "rate-limited" | "error";

export type LeadResult<Field extends string = string> = {
  status: LeadStatus;
  toast: ToastMessage;
  /** Empty the form: after a success or a non-success result, never after an error. */
  clear: boolean;
  fieldErrors?: Partial<Record<Field, string>>;
  /** The submitted values, echoed when the fields are kept (the page without JavaScript). */
  values?: Partial<Record<Field, string>>;
};

export const REQUEST_FAILED: LeadResult = {
  status: "error",
  toast: { kind: "error", title: "Error", description: "Something went wrong. Please try again." },
  clear: false,
};
