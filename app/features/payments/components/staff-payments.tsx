import { Link } from "react-router";
import type { StaffPaymentsView } from "../types";
import {
  CustomerRefundsCard,
  OfferCard,
  OutcomeLine,
  SendOfferCard,
  type StaffPaymentsOutcome,
} from "./staff-payment-cards";

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
  outcome: StaffPaymentsOutcome;
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
        <SendOfferCard today={today} outcome={outcome} formKey={keys.sendOffer} />
      ) : null}
      {view.offer ? (
        <OfferCard offer={view.offer} takesCards={view.takesCards} outcome={outcome} keys={keys} />
      ) : null}
      {view.refundsToPay.length ? (
        <CustomerRefundsCard refunds={view.refundsToPay} outcome={outcome} keys={keys.refundPaid} />
      ) : (
        <OutcomeLine outcome={outcome} intent="mark-refund-paid" />
      )}
    </>
  );
}
