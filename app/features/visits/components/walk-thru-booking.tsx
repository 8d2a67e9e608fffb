import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { marked, type MarkedOutcome } from "~/components/ui/marked-field";
import { NativeSelect } from "~/components/ui/native-select";

export type WalkThruOffer = {
  days: { date: string; label: string }[];
  /** The handyman staff chose first (`?handyman=`): the days and times are theirs. */
  handymanId?: string | null;
  /** The day chosen (`?date=`), with its free starts. */
  day: {
    date: string;
    label: string;
    slots: { startMinute: number; label: string; handymen: { id: string; name: string }[] }[];
  } | null;
};

/**
 * Booking a free 45-minute walk-thru: choose a day (a plain GET form), then a time, the name and
 * the address (filled in), and for staff the handyman. Works without JavaScript.
 */
export function WalkThruBooking({
  offer,
  defaults,
  handymen,
  error,
  refused,
}: {
  offer: WalkThruOffer;
  defaults: { name: string; address: string };
  /** Staff choose the handyman; a customer gets whoever is free. */
  handymen?: { id: string; name: string }[];
  error?: string | null;
  /** The booking's answer: each field it refused is marked (ADR 093). */
  refused?: MarkedOutcome;
}) {
  const navigation = useNavigation();
  const time = marked(refused, "book-walk-thru", "startMinute", "walk-thru-time");
  const name = marked(refused, "book-walk-thru", "name", "walk-thru-name");
  const address = marked(refused, "book-walk-thru", "address", "walk-thru-address");
  const busy = navigation.state === "submitting";
  if (!offer.days.length && !offer.handymanId)
    return (
      <p className="text-muted-foreground">
        No walk-thru times are free in the next 4 weeks. Please call us.
      </p>
    );
  return (
    <div className="grid gap-4">
      <Form
        method="get"
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
        preventScrollReset
      >
        {handymen ? (
          // The handyman first: the days and times shown are then only when they are free.
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="walk-thru-handyman">Handyman</Label>
            <NativeSelect
              id="walk-thru-handyman"
              name="handyman"
              defaultValue={offer.handymanId ?? ""}
              key={offer.handymanId ?? ""}
            >
              <option value="">Whoever is free</option>
              {handymen.map((h) => (
                <option key={h.id} value={h.id}>
                  {h.name}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
        {offer.days.length ? (
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="walk-thru-day">Day</Label>
            <NativeSelect
              id="walk-thru-day"
              name="date"
              defaultValue={offer.day?.date ?? offer.days[0].date}
              key={offer.day?.date ?? ""}
            >
              {offer.days.map((d) => (
                <option key={d.date} value={d.date}>
                  {d.label}
                </option>
              ))}
            </NativeSelect>
          </div>
        ) : null}
        <Button type="submit" variant="secondary">
          Show times
        </Button>
      </Form>
      {!offer.days.length ? (
        <p className="text-muted-foreground">
          This handyman has no free walk-thru times in the next 4 weeks.
        </p>
      ) : offer.day ? (
        <Form method="post" className="grid gap-3" preventScrollReset>
          <input type="hidden" name="date" value={offer.day.date} />
          <p className="font-medium">{offer.day.label}</p>
          <div className="grid gap-1.5">
            <Label htmlFor="walk-thru-time">Time</Label>
            <NativeSelect id="walk-thru-time" name="startMinute" required {...time.props}>
              {offer.day.slots.map((s) => (
                <option key={s.startMinute} value={s.startMinute}>
                  {s.label}
                </option>
              ))}
            </NativeSelect>
            {time.message}
          </div>
          {handymen && offer.handymanId ? (
            <input type="hidden" name="employeeId" value={offer.handymanId} />
          ) : null}
          <div className="grid gap-1.5">
            <Label htmlFor="walk-thru-name">Name</Label>
            <Input
              id="walk-thru-name"
              name="name"
              defaultValue={defaults.name}
              required
              maxLength={100}
              autoComplete="name"
              {...name.props}
            />
            {name.message}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="walk-thru-address">Address</Label>
            <Input
              id="walk-thru-address"
              name="address"
              defaultValue={defaults.address}
              required
              maxLength={300}
              autoComplete="street-address"
              {...address.props}
            />
            {address.message}
          </div>
          {error ? (
            <p role="alert" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
          <Button
            type="submit"
            name="intent"
            value="book-walk-thru"
            disabled={busy}
            className="w-fit"
          >
            Book walk-thru
          </Button>
        </Form>
      ) : (
        <p className="text-sm text-muted-foreground">Choose a day to see the free times.</p>
      )}
    </div>
  );
}
