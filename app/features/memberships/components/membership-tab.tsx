import { Form, href, Link, useNavigation, useSearchParams } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { PLANS } from "~/content/plans";
import { minuteLabel, minuteOfDay, plainDate } from "~/lib/business-calendar";
import type { MembershipView, PartView } from "../types";
import { ReceiptPhoto } from "./receipt-photo";
import { CancelMembership } from "./cancel-membership";
import { MembershipSummary } from "./membership-summary";
import { StatementTable } from "./statement-table";
import { formatCents } from "~/lib/money";
import { hoursText } from "~/lib/hours";

/**
 * Where the member's membership forms post: the dashboard, which shows this tab, answers them
 * (ADR 033), so the answer shows in place, with JavaScript or without.
 */
export const MEMBER_ACTION = `${href("/dashboard")}?tab=membership`;

/**
 * The customer's 'Membership' tab: their plan and hours, approvals, statement, cancel.
 * `message` is the answer of the member's last membership form (a part approved, the cancel).
 */
export function MembershipTab({
  view,
  message,
  walkThru = null,
}: {
  view: MembershipView | null;
  message: string | null;
  /** Her next walk-thru, already booked: not offered again (issue 40 item 4). */
  walkThru?: { scheduledDate: string; startTime: string } | null;
}) {
  return (
    <section aria-labelledby="membership-title" className="grid gap-4">
      <h2 id="membership-title" className="text-lg font-semibold">
        Membership
      </h2>
      {message && (
        <p role="status" className="rounded-md border bg-background px-4 py-3 text-sm">
          {message}
        </p>
      )}
      {view ? <MemberView view={view} /> : null}
      {(!view || view.summary.status !== "active") && <PlanChoices walkThru={walkThru} />}
    </section>
  );
}

function MemberView({ view }: { view: MembershipView }) {
  const [params] = useSearchParams();
  const pending = view.parts.filter((p) => p.status === "pending_approval");
  const active = view.summary.status === "active";
  const statementHref = (cancel: boolean) => {
    const next = new URLSearchParams(params);
    next.set("tab", "membership");
    if (cancel) next.set("cancel", "membership");
    else next.delete("cancel");
    return `?${next.toString()}`;
  };
  return (
    <>
      <Card>
        <CardContent className="grid gap-4">
          <MembershipSummary summary={view.summary} />
          <div className="flex flex-wrap gap-2">
            <Button asChild variant="secondary">
              <a
                href={href("/dashboard/memberships/:membershipId/statement", {
                  membershipId: view.summary.membershipId,
                })}
                download
              >
                Download statement (CSV)
              </a>
            </Button>
            {active && view.cancel && (
              <CancelMembership
                quote={view.cancel}
                open={params.get("cancel") === "membership"}
                openHref={statementHref(true)}
                closeHref={statementHref(false)}
                action={MEMBER_ACTION}
              />
            )}
          </div>
        </CardContent>
      </Card>
      {pending.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle asChild>
              <h3>Parts waiting for your approval ({pending.length})</h3>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-3">
              {pending.map((part) => (
                <li key={part.id}>
                  <PartApproval part={part} />
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h3>Statement</h3>
          </CardTitle>
        </CardHeader>
        <CardContent>
          <StatementTable lines={view.statement} page={view.statementPage} />
        </CardContent>
      </Card>
    </>
  );
}

function PartApproval({ part }: { part: PartView }) {
  const navigation = useNavigation();
  const busy =
    navigation.state === "submitting" &&
    navigation.formAction === MEMBER_ACTION &&
    navigation.formData?.get("partId") === part.id;
  const label = `${part.description} (${formatCents(part.costCents)})`;
  return (
    <article
      aria-label={`Part: ${label}`}
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4"
    >
      <div className="grid gap-1">
        <p className="font-medium">{part.description}</p>
        <p className="text-sm text-muted-foreground">
          {formatCents(part.costCents)} for your visit on {plainDate(part.scheduledDate)}
        </p>
        {part.hasReceipt && <ReceiptPhoto part={part} />}
      </div>
      <Form method="post" action={MEMBER_ACTION} className="flex gap-2" preventScrollReset>
        <input type="hidden" name="partId" value={part.id} />
        <Button
          type="submit"
          name="intent"
          value="approve-part"
          disabled={busy}
          aria-label={`Approve ${label}`}
        >
          Approve
        </Button>
        <Button
          type="submit"
          name="intent"
          value="decline-part"
          variant="outline"
          disabled={busy}
          aria-label={`Decline ${label}`}
        >
          Decline
        </Button>
      </Form>
    </article>
  );
}

/** For a customer without a membership: the plans, and the free walk-thru to start. */
function PlanChoices({
  walkThru,
}: {
  walkThru: { scheduledDate: string; startTime: string } | null;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h3>Become a member</h3>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ul className="grid gap-3 sm:grid-cols-3">
          {PLANS.map((plan) => (
            <li key={plan.id} className="grid gap-1 rounded-lg border p-4">
              <p className="flex flex-wrap items-center gap-2 font-semibold">
                {plan.name}
                {plan.badge && <Badge variant="secondary">{plan.badge}</Badge>}
              </p>
              <p className="text-2xl font-bold">
                ${plan.pricePerMonth}
                <span className="text-sm font-normal text-muted-foreground">/month</span>
              </p>
              <p className="text-sm">
                {hoursText(plan.minutesPerYear)} and {plan.visitsPerYear} visits per year
              </p>
            </li>
          ))}
        </ul>
        {walkThru ? (
          <p className="text-sm" data-testid="walk-thru-booked">
            Your free walk-thru is booked: {plainDate(walkThru.scheduledDate)},{" "}
            {minuteLabel(minuteOfDay(walkThru.startTime))}. It is on your Appointments tab.
          </p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground">
              Start with a free 45-minute walk-thru of your home: no membership needed.
            </p>
            <Button asChild className="w-fit">
              <Link to={href("/dashboard/walk-thru")}>Book a free walk-thru</Link>
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
