import { href, Link } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { longDate, type IsoDate } from "~/lib/business-calendar";
import { formatCents } from "~/lib/money";

export type RefundToPayRow = {
  id: string;
  customerId: string;
  customerName: string;
  amountCents: number;
  /** The business day the refund was owed from (the cancel's day). */
  since: IsoDate;
};

/**
 * 'Refunds to pay' for the whole office (issue 27, item 5): every refund owed by check, cash or
 * transfer, oldest first, each linking to the customer's membership page where 'Mark refund
 * paid' records it. Shown only while something is owed.
 */
export function RefundsToPay({ refunds }: { refunds: RefundToPayRow[] }) {
  if (!refunds.length) return null;
  const total = refunds.reduce((sum, r) => sum + r.amountCents, 0);
  return (
    <Card className="mb-4" role="region" aria-labelledby="refunds-to-pay-title">
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2 id="refunds-to-pay-title">Refunds to pay</h2>
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          {refunds.length === 1 ? "1 refund" : `${refunds.length} refunds`} owed,{" "}
          {formatCents(total)} in all. Pay each by check, cash or transfer, then 'Mark refund paid'
          on the membership page.
        </p>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2">
          {refunds.map((refund) => (
            <li key={refund.id} className="flex flex-wrap items-baseline gap-x-2">
              <Link
                to={href("/employee/customers/:customerId/membership", {
                  customerId: refund.customerId,
                })}
                className="font-medium underline underline-offset-4"
              >
                {refund.customerName}
              </Link>
              <span>
                {formatCents(refund.amountCents)}, owed since {longDate(refund.since)}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
