import type { ToastMessage } from "~/lib/toast-message";

export type BookingField = "name" | "email" | "phone" | "startsAt";

/**
 * What the booking action answers (the page shows it as a toast, or inline without JS). An
 * error answer carries its messages only: never the submitted fields or anything internal.
 */
export type BookingResult = {
  status: "booked" | "invalid" | "taken" | "rate-limited" | "error";
  toast: ToastMessage;
  fieldErrors?: Partial<Record<BookingField, string>>;
  booking?: { when: string; email: string };
};

/** What the page loads to show the scheduler: an external widget, or the built-in slots. */
export type SchedulerData =
  | { mode: "embed"; url: string }
  | {
      mode: "builtin";
      days: { date: string; label: string; slots: { startsAt: string; label: string }[] }[];
    };

/** The answer when the booking failed for a reason of ours: a message, nothing else. */
export const BOOKING_FAILED = {
  status: "error",
  toast: { kind: "error", title: "Error", description: "Something went wrong. Please try again." },
} as const satisfies BookingResult;
