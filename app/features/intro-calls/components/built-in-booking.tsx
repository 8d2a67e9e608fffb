import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { inputClassName } from "~/components/ui/input-class-name";
import { prepareToasts, showToast } from "~/lib/lazy-toast";
import type { BookingResult, SchedulerData } from "../result";

type Days = Extract<SchedulerData, { mode: "builtin" }>["days"];

/** Results already announced: the panel remounts when the free times reload. */
const announced = new WeakSet<BookingResult>();

const FIELD = `${inputClassName} h-10`;
const LABEL = "text-sm leading-none font-medium";

/**
 * The built-in intro-call booking (DESIGN.md decision 7): a day, a 15-minute time, and how to
 * reach you. Times are shown in Eastern Time, the business's time zone.
 */
export function BuiltInBooking({ days, reloadSlots }: { days: Days; reloadSlots: () => void }) {
  const fetcher = useFetcher<BookingResult>({ key: "intro-call" });
  const [date, setDate] = useState(days[0]?.date ?? "");
  const pending = fetcher.state !== "idle";
  const result = fetcher.data;
  const errors = result?.fieldErrors ?? {};
  const day = days.find((d) => d.date === date) ?? days[0];
  const confirmation = useRef<HTMLDivElement>(null);
  const booked = result?.status === "booked" && result.booking ? result.booking : undefined;

  // The confirmation replaces the form, which was taller: bring it into view and move focus to
  // it, so the visitor (and a screen reader) lands on it rather than on an empty card.
  useEffect(() => {
    const element = confirmation.current;
    if (!booked || !element) return;
    element.focus({ preventScroll: true });
    element.scrollIntoView({ block: "center" });
  }, [booked]);

  useEffect(() => {
    if (fetcher.state !== "idle" || !result || announced.has(result)) return;
    announced.add(result);
    void showToast(result.toast);
    if (result.status === "booked" || result.status === "taken") reloadSlots();
  }, [fetcher.state, result, reloadSlots]);

  if (booked) {
    return (
      <div
        ref={confirmation}
        role="status"
        tabIndex={-1}
        className="scroll-mt-24 rounded-xl border border-primary p-6 outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <h3 className="text-xl font-bold">You&apos;re booked!</h3>
        <p className="mt-2">
          We will call you on {booked.when}. A confirmation with a calendar invitation is on its way
          to {booked.email}.
        </p>
      </div>
    );
  }
  if (!day) {
    return <p>No times are free in the next two weeks. Please call us to book your call.</p>;
  }
  const error = (id: string, message?: string) =>
    message && (
      <p id={id} className="text-sm text-destructive">
        {message}
      </p>
    );
  return (
    <fetcher.Form
      method="post"
      // Nothing else on the page depends on a booking; the free times reload on their own.
      defaultShouldRevalidate={false}
      onFocus={prepareToasts}
      className="grid gap-5"
    >
      <fieldset disabled={pending} className="grid gap-5">
        <div className="grid gap-2">
          <label htmlFor="call-day" className={LABEL}>
            Day
          </label>
          <select
            id="call-day"
            value={day.date}
            onChange={(event) => setDate(event.target.value)}
            className={FIELD}
          >
            {days.map((d) => (
              <option key={d.date} value={d.date}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset
          aria-describedby={errors.startsAt ? "call-time-error" : undefined}
          className="grid gap-2"
        >
          <legend className={`${LABEL} mb-2`}>Time (Eastern Time)</legend>
          <div className="grid max-h-64 grid-cols-3 gap-2 overflow-y-auto p-1 sm:grid-cols-4">
            {day.slots.map((slot) => (
              <label key={slot.startsAt} className="relative">
                <input
                  type="radio"
                  name="startsAt"
                  value={slot.startsAt}
                  required
                  className="peer absolute inset-0 opacity-0"
                />
                <span className="flex h-10 items-center justify-center rounded-md border border-input text-sm font-medium peer-checked:border-primary peer-checked:bg-primary peer-checked:text-primary-foreground peer-focus-visible:ring-2 peer-focus-visible:ring-ring">
                  {slot.label}
                </span>
              </label>
            ))}
          </div>
          {error("call-time-error", errors.startsAt)}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-2 sm:col-span-2">
            <label htmlFor="call-name" className={LABEL}>
              Name
            </label>
            <input
              id="call-name"
              name="name"
              required
              autoComplete="name"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? "call-name-error" : undefined}
              className={FIELD}
            />
            {error("call-name-error", errors.name)}
          </div>
          <div className="grid gap-2">
            <label htmlFor="call-email" className={LABEL}>
              Email
            </label>
            <input
              id="call-email"
              name="email"
              type="email"
              required
              autoComplete="email"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? "call-email-error" : undefined}
              className={FIELD}
            />
            {error("call-email-error", errors.email)}
          </div>
          <div className="grid gap-2">
            <label htmlFor="call-phone" className={LABEL}>
              Phone Number
            </label>
            <input
              id="call-phone"
              name="phone"
              type="tel"
              required
              autoComplete="tel"
              aria-invalid={errors.phone ? true : undefined}
              aria-describedby={errors.phone ? "call-phone-error" : undefined}
              className={FIELD}
            />
            {error("call-phone-error", errors.phone)}
          </div>
        </div>
        <button type="submit" className={buttonVariants({ size: "lg", className: "w-full" })}>
          {pending ? "Booking..." : "Book Intro Call"}
        </button>
      </fieldset>
    </fetcher.Form>
  );
}
