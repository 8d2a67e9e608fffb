import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { MembershipTermsFields } from "~/features/memberships";
import { plainDate } from "~/lib/business-calendar";
import type { StaffPaymentsView } from "../types";
import { formatCents, centsAsDecimal } from "~/lib/money";

type Outcome = { ok: boolean; intent: string; message: string } | null;

function OutcomeLine({ outcome, intent }: { outcome: Outcome; intent: string }) {
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

/**
 * Staff's payments on a customer's membership page: 'Send membership offer' (or the open offer,
 * with its first payment recorded by hand when no card processor is set), and 'Refunds to pay'
 * with 'Mark refund paid'.
 */
export function StaffPayments({
  view,
  today,
  outcome,
  showOfferForm,
  keys,
}: {
  view: StaffPaymentsView;
  today: string;
  outcome: Outcome;
  /** The forms' idempotency keys, drawn with the page (ADR 048); per refund for 'Mark refund paid'. */
  keys: {
    sendOffer: string;
    withdrawOffer: string;
    offerPayment: string;
    refundPaid: Record<string, string>;
  };
  /** The offer's form is opened by its link (?offer=new), so the page keeps one 'Plan'. */
  showOfferForm: boolean;
}) {
  return (
    <>
      {view.canOffer && !view.offer && !showOfferForm ? (
        <p>
          <Link to="?offer=new" className="text-sm font-medium text-primary underline">
            Send membership offer
          </Link>
        </p>
      ) : null}
      {view.canOffer && !view.offer && showOfferForm ? (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Send membership offer</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <Form method="post" className="grid gap-4 sm:grid-cols-3 sm:items-end">
              <input type="hidden" name="intent" value="send-offer" />
              <input type="hidden" name="key" value={keys.sendOffer} />
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
      ) : null}
      {view.offer ? (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h2>Membership offer</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            <p>
              {view.offer.planName}, {view.offer.billing}: {formatCents(view.offer.priceCents)}
              {view.offer.billing === "annual" ? " a year" : " a month"}, from{" "}
              {plainDate(view.offer.startDate)}. Sent, waiting for the customer&apos;s first
              payment.
            </p>
            {view.offer.callAsked ? (
              <p role="status" className="font-medium">
                The customer chose &apos;Start membership&apos;: call them to take the first
                payment.
              </p>
            ) : null}
            {!view.takesCards ? (
              <Form method="post" className="grid gap-4 sm:grid-cols-3 sm:items-end">
                <input type="hidden" name="intent" value="offer-payment" />
                <input type="hidden" name="key" value={keys.offerPayment} />
                <div className="grid gap-1.5">
                  <Label htmlFor="offer-payment-amount">First payment (USD)</Label>
                  <Input
                    id="offer-payment-amount"
                    name="amount"
                    inputMode="decimal"
                    defaultValue={centsAsDecimal(view.offer.priceCents)}
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
      ) : null}
      <RefundsToPay refunds={view.refundsToPay} keys={keys.refundPaid} outcome={outcome} />
    </>
  );
}

/** 'Refunds to pay', each with 'Mark refund paid' and its own idempotency key (ADR 048). */
function RefundsToPay({
  refunds,
  keys,
  outcome,
}: {
  refunds: StaffPaymentsView["refundsToPay"];
  keys: Record<string, string>;
  outcome: Outcome;
}) {
  return refunds.length ? (
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
  ) : (
    <OutcomeLine outcome={outcome} intent="mark-refund-paid" />
  );
}
