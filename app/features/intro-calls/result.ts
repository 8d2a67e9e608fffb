import type { FormAnswer } from "~/lib/form-answer";
import type { ToastMessage } from "~/lib/toast-message";

export type BookingField = "name" | "email" | "phone" | "startsAt";

/**
 * What the booking action answers (the page shows it as a toast, or inline without JS). An
 * error answer carries its messages only (`result` holds the refused fields' messages, never
 * the submitted values) and nothing internal.
 */
export type BookingResult = FormAnswer<{
  outcome: "booked" | "invalid" | "taken" | "rate-limited" | "error";
  toast: ToastMessage;
  booking?: { when: string; email: string };
}>;

/** What the page loads to show the scheduler: an external widget, or the built-in slots. */
export type SchedulerData =
  | { mode: "embed"; url: string }
  | {
      mode: "builtin";
      days: { date: string; label: string; slots: { startsAt: string; label: string }[] }[];
    };

/** The answer when the booking failed for a reason of ours: a message, nothing else. */
export const BOOKING_FAILED = {
  ok: false,
  outcome: "error",
  toast: { kind: "error", title: "Error", description: "Something went wrong. Please try again." },
} as const satisfies BookingResult;
