import { Badge } from "~/components/ui/badge";
import { Progress } from "~/components/ui/progress";
import type { BankSummary } from "../types";
import { SettlementLines } from "./settlement-lines";
import { formatCents } from "~/lib/money";
import { plainDate } from "~/lib/business-calendar";

/** Plan, status, renewal, the hours meter and the visits left: the same for member and staff. */
export function MembershipSummary({
  summary,
  headingLevel = 3,
}: {
  summary: BankSummary;
  /** The plan name's heading level where the summary sits. */
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const active = summary.status === "active";
  const percent = Math.max(
    0,
    Math.min(100, Math.round((summary.minutesLeft / Math.max(1, summary.paidMinutes)) * 100)),
  );
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <Heading className="text-lg font-semibold">{summary.planName}</Heading>
        <Badge variant={active ? "default" : "secondary"}>{active ? "Active" : "Canceled"}</Badge>
        <span className="text-sm text-muted-foreground">
          {summary.billing === "annual"
            ? `Annual, ${formatCents(summary.monthlyPriceCents * 12)} a year`
            : `Monthly, ${formatCents(summary.monthlyPriceCents)} a month`}
        </span>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">Started</dt>
          <dd>{plainDate(summary.startDate)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">{active ? "Renews on" : "Canceled on"}</dt>
          <dd>
            {active
              ? plainDate(summary.renewsOn)
              : plainDate(summary.canceledOn ?? summary.startDate)}
          </dd>
        </div>
      </dl>
      {active ? (
        <>
          <div className="grid gap-2">
            <p className="flex flex-wrap items-baseline justify-between gap-2">
              <span id={`hours-${summary.membershipId}`} className="font-medium">
                Hours
              </span>
              <span data-testid="hours-meter">{summary.meterLabel}</span>
            </p>
            <Progress
              value={percent}
              aria-labelledby={`hours-${summary.membershipId}`}
              aria-valuetext={summary.meterLabel}
            />
          </div>
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-muted-foreground">Visits left this year</dt>
              <dd data-testid="visits-left-year">
                {summary.visitsLeftThisYear} of {summary.visitsPerYear}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Visits left this month</dt>
              <dd data-testid="visits-left-month">
                {summary.visitsLeftThisMonth} of {summary.monthlyAllowance}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">
                {summary.balanceCents < 0 ? "Credit" : "Balance due"}
              </dt>
              <dd data-testid="balance">{formatCents(Math.abs(summary.balanceCents))}</dd>
            </div>
          </dl>
        </>
      ) : (
        <section aria-labelledby={`settled-${summary.membershipId}`} className="grid gap-2">
          <h4 id={`settled-${summary.membershipId}`} className="font-medium">
            Settled when canceled
          </h4>
          {summary.settlement ? (
            <SettlementLines
              settlement={summary.settlement}
              testId="settled"
              sent={summary.refundsSent}
              sentInFull={summary.refundSentInFull}
            />
          ) : (
            <p className="text-sm text-muted-foreground">{summary.meterLabel}</p>
          )}
          <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-muted-foreground">
                {summary.balanceCents < 0 ? "Credit" : "Balance due"}
              </dt>
              <dd data-testid="balance">{formatCents(Math.abs(summary.balanceCents))}</dd>
            </div>
          </dl>
        </section>
      )}
    </div>
  );
}
