import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { MemberPaymentsView } from "../types";

const dollars = (cents: number) =>
  (cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD" });
const hours = (minutes: number) => `${Math.floor(minutes / 60)} h`;

/** Said on the way back from Stripe Checkout (its success address carries ?checkout=done). */
export const CHECKOUT_DONE_MESSAGE =
  "Thank you: your membership starts as soon as Stripe confirms the payment (usually within a minute).";

/** Where the member's membership forms post: the page that shows the tab answers them (ADR 033). */
const MEMBERSHIP_FORM_ACTION = "/dashboard?tab=membership";

/**
 * The member's payments on the Membership tab: an open offer with its price and terms and
 * 'Start membership'; 'Past due' with 'Update card'; 'Manage card' for a card on file.
 * `message` is the answer of 'Start membership' or 'Manage card' when it did not lead to Stripe
 * (the form's answer, ADR 033), or the thanks on the way back from Checkout.
 */
export function MemberPayments({
  view,
  message,
}: {
  view: MemberPaymentsView;
  message: string | null;
}) {
  if (!view.offer && !view.cardOnFile && !view.pastDueSince && !message) return null;
  return (
    <Card className="mb-4">
      <CardHeader>
        <CardTitle asChild>
          <h2>{view.offer ? "Your membership offer" : "Payments"}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {message ? <p role="status">{message}</p> : null}
        {view.offer ? (
          <>
            <p>
              {view.offer.planName} membership, {view.offer.billing} billing:{" "}
              <strong>
                {dollars(view.offer.priceCents)}
                {view.offer.billing === "annual" ? " a year, paid upfront" : " a month"}
              </strong>
              , from {view.offer.startDate}.
            </p>
            <p>
              {hours(view.offer.minutesPerYear)} of handyman time and {view.offer.visitsPerYear}{" "}
              visits a year. Cancel any time: unused hours are refunded. The membership starts when
              the payment is confirmed.
            </p>
            <Form method="post" action={MEMBERSHIP_FORM_ACTION}>
              <input type="hidden" name="intent" value="start-membership" />
              <Button type="submit">Start membership</Button>
            </Form>
            {view.takesCards ? (
              <p className="text-muted-foreground">
                You pay on Stripe&apos;s secure page; no card details pass through our site.
              </p>
            ) : null}
          </>
        ) : null}
        {view.pastDueSince ? (
          <div role="alert" className="grid gap-2">
            <p className="font-medium text-destructive">
              Past due: your card payment did not go through on {view.pastDueSince}.
              {view.bookingWaitsFrom
                ? ` From ${view.bookingWaitsFrom}, booking waits until it is paid.`
                : ""}
            </p>
          </div>
        ) : null}
        {view.cardOnFile ? (
          <Form method="post" action={MEMBERSHIP_FORM_ACTION}>
            <input type="hidden" name="intent" value="manage-card" />
            <Button type="submit" variant={view.pastDueSince ? "default" : "outline"}>
              {view.pastDueSince ? "Update card" : "Manage card"}
            </Button>
          </Form>
        ) : null}
      </CardContent>
    </Card>
  );
}
