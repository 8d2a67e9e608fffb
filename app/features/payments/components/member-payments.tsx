import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { longDate, plainDate } from "~/lib/business-calendar";
import { hoursText } from "~/lib/hours";
import { formatCents } from "~/lib/money";
import type { MemberPaymentsView, RenewalSummary } from "../types";

function RenewalForm({
  intent,
  label,
  formKey,
  variant = "outline",
}: {
  intent: string;
  label: string;
  formKey: string;
  variant?: "default" | "outline";
}) {
  return (
    <Form method="post" action={MEMBERSHIP_FORM_ACTION}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="key" value={formKey} />
      <Button type="submit" variant={variant}>
        {label}
      </Button>
    </Form>
  );
}

/**
 * An annual membership's next renewal on the Plan tab, where the renewal notices' links lead
 * (#renewal): the date, the price and the hours, and one tap for 'Switch to monthly' or 'Cancel
 * renewal' (or, once chosen, 'Keep annual renewal').
 */
function Renewal({ renewal, formKey }: { renewal: RenewalSummary; formKey: string }) {
  const date = longDate(renewal.date);
  return (
    <section id="renewal" aria-labelledby="renewal-heading" className="grid gap-2">
      <h3 id="renewal-heading" className="font-medium">
        Renewal
      </h3>
      {renewal.choice === "cancel" ? (
        <p>
          Your {renewal.planName} membership ends on {date} and is not charged again. Unused hours
          are refunded then.
        </p>
      ) : renewal.choice === "monthly" ? (
        <p>
          From {date} your {renewal.planName} membership is billed{" "}
          <strong>{formatCents(renewal.monthCents)} a month</strong> (
          {hoursText(renewal.minutesPerYear)} of handyman time a year, paid month by month).
        </p>
      ) : (
        <p>
          Your {renewal.planName} membership renews on {date} for another year:{" "}
          <strong>{formatCents(renewal.yearCents)}</strong> for {hoursText(renewal.minutesPerYear)}{" "}
          of handyman time and {renewal.visitsPerYear} visits. Or pay monthly from then:{" "}
          {formatCents(renewal.monthCents)} a month.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {renewal.choice !== null ? (
          <RenewalForm intent="renewal-keep" label="Keep annual renewal" formKey={formKey} />
        ) : null}
        {renewal.choice !== "monthly" ? (
          <RenewalForm intent="renewal-monthly" label="Switch to monthly" formKey={formKey} />
        ) : null}
        {renewal.choice !== "cancel" ? (
          <RenewalForm intent="renewal-cancel" label="Cancel renewal" formKey={formKey} />
        ) : null}
      </div>
    </section>
  );
}

/** The answer of 'Start membership' when cards are not taken: the office takes the payment. */
export const CALL_ASKED_MESSAGE = "Thank you: the office will call you to take your first payment.";

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
  if (!view.offer && !view.cardOnFile && !view.pastDueSince && !view.renewal && !message) {
    return null;
  }
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
                {formatCents(view.offer.priceCents)}
                {view.offer.billing === "annual" ? " a year, paid upfront" : " a month"}
              </strong>
              , from {plainDate(view.offer.startDate)}.
            </p>
            <p>
              {hoursText(view.offer.minutesPerYear)} of handyman time and {view.offer.visitsPerYear}{" "}
              visits a year. Cancel any time: unused hours are refunded. The membership starts when
              the payment is confirmed.
            </p>
            {/* Once the office is to call, the button is not offered again (nor is its
                thanks said twice). */}
            {view.offer.callAsked || message === CALL_ASKED_MESSAGE ? (
              message === CALL_ASKED_MESSAGE ? null : (
                <p role="status">{CALL_ASKED_MESSAGE}</p>
              )
            ) : (
              <Form method="post" action={MEMBERSHIP_FORM_ACTION}>
                <input type="hidden" name="intent" value="start-membership" />
                <input type="hidden" name="key" value={view.formKey} />
                <Button type="submit">Start membership</Button>
              </Form>
            )}
            {view.takesCards ? (
              <p className="text-muted-foreground">
                You pay on Stripe&apos;s secure page; no card details pass through our site.
              </p>
            ) : null}
          </>
        ) : null}
        {view.pastDueByHand ? (
          <div role="alert" className="grid gap-2">
            <p className="font-medium text-destructive">
              Past due: {formatCents(view.pastDueByHand.owedCents)} of your membership is unpaid.
              {view.bookingWaitsFrom
                ? ` From ${longDate(view.bookingWaitsFrom)}, booking waits until it is paid.`
                : ""}
            </p>
            <p>{view.pastDueByHand.howToPay}</p>
          </div>
        ) : view.pastDueSince ? (
          <div role="alert" className="grid gap-2">
            <p className="font-medium text-destructive">
              Past due: your card payment did not go through on {view.pastDueSince}.
              {view.bookingWaitsFrom
                ? ` From ${view.bookingWaitsFrom}, booking waits until it is paid.`
                : ""}
            </p>
          </div>
        ) : null}
        {view.renewal ? <Renewal renewal={view.renewal} formKey={view.formKey} /> : null}
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
