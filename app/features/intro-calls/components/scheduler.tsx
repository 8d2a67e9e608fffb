import { href, useActionData } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { Field, FIELD_LABEL_CLASS } from "~/components/ui/field";
import { inputClassName } from "~/components/ui/input-class-name";
import { CARD } from "~/features/marketing";
import { useBusiness } from "~/lib/business";
import { fieldErrorsOf } from "~/lib/form-answer";
import type { BookingResult } from "../result";

const FIELD = `${inputClassName} h-10`;

/**
 * The height the picker will take, reserved while the times load so nothing below moves; the card
 * fits its content once the picker is not coming: without JavaScript (the noscript message),
 * after 'You're booked!', and when the times could not load or none are free.
 */
const RESERVED_HEIGHT = [
  "min-h-[560px] noscript:min-h-0",
  "has-[[data-booked]:not([hidden])]:min-h-0",
  "has-[[data-state=failed]:not([hidden])]:min-h-0",
  "has-[[data-state=none]:not([hidden])]:min-h-0",
].join(" ");
const ERROR = "text-sm text-destructive";

/** A contact field of the booking form, with its message's place beside it. */
function ContactField(props: {
  id: string;
  field: "name" | "email" | "phone";
  label: string;
  type: "text" | "email" | "tel";
  autoComplete: string;
  className?: string;
}) {
  return (
    <Field id={props.id} label={props.label} keepErrorPlace className={props.className}>
      {(control) => (
        <input
          {...control}
          name={props.field}
          type={props.type}
          required
          autoComplete={props.autoComplete}
          data-field={props.field}
          className={FIELD}
        />
      )}
    </Field>
  );
}

/**
 * The scheduler panel of /book-call, as markup. Free times change by the minute and the page is
 * static, so the page's script (booking.enhance.ts, ADR 030) loads them and brings the panel to
 * life: the built-in booking (docs/design.md decision 7: a day, a 15-minute time in Eastern Time, and
 * how to reach you) or the external widget (SCHEDULER_EMBED_URL). Every state the script can
 * show is here, hidden until it does; the reserved height keeps the layout still meanwhile.
 * Without JavaScript the <noscript> message stands alone. A booking posted as a plain form (by
 * a client without the script) is answered with this page and its result in it.
 */
export function Scheduler() {
  const { phone, phoneHref } = useBusiness();
  const answer = useActionData() as BookingResult | undefined;
  const booked = answer?.outcome === "booked" ? answer.booking : undefined;
  return (
    <div className={`${CARD} ${RESERVED_HEIGHT}`} data-scheduler="">
      <h2 className="text-2xl font-bold">Choose a Time</h2>
      <div className="mt-6">
        {answer && !booked && (
          <div
            role="alert"
            data-inline-result=""
            className="mb-4 rounded-md border border-destructive p-3 text-sm text-destructive"
          >
            <p className="font-semibold">{answer.toast.title}</p>
            <p>{answer.toast.description}</p>
            {[...new Set(Object.values(fieldErrorsOf(answer.result)))].map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        )}
        <noscript>
          <p>
            Our scheduler needs JavaScript. Call us at <a href={phoneHref}>{phone}</a> and we will
            book your intro call by phone.
          </p>
        </noscript>
        <p data-state="loading" hidden className="text-muted-foreground">
          Loading available times...
        </p>
        <p data-state="failed" role="alert" hidden>
          We could not load the available times. Please refresh the page or call us at{" "}
          <a href={phoneHref} className="font-medium text-primary underline">
            {phone}
          </a>
          .
        </p>
        <p data-state="none" hidden>
          No times are free in the next two weeks. Please call us to book your call.
        </p>
        <form
          method="post"
          action={href("/book-call")}
          data-booking-form=""
          hidden
          className="grid gap-5"
        >
          <fieldset className="grid gap-5">
            <Field id="call-day" label="Day">
              {(control) => <select {...control} className={FIELD} />}
            </Field>
            <fieldset id="call-time" data-field="startsAt" className="grid gap-2">
              <legend className={`${FIELD_LABEL_CLASS} mb-2`}>Time (Eastern Time)</legend>
              <div
                data-slots=""
                className="grid max-h-64 grid-cols-3 gap-2 overflow-y-auto p-1 sm:grid-cols-4"
              />
              <p id="call-time-error" hidden className={ERROR} />
            </fieldset>
            <div className="grid gap-4 sm:grid-cols-2">
              <ContactField
                id="call-name"
                field="name"
                label="Name"
                type="text"
                autoComplete="name"
                className="sm:col-span-2"
              />
              <ContactField
                id="call-email"
                field="email"
                label="Email"
                type="email"
                autoComplete="email"
              />
              <ContactField
                id="call-phone"
                field="phone"
                label="Phone Number"
                type="tel"
                autoComplete="tel"
              />
            </div>
            <button type="submit" className={buttonVariants({ size: "lg", className: "w-full" })}>
              Book Intro Call
            </button>
          </fieldset>
          <template data-slot="">
            <label className="relative">
              <input
                type="radio"
                name="startsAt"
                required
                className="peer absolute inset-0 opacity-0"
              />
              <span className="flex h-10 items-center justify-center rounded-md border border-input text-sm font-medium peer-checked:border-primary peer-checked:bg-primary peer-checked:text-primary-foreground peer-focus-visible:ring-2 peer-focus-visible:ring-ring" />
            </label>
          </template>
        </form>
        {/* The confirmation replaces the form; the script moves the view and the focus to it. */}
        <div
          data-booked=""
          role="status"
          tabIndex={-1}
          hidden={!booked}
          className="scroll-mt-24 rounded-xl border border-primary p-6 outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <h3 className="text-xl font-bold">You&apos;re booked!</h3>
          <p className="mt-2">
            We will call you on <span data-when="">{booked?.when}</span>. A confirmation with a
            calendar invitation is on its way to <span data-email="">{booked?.email}</span>.
          </p>
        </div>
        <template data-embed="">
          <iframe
            title="Schedule your intro call"
            className="h-[680px] w-full rounded-xl border bg-background"
          />
        </template>
      </div>
    </div>
  );
}
