import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { MembershipTermsFields } from "~/features/memberships";
import { plainDate } from "~/lib/business-calendar";
import { centsAsDecimal, formatCents } from "~/lib/money";
import type { OfferSummary, StaffPaymentsView } from "../types";

/** The cards of staff's payments on a customer's membership page (staff-payments.tsx). */

export type StaffPaymentsOutcome = { ok: boolean; intent: string; message: string } | null;

/** The last post's sentence, under the form that sent `intent`. */
export function OutcomeLine({
  outcome,
  intent,
}: {
  outcome: StaffPaymentsOutcome;
  intent: string;
}) {
  if (!outcome || outcome.intent !== intent) return null;
  return (
    <p
      role={outcome.ok ? "status" : "alert"}
      className={outcome.ok ? "text-sm text-primary" : "text-sm font-medium text-destructive"}
    >
      {outcome.message}
    </p>
  );
}

function MethodField({ id }: { id: string }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>Paid by</Label>
      <NativeSelect id={id} name="method" defaultValue="check" required>
        <option value="check">Check</option>
        <option value="cash">Cash</option>
        <option value="bank_transfer">Bank transfer</option>
        <option value="card">Card</option>
      </NativeSelect>
    </div>
  );
}

/** 'Send membership offer': the plan and its terms. */
export function SendOfferCard({
  today,
  outcome,
  formKey,
}: {
  today: string;
  outcome: StaffPaymentsOutcome;
  formKey: string;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Send membership offer</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4 sm:grid-cols-3 sm:items-end">
          <input type="hidden" name="intent" value="send-offer" />
          <input type="hidden" name="key" value={formKey} />
          <MembershipTermsFields idPrefix="offer" today={today} />
          <div className="grid gap-2 sm:col-span-3">
            <Button type="submit" className="w-fit">
              Send membership offer
            </Button>
            <OutcomeLine outcome={outcome} intent="send-offer" />
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/**
 * The open offer: its terms, its first payment recorded by hand when no card processor is set,
 * and 'Withdraw offer'.
 */
export function OfferCard({
  offer,
  takesCards,
  outcome,
  keys,
}: {
  offer: OfferSummary;
  takesCards: boolean;
  outcome: StaffPaymentsOutcome;
  keys: { withdrawOffer: string; offerPayment: string };
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Membership offer</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        <p>
          {offer.planName}, {offer.billing}: {formatCents(offer.priceCents)}
          {offer.billing === "annual" ? " a year" : " a month"}, from {plainDate(offer.startDate)}.
          Sent, waiting for the customer&apos;s first payment.
        </p>
        {offer.callAsked ? (
          <p role="status" className="font-medium">
            The customer chose &apos;Start membership&apos;: call them to take the first payment.
          </p>
        ) : null}
        {!takesCards ? (
          <Form method="post" className="grid gap-4 sm:grid-cols-3 sm:items-end">
            <input type="hidden" name="intent" value="offer-payment" />
            <input type="hidden" name="key" value={keys.offerPayment} />
            <div className="grid gap-1.5">
              <Label htmlFor="offer-payment-amount">First payment (USD)</Label>
              <Input
                id="offer-payment-amount"
                name="amount"
                inputMode="decimal"
                defaultValue={centsAsDecimal(offer.priceCents)}
                required
                maxLength={20}
              />
            </div>
            <MethodField id="offer-payment-method" />
            <div className="grid gap-1.5">
              <Label htmlFor="offer-payment-reference">Reference (optional)</Label>
              <Input id="offer-payment-reference" name="reference" maxLength={100} />
            </div>
            <div className="sm:col-span-3">
              <Button type="submit" className="w-fit">
                Record first payment and start
              </Button>
            </div>
          </Form>
        ) : null}
        <OutcomeLine outcome={outcome} intent="offer-payment" />
        <Form method="post">
          <input type="hidden" name="intent" value="withdraw-offer" />
          <input type="hidden" name="key" value={keys.withdrawOffer} />
          <Button type="submit" variant="outline" className="w-fit">
            Withdraw offer
          </Button>
        </Form>
        <OutcomeLine outcome={outcome} intent="send-offer" />
      </CardContent>
    </Card>
  );
}

/** 'Refunds to pay' on the customer's page: each with 'Mark refund paid'. */
export function CustomerRefundsCard({
  refunds,
  outcome,
  keys,
}: {
  refunds: StaffPaymentsView["refundsToPay"];
  outcome: StaffPaymentsOutcome;
  keys: Record<string, string>;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Refunds to pay</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {refunds.map((refund) => (
          <Form
            method="post"
            key={refund.id}
            className="grid gap-4 sm:grid-cols-3 sm:items-end"
            aria-label={`Refund of ${formatCents(refund.amountCents)}`}
          >
            <p className="sm:col-span-3">
              {formatCents(refund.amountCents)} owed to {refund.customerName}
            </p>
            <input type="hidden" name="intent" value="mark-refund-paid" />
            <input type="hidden" name="refundId" value={refund.id} />
            <input type="hidden" name="key" value={keys[refund.id] ?? ""} />
            <MethodField id={`refund-method-${refund.id}`} />
            <div className="grid gap-1.5">
              <Label htmlFor={`refund-reference-${refund.id}`}>
                Check number or note (optional)
              </Label>
              <Input id={`refund-reference-${refund.id}`} name="reference" maxLength={100} />
            </div>
            <Button type="submit" className="w-fit">
              Mark refund paid
            </Button>
          </Form>
        ))}
        <OutcomeLine outcome={outcome} intent="mark-refund-paid" />
      </CardContent>
    </Card>
  );
}
