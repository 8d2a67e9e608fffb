import { Form, Link } from "react-router";
import { dateTimeLabel } from "~/lib/business-calendar";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { LeadDetail } from "../people.server";
import { LeadStatusBadge, sourceLabel, whenLabel } from "./lead-status-badge";

/**
 * On a customer's staff page: where they came from (their lead, its forms and intro calls, the
 * walk-thru), and the way to their lead to book a walk-thru (issue 29 items 2 and 3).
 */
export function CustomerOrigin({
  customerId,
  origin,
}: {
  customerId: string;
  origin: LeadDetail | null;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-xl">Where they came from</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        {origin ? (
          <>
            <p className="flex flex-wrap items-center gap-2">
              <Link className="text-primary underline" to={`/employee/leads/${origin.id}`}>
                Lead: {origin.name}
              </Link>
              <LeadStatusBadge status={origin.status} lostReason={origin.lostReason} />
            </p>
            <ul className="grid gap-1 text-sm">
              {origin.entries.map((e, i) => (
                <li key={i}>
                  {e.kind === "intro-call" ? "Intro call booked" : "Form sent"} {whenLabel(e.at)}:{" "}
                  {sourceLabel(e.source)}
                </li>
              ))}
              {origin.walkThrus.map((w) => (
                <li key={w.id}>
                  Walk-thru {dateTimeLabel(w.date, w.startTime)}
                  {w.handyman ? ` with ${w.handyman}` : ""} ({w.status.replace(/_/g, " ")})
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="text-sm text-muted-foreground">No lead: the customer signed up directly.</p>
        )}
        <Form method="post" action={`/employee/customers/${customerId}/lead`}>
          <Button type="submit" variant="outline">
            Book a walk-thru
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
