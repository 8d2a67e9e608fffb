import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { VISIT_BLOCKS } from "~/features/availability";
import { useBusiness } from "~/lib/business";
import { hoursText } from "~/lib/hours";
import { bothHandymen, TWO_HANDYMEN_LABEL, twoHandymenOffer } from "~/lib/two-handymen";
import { bookingHref, type BookingChoice, type OfferedStarts } from "../booking-steps";
import { Chosen, DayRadios, Hidden, radio, Step } from "./booking-parts";

/*
 * The member's first booking steps (ADR 017): the visit's length, the day (or, when her
 * handyman is away, whom to book with) and the start time.
 */

export type BookVisitData = {
  choice: BookingChoice;
  /** The days on offer, on the day step only. */
  days: { date: string; label: string }[] | null;
  /** The chosen day's start times, on the start step only. */
  day: OfferedStarts | null;
  /** `onVisitDate`: already on another upcoming visit (shown, not offered). */
  requests: {
    id: string;
    title: string;
    priority: "next" | "later";
    onVisitDate: string | null;
    fromPlan?: boolean;
  }[];
  firstVisit: boolean;
  taskLimit: number | null;
  /** What the visit spends from the hours bank; `refused` when the bank cannot take it. */
  summary: { label: string; refused: boolean } | null;
  /** When the bank cannot take it: the shorter block, or the extra visit at its price. */
  nextSteps: { kind: "shorter" | "extra"; block: 105; label: string }[];
  handymanName: string | null;
  startLabel: string | null;
  /** Her dedicated handyman, named at each step, and when he is away his cover (ADR 088). */
  handymen: {
    dedicated: { id: string; name: string; firstName: string } | null;
    away: {
      untilLabel: string | null;
      cover: { id: string; name: string; firstName: string } | null;
    } | null;
  } | null;
};

/** 'Two handymen' with its fee, on the block step (ADR 091). */
export function TwoHandymenChoice({ checked, feeCents }: { checked: boolean; feeCents: number }) {
  return (
    <div className="grid gap-1">
      <label className={radio}>
        <input
          type="checkbox"
          name="two"
          value="1"
          defaultChecked={checked}
          aria-describedby="two-handymen-offer"
        />
        {TWO_HANDYMEN_LABEL}
      </label>
      <p id="two-handymen-offer" className="text-sm text-muted-foreground">
        {twoHandymenOffer(feeCents)}
      </p>
    </div>
  );
}

/** Names her handyman at each step, or the one covering for him (ADR 088). */
export function HandymanLine({ data }: { data: BookVisitData }) {
  const dedicated = data.handymen?.dedicated;
  if (!dedicated) return null;
  const cover = data.handymen?.away?.cover;
  const covering = data.choice.withId && data.choice.withId !== dedicated.id && cover;
  return (
    <p className="rounded-lg border bg-card px-4 py-3" data-testid="booking-handyman">
      {covering
        ? `With ${cover.name}, covering for ${dedicated.name}.`
        : `With your handyman, ${dedicated.name}: his times come first.`}
    </p>
  );
}

/** "Dana is away until December 14": 'Wait for Dana' or 'Book with Sam'. */
export function AwayStep({ data }: { data: BookVisitData }) {
  const dedicated = data.handymen!.dedicated!;
  const { untilLabel, cover } = data.handymen!.away!;
  const title = untilLabel
    ? `${dedicated.firstName} is away until ${untilLabel}`
    : `${dedicated.firstName} is away for the next 4 weeks`;
  return (
    <Step title={title}>
      <p>
        {dedicated.firstName} has no free time for this visit in the next 14 days.
        {cover ? ` ${cover.name} covers for him meanwhile.` : ""}
      </p>
      <div className="flex flex-wrap gap-2">
        {untilLabel ? (
          <Link
            to={bookingHref({ ...data.choice, withId: dedicated.id }, "date")}
            className={buttonVariants({ variant: "outline", className: "w-full sm:w-fit" })}
          >
            Wait for {dedicated.firstName}
          </Link>
        ) : null}
        {cover ? (
          <Link
            to={bookingHref({ ...data.choice, withId: cover.id }, "date")}
            className={buttonVariants({ className: "w-full sm:w-fit" })}
          >
            Book with {cover.firstName}
          </Link>
        ) : (
          <p>No other handyman is free either. Please call us.</p>
        )}
      </div>
    </Step>
  );
}

/** 'How long a visit?', or the length chosen. */
export function BlockStep({ choice }: { choice: BookingChoice }) {
  const business = useBusiness();
  return choice.block ? (
    <Chosen
      label="Visit length"
      value={`${hoursText(choice.block)}${choice.two ? `, ${TWO_HANDYMEN_LABEL.toLowerCase()}` : ""}`}
      change={bookingHref(choice, "block")}
    />
  ) : (
    <Step title="How long a visit?">
      <Form method="get" className="grid gap-3">
        <fieldset className="grid gap-2">
          <legend className="mb-2 text-sm text-muted-foreground">
            Choose the block of time your tasks need.
          </legend>
          {VISIT_BLOCKS.map((block, i) => (
            <label key={block} className={radio}>
              <input type="radio" name="block" value={block} required defaultChecked={i === 0} />
              {hoursText(block)}
            </label>
          ))}
        </fieldset>
        <TwoHandymenChoice checked={choice.two} feeCents={business.secondHandymanFeeCents} />
        <Button type="submit" className="w-full sm:w-fit">
          Next
        </Button>
      </Form>
    </Step>
  );
}

/** 'Choose a day': the days with a free time for the block. */
export function DayStep({ choice, days }: { choice: BookingChoice; days: BookVisitData["days"] }) {
  return (
    <Step title="Choose a day">
      {days?.length ? (
        <Form method="get" className="grid gap-3">
          <Hidden choice={choice} upTo="date" />
          <fieldset className="grid gap-2 sm:grid-cols-2">
            <legend className="sr-only">Days with a free time</legend>
            <DayRadios days={days} />
          </fieldset>
          <Button type="submit" className="w-full sm:w-fit">
            Next
          </Button>
        </Form>
      ) : (
        <p>No day in the next 4 weeks has a free time for this visit. Please call us.</p>
      )}
    </Step>
  );
}

/** 'Choose a start time' on the chosen day, each with who comes. */
export function StartStep({ choice, day }: { choice: BookingChoice; day: OfferedStarts | null }) {
  return (
    <Step title="Choose a start time">
      {day?.slots.length ? (
        <Form method="get" className="grid gap-3">
          <Hidden choice={choice} upTo="start" />
          <fieldset className="grid gap-2 sm:grid-cols-2">
            <legend className="sr-only">Start times</legend>
            {day.slots.map((slot, i) => {
              const first = slot.handyman;
              return (
                <label key={slot.startMinute} className={radio}>
                  <input
                    type="radio"
                    name="start"
                    value={`${slot.startMinute}|${first.id}`}
                    required
                    defaultChecked={i === 0}
                  />
                  <span>
                    {slot.label}{" "}
                    <span className="text-sm text-muted-foreground">
                      {slot.withDedicated || choice.withId
                        ? `with ${bothHandymen(first.name, slot.second?.name)}`
                        : `your handyman is busy; ${bothHandymen(first.name, slot.second?.name)} ${slot.second ? "are" : "is"} free`}
                    </span>
                  </span>
                </label>
              );
            })}
          </fieldset>
          <Button type="submit" className="w-full sm:w-fit">
            Next
          </Button>
        </Form>
      ) : (
        <p>That day has no free time left. Please choose another day.</p>
      )}
    </Step>
  );
}
