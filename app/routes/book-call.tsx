import type { Route } from "./+types/book-call";
import { Icon } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button-variants";
import { BOOKING_HTTP_STATUS, bookIntroCall } from "~/features/intro-calls/booking.server";
import { answer } from "~/lib/form-answer.server";
import bookingScript from "~/features/intro-calls/booking.enhance?page-script";
import { Scheduler } from "~/features/intro-calls/components/scheduler";
import { BOOKING_FAILED, type BookingResult } from "~/features/intro-calls/result";
import { CARD } from "~/features/marketing/components/section";
import { localBusinessJsonLd, pageMeta } from "~/features/marketing/seo.server";
import { SERVED_PLACES } from "~/content/service-area";
import { business } from "~/lib/business.server";
import { useBusiness } from "~/lib/business";
import type { PageHandle } from "~/lib/page-scripts";
import { SlotPicture } from "~/lib/public-images";
import { pictureHtml } from "~/lib/public-images.server";
import { logger } from "~/lib/logger.server";

/** No React in the browser (the public layout says so); the booking picker's script (ADR 030). */
export const handle: PageHandle = { script: bookingScript };

export function loader() {
  return {
    meta: pageMeta({
      title: `Book a Free Intro Call | ${business().name}`,
      description:
        "Book a free 15-minute intro phone call: we assess your home's maintenance needs, review repairs and upgrades, and discuss pricing and next steps. No obligation.",
      path: "/book-call",
      jsonLd: [localBusinessJsonLd(SERVED_PLACES)],
    }),
    // The "What to Expect" section's picture, from its slot (ADR 028).
    expectImage: pictureHtml("book-call-expect"),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  let result: BookingResult;
  try {
    result = await bookIntroCall(formData, { clientAddress: context.clientAddress });
  } catch (error) {
    // A thrown value would be serialized into the reply as it is (a library's error object can
    // carry the whole booking): the reply gets the message only, the log gets the cause.
    logger.error({ err: errorMessage(error) }, "intro call booking failed");
    return answer<BookingResult>(BOOKING_FAILED, context, { status: 500 });
  }
  return answer(result, context, { status: BOOKING_HTTP_STATUS[result.outcome] });
}

function errorMessage(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}

const MUTED = "text-muted-foreground";

const COVERED = [
  "Assess your maintenance needs",
  "Review repairs and upgrades",
  "Discuss pricing and next steps",
  "No obligation",
];

const EXPECT = [
  {
    title: "Assess Your Needs",
    text: "We learn about your home, its age and the jobs on your list.",
  },
  {
    title: "Custom Plan",
    text: "We suggest the plan and visit rhythm that fit your home and budget.",
  },
  {
    title: "Next Steps",
    text: "If it feels right, we book your free 45-minute walk-thru. No pressure.",
  },
];

export default function BookCall({ loaderData }: Route.ComponentProps) {
  const { phone, phoneHref } = useBusiness();
  return (
    <>
      <section className="bg-gradient-to-b from-secondary to-background px-4 pt-14 pb-10 sm:pt-20">
        <div className="mx-auto max-w-3xl text-center">
          <h1 className="text-4xl font-bold tracking-tight text-balance sm:text-5xl">
            Ready to Transform Your Home? Let&apos;s Talk Strategy
          </h1>
          <p className={`mt-6 text-lg ${MUTED}`}>
            Pick a time for a free intro call. We will call you, answer your questions, and see
            whether a membership is right for your home.
          </p>
        </div>
      </section>
      <section aria-label="Book your intro call" className="px-4 pb-16">
        <div className="mx-auto grid max-w-6xl gap-8 lg:grid-cols-[1fr_2fr]">
          <div className={`${CARD} h-fit`}>
            <h2 className="text-2xl font-bold">Intro Call</h2>
            <p className={`mt-3 flex items-center gap-2 ${MUTED}`}>
              <Icon name="clock" /> 15 minutes
            </p>
            <p className={`mt-1 flex items-center gap-2 ${MUTED}`}>
              <Icon name="phone" /> By phone
            </p>
            <h3 className="mt-6 font-semibold">What we cover</h3>
            <ul className="mt-3 space-y-2 text-sm">
              {COVERED.map((item) => (
                <li key={item} className="flex gap-2">
                  <Icon name="check" className="mt-0.5 size-4 shrink-0 text-primary" />
                  {item}
                </li>
              ))}
            </ul>
            <p className={`mt-6 border-t pt-4 text-sm ${MUTED}`}>
              Need to reschedule? Call us at{" "}
              <a href={phoneHref} className="font-medium text-primary underline underline-offset-4">
                {phone}
              </a>
              .
            </p>
          </div>
          <div>
            <Scheduler />
            <a
              href={phoneHref}
              className={buttonVariants({
                variant: "outline",
                size: "lg",
                className: "mt-4 h-auto w-full flex-col gap-0 py-3 whitespace-normal md:hidden",
              })}
            >
              <span>Having trouble with the scheduler?</span>
              <span className="flex items-center gap-2 text-primary">
                <Icon name="phone" /> Call {phone}
              </span>
            </a>
          </div>
        </div>
      </section>
      <section aria-labelledby="expect-heading" className="bg-muted px-4 py-16">
        <div className="mx-auto max-w-6xl">
          <h2 id="expect-heading" className="text-center text-3xl font-bold">
            What to Expect on Your Call
          </h2>
          <SlotPicture html={loaderData.expectImage} className="mx-auto mt-8 max-w-2xl" />
          <ol className="mt-10 grid gap-6 md:grid-cols-3">
            {EXPECT.map((step, i) => (
              <li key={step.title} className={`${CARD} text-center`}>
                <span
                  aria-hidden="true"
                  className="mx-auto flex size-10 items-center justify-center rounded-full bg-primary font-bold text-primary-foreground"
                >
                  {i + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold">{step.title}</h3>
                <p className={`mt-2 text-sm ${MUTED}`}>{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>
    </>
  );
}
