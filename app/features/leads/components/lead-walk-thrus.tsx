import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { longDate, minuteLabel } from "~/lib/business-calendar";
import type { LeadDetail } from "../people.server";
import { LeadSaid, type LeadOutcome } from "./lead-detail-cards";

type WalkThru = LeadDetail["walkThrus"][number];

/** A walk-thru not yet under way can be canceled from the lead page. */
export function cancelable(status: string) {
  return status === "booked" || status === "on_the_way";
}

/**
 * The lead page's Walk-thru card: the lead's walk-thrus, each with 'Cancel walk-thru' (which
 * asks first, ?cancel=<id>), then the booking form (`children`, the visits feature's).
 */
export function LeadWalkThruCard({
  lead,
  confirmCancel,
  busy,
  outcome,
  children,
}: {
  lead: LeadDetail;
  confirmCancel: WalkThru | null;
  busy: boolean;
  outcome: LeadOutcome;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-xl">Walk-thru</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {lead.walkThrus.length ? (
          <ul className="grid gap-2">
            {lead.walkThrus.map((w) => (
              <li key={w.id} className="rounded-lg border p-3" data-walk-thru={w.status}>
                {longDate(w.date)}, {minuteLabel(w.startTime)} to {minuteLabel(w.endTime)}
                {w.handyman ? ` with ${w.handyman}` : ""} ({w.status.replace(/_/g, " ")})
                {w.address ? <span className="block text-sm">{w.address}</span> : null}
                {confirmCancel?.id === w.id ? (
                  <ConfirmCancelWalkThru lead={lead} walkThruId={w.id} busy={busy} />
                ) : cancelable(w.status) ? (
                  <Form method="get" className="mt-2">
                    <input type="hidden" name="cancel" value={w.id} />
                    <Button type="submit" variant="outline" size="sm">
                      Cancel walk-thru
                    </Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No walk-thru booked yet.</p>
        )}
        {outcome?.ok ? <LeadSaid outcome={outcome} intent="book-walk-thru" /> : null}
        <LeadSaid outcome={outcome} intent="cancel-walk-thru" />
        <h3 className="font-semibold">Book a walk-thru</h3>
        {children}
      </CardContent>
    </Card>
  );
}

/** 'Cancel this walk-thru?': a part of the page, so it works without JavaScript. */
function ConfirmCancelWalkThru({
  lead,
  walkThruId,
  busy,
}: {
  lead: LeadDetail;
  walkThruId: string;
  busy: boolean;
}) {
  return (
    <div
      role="alertdialog"
      aria-labelledby="cancel-walk-thru-title"
      aria-describedby="cancel-walk-thru-text"
      className="mt-2 grid gap-2 rounded-md border border-destructive/40 p-3"
    >
      <p id="cancel-walk-thru-title" className="font-semibold">
        Cancel this walk-thru?
      </p>
      <p id="cancel-walk-thru-text" className="text-sm">
        {lead.name} is told by e-mail and asked to call to choose another time.
      </p>
      <div className="flex flex-wrap gap-2">
        <Form method="post" action={`/employee/leads/${lead.id}`}>
          <input type="hidden" name="appointmentId" value={walkThruId} />
          <Button
            type="submit"
            name="intent"
            value="cancel-walk-thru"
            variant="destructive"
            disabled={busy}
          >
            Yes, cancel the walk-thru
          </Button>
        </Form>
        <Link to={`/employee/leads/${lead.id}`} className={buttonVariants({ variant: "outline" })}>
          Keep the walk-thru
        </Link>
      </div>
    </div>
  );
}
