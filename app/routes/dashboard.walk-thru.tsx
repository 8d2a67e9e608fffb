import { Link } from "react-router";
import { AppHeader } from "~/components/layout/app-header";
import { ProfileMenu } from "~/features/accounts";
import { buttonVariants } from "~/components/ui/button-variants";
import type { Route } from "./+types/dashboard.walk-thru";
import { leadOfCustomer } from "~/features/leads/people.server";
import { WalkThruBooking } from "~/features/visits/components/walk-thru-booking";
import {
  bookWalkThru,
  customerWalkThrus,
  walkThruDefaults,
  walkThruOffer,
  walkThruSchema,
} from "~/features/visits/walk-thru.server";
import { VisitRejectedError } from "~/features/visits/visits.server";
import { businessToday, longDate, minuteLabel } from "~/lib/business-calendar";
import { answer, parseIntent, type IntentAnswer } from "~/lib/form-answer.server";
import { logger } from "~/lib/logger.server";
import { requireCustomer, requireCustomerForAction } from "~/lib/session.server";

/**
 * 'Book a free walk-thru' for a signed-in customer (issue 29 item 2): the walk-thru times, their
 * name and home address filled in; no membership needed. One GET form per step, then a POST.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireCustomer(request);
  const [defaults, offer, booked] = await Promise.all([
    walkThruDefaults(user.id),
    walkThruOffer({ customerId: user.id, date: new URL(request.url).searchParams.get("date") }),
    customerWalkThrus(user.id, businessToday()),
  ]);
  return {
    user,
    defaults: { name: defaults?.name ?? "", address: defaults?.address ?? "" },
    offer,
    booked: booked.map((b) => ({ id: b.id, date: b.date, startTime: b.startTime })),
  };
}

const WALK_THRU_ALREADY_BOOKED = "Your free walk-thru is already booked.";

export function meta() {
  return [{ title: "Book a free walk-thru" }];
}

/** The page's one form: its answers name it, so its refused fields are marked (ADR 093). */
const INTENT = "book-walk-thru";
type Outcome = IntentAnswer;

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireCustomerForAction(request);
  const said = (ok: boolean, message: string, status?: number) =>
    answer<Outcome>({ ok, intent: INTENT, message }, context, { status });
  // A customer does not choose the handyman: whoever is free comes (a posted one is ignored).
  const parsed = parseIntent(
    await request.formData(),
    walkThruSchema.omit({ employeeId: true }),
    INTENT,
  );
  if (!parsed.ok) return answer(parsed.refusal, context);
  try {
    if ((await customerWalkThrus(user.id, businessToday())).length)
      return said(false, WALK_THRU_ALREADY_BOOKED, 409);
    const defaults = await walkThruDefaults(user.id);
    const leadId = await leadOfCustomer(user.id);
    if (!defaults || !leadId) return said(false, "Customer not found.", 404);
    const booked = await bookWalkThru(
      {
        ...parsed.value,
        employeeId: undefined,
        leadId,
        customerId: user.id,
        email: defaults.email,
      },
      { id: user.id, isEmployee: false },
    );
    return said(
      true,
      `Your free walk-thru is booked: ${booked.when}. A confirmation is on its way to ${defaults.email}.`,
    );
  } catch (error) {
    if (error instanceof VisitRejectedError) return said(false, error.message, 409);
    logger.error({ err: (error as Error).message }, "walk-thru booking failed");
    return said(false, "Something went wrong. Nothing was booked.", 500);
  }
}

export default function BookWalkThru({ loaderData, actionData }: Route.ComponentProps) {
  const outcome = actionData as Outcome | undefined;
  return (
    <>
      <AppHeader width="max-w-2xl">
        <ProfileMenu user={loaderData.user} />
      </AppHeader>
      <main className="mx-auto grid max-w-2xl gap-4 px-4 py-6 sm:py-8">
        <h1 className="text-2xl font-bold sm:text-3xl">Book a free walk-thru</h1>
        <p className="text-muted-foreground">
          A handyman visits your home for 45 minutes, looks at what needs doing and answers your
          questions. Free, and no membership needed.
        </p>
        {outcome?.ok ? (
          <p role="status" className="rounded-lg border bg-card p-4 font-medium">
            {outcome.message}
          </p>
        ) : null}
        {loaderData.booked.length ? (
          <section aria-labelledby="booked-walk-thrus" className="grid gap-2">
            <h2 id="booked-walk-thrus" className="text-lg font-semibold">
              Your walk-thru
            </h2>
            <ul className="grid gap-2">
              {loaderData.booked.map((b) => (
                <li key={b.id} className="rounded-lg border p-3">
                  {longDate(b.date)}, {minuteLabel(b.startTime)}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {loaderData.booked.length ? null : (
          // One free walk-thru at a time: not offered again while one is booked.
          <WalkThruBooking
            offer={loaderData.offer}
            defaults={loaderData.defaults}
            error={outcome && !outcome.ok ? outcome.message : null}
            refused={outcome}
          />
        )}
        {loaderData.booked.length && outcome && !outcome.ok ? (
          <p role="alert" className="text-sm text-destructive">
            {outcome.message}
          </p>
        ) : null}
        <Link
          to="/dashboard?tab=membership"
          className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
        >
          Back to Membership
        </Link>
      </main>
    </>
  );
}
