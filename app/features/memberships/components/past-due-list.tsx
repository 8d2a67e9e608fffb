import { href, Link } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { longDate, type IsoDate } from "~/lib/business-calendar";
import { formatCents } from "~/lib/money";

export type PastDueListRow = {
  membershipId: string;
  customerId: string;
  customerName: string;
  owedCents: number;
  unpaidSince: IsoDate;
  ageDays: number;
  byCard: boolean;
  bookingWaitsFrom: IsoDate;
};

const days = (n: number) => (n === 1 ? "1 day" : `${n} days`);

/**
 * The office's 'Past due' list (issue 39 item 7, ADR 083), beside 'Refunds to pay': every
 * membership 'Past due', the oldest balance first, with what is owed and how old it is, each
 * linking to the membership page where 'Record payment' brings it back. Shown only while one is.
 */
export function PastDueList({ rows, today }: { rows: PastDueListRow[]; today: IsoDate }) {
  if (!rows.length) return null;
  const total = rows.reduce((sum, r) => sum + Math.max(0, r.owedCents), 0);
  return (
    <Card className="mb-4" role="region" aria-labelledby="past-due-title">
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2 id="past-due-title">Past due</h2>
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          {rows.length === 1 ? "1 membership" : `${rows.length} memberships`} past due,{" "}
          {formatCents(total)} owed in all. Record each payment on the membership page.
        </p>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2">
          {rows.map((row) => (
            <li key={row.membershipId} className="flex flex-wrap items-baseline gap-x-2">
              <Link
                to={href("/employee/customers/:customerId/membership", {
                  customerId: row.customerId,
                })}
                className="font-medium underline underline-offset-4"
              >
                {row.customerName}
              </Link>
              <span>
                {row.byCard
                  ? `card payment failed ${days(row.ageDays)} ago (${longDate(row.unpaidSince)})`
                  : `${formatCents(row.owedCents)} owed for ${days(row.ageDays)} (unpaid since ${longDate(row.unpaidSince)})`}
                {row.bookingWaitsFrom <= today
                  ? "; booking waits until paid"
                  : `; booking waits from ${longDate(row.bookingWaitsFrom)}`}
              </span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
