import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { zipAndCity } from "~/content/zip-cities";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { LEAD_STATUS_LABELS, type LeadStatus } from "~/db/lead-status";
import { formatPhone } from "~/lib/phone";
import type { FormAnswer } from "~/lib/form-answer";
import { marked } from "~/components/ui/marked-field";
import type { LeadDetail } from "../people.server";
import { LeadStatusBadge, sourceLabel, whenLabel } from "./lead-status-badge";

/*
 * The staff lead page's cards (/employee/leads/:leadId), in page order; the walk-thru card is
 * in lead-walk-thrus.tsx.
 */

/** What the page's last post said (ADR 033): its intent, its one sentence, its refused fields. */
export type LeadOutcome = FormAnswer<{ intent: string }> | null;

/** The last post's sentence, under the form that sent `intent`. */
export function LeadSaid({ outcome, intent }: { outcome: LeadOutcome; intent: string }) {
  return outcome?.intent === intent ? (
    <p
      role={outcome.ok ? "status" : "alert"}
      className={outcome.ok ? "text-sm text-primary" : "text-sm text-destructive"}
    >
      {outcome.message}
    </p>
  ) : null;
}

function Fact({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}

/** Who the lead is, where they came from and whether they have an account. */
export function LeadFactsCard({ lead }: { lead: LeadDetail }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-xl">Lead</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 sm:grid-cols-2">
          <Fact label="Status">
            <LeadStatusBadge status={lead.status} lostReason={lead.lostReason} />
          </Fact>
          <Fact label="E-mail" className="break-all">
            <a className="text-primary underline" href={`mailto:${lead.email}`}>
              {lead.email}
            </a>
          </Fact>
          <Fact label="Phone">{formatPhone(lead.phone) ?? "Not given"}</Fact>
          <Fact label="ZIP and city">{zipAndCity(lead.zipCode, lead.city) ?? "Not given"}</Fact>
          <Fact label="Came from" className="break-all">
            {sourceLabel(lead.source)}
            {lead.pageUrl ? <span className="block text-sm">{lead.pageUrl}</span> : null}
          </Fact>
          <Fact label="First seen">{whenLabel(lead.createdAt)}</Fact>
          <div>
            <dt className="text-sm text-muted-foreground">Account</dt>
            <dd data-testid="lead-account">
              {lead.customerId ? (
                <Link
                  className="text-primary underline"
                  to={`/employee/customers/${lead.customerId}/membership`}
                >
                  Linked to the customer's account
                </Link>
              ) : lead.invitedAt ? (
                `Invited ${whenLabel(lead.invitedAt)}; no account yet`
              ) : (
                "No account yet"
              )}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

/** The invitation to create an account, or the membership offer once there is one. */
export function LeadNextStepCard({
  lead,
  busy,
  outcome,
}: {
  lead: LeadDetail;
  busy: boolean;
  outcome: LeadOutcome;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-xl">Next step</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        {lead.customerId ? (
          <Button asChild className="w-fit">
            <Link to={`/employee/customers/${lead.customerId}/membership`}>
              Send membership offer
            </Link>
          </Button>
        ) : (
          <Form method="post" preventScrollReset>
            <Button type="submit" name="intent" value="invite" disabled={busy}>
              Invite to create an account
            </Button>
          </Form>
        )}
        <LeadSaid outcome={outcome} intent="invite" />
        {!lead.customerId ? (
          <p className="text-sm text-muted-foreground">
            The membership offer is sent from the customer's page once they have an account.
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

const STAFF_STATUSES: LeadStatus[] = ["new", "contacted", "lost"];

/** Staff set the status (the booked and member ones follow events), the owner and notes. */
export function LeadUpdateCard({
  lead,
  busy,
  outcome,
}: {
  lead: LeadDetail;
  busy: boolean;
  outcome: LeadOutcome;
}) {
  const statuses =
    lead.status === "walk_thru_booked" || lead.status === "member"
      ? [lead.status, ...STAFF_STATUSES]
      : STAFF_STATUSES;
  const status = marked(outcome, "update", "status", "lead-status");
  const lostReason = marked(outcome, "update", "lostReason", "lead-lost-reason");
  const owner = marked(outcome, "update", "ownerId", "lead-owner");
  const notes = marked(outcome, "update", "notes", "lead-notes");
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-xl">Status, owner and notes</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-3" preventScrollReset>
          <div className="grid gap-1.5">
            <Label htmlFor="lead-status">Status</Label>
            <NativeSelect
              id="lead-status"
              name="status"
              defaultValue={lead.status}
              {...status.props}
            >
              {statuses.map((s) => (
                <option key={s} value={s}>
                  {LEAD_STATUS_LABELS[s]}
                </option>
              ))}
            </NativeSelect>
            {status.message}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="lead-lost-reason">Reason (when lost)</Label>
            <Input
              id="lead-lost-reason"
              name="lostReason"
              defaultValue={lead.lostReason ?? ""}
              maxLength={300}
              {...lostReason.props}
            />
            {lostReason.message}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="lead-owner">Owner</Label>
            <NativeSelect
              id="lead-owner"
              name="ownerId"
              defaultValue={lead.ownerId ?? ""}
              {...owner.props}
            >
              <option value="">Nobody yet</option>
              {lead.staff.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </NativeSelect>
            {owner.message}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="lead-notes">Notes</Label>
            <Textarea
              id="lead-notes"
              name="notes"
              defaultValue={lead.notes ?? ""}
              maxLength={4000}
              rows={4}
              {...notes.props}
            />
            {notes.message}
          </div>
          <LeadSaid outcome={outcome} intent="update" />
          <Button type="submit" name="intent" value="update" disabled={busy} className="w-fit">
            Save lead
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

/** Every form the lead sent and intro call they booked. */
export function LeadEntriesCard({ entries }: { entries: LeadDetail["entries"] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-xl">Entries ({entries.length})</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2">
          {entries.map((e, i) => (
            <li key={i} className="rounded-lg border p-3 text-sm">
              <span className="font-medium">
                {e.kind === "intro-call" ? "Intro call booked" : "Form sent"}
              </span>{" "}
              {whenLabel(e.at)}: {sourceLabel(e.source)}
              {e.startsAt ? <span className="block">Call at {whenLabel(e.startsAt)}</span> : null}
              {e.pageUrl ? <span className="block break-all">{e.pageUrl}</span> : null}
              {e.message ? <span className="block">"{e.message}"</span> : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
