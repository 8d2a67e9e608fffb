import { Form, href, Link, useLocation, useNavigation, useSearchParams } from "react-router";
import { Badge } from "~/components/ui/badge";
import { CARDS_BELOW_MD as cards } from "~/components/ui/table-cards";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { isOpenVisit, VISIT_STATUS_LABELS } from "~/features/visits";
import { formatCents, formatMinutes } from "../bank";
import { longDate } from "../dates";
import type { MemberVisitRow, PartView, StaffMembershipView } from "../types";
import { ReceiptPhoto } from "./receipt-photo";
import { CancelMembership } from "./cancel-membership";
import { MembershipSummary } from "./membership-summary";
import { StatementTable } from "./statement-table";
import { MembershipTermsFields } from "./membership-terms-fields";

type Outcome = { ok: boolean; intent: string; message: string } | null;

const PART_STATUS: Record<PartView["status"], string> = {
  pending_approval: "Awaiting approval",
  approved: "Approved",
  declined: "Declined",
  bought: "Bought",
};

const twelveHour = (time: string) => {
  const [h, m] = time.split(":").map(Number);
  return `${((h + 11) % 12) + 1}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
};

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

/** One form's outcome, next to the form it answers. */
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

/** Staff's page for one customer's membership (linked from the Customers tab and requests). */
export function StaffMembershipPage({
  header,
  view,
  today,
  outcome,
  children,
}: {
  /** The staff header (logo, phone, profile menu), composed by the route. */
  header: React.ReactNode;
  view: StaffMembershipView;
  today: string;
  outcome: Outcome;
  /** More about the customer, below the membership (the messages sent to them). */
  children?: React.ReactNode;
}) {
  const { customer, membership } = view;
  const active = membership?.summary.status === "active";
  return (
    <>
      {header}
      <main className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-6 sm:py-8">
        <div className="grid gap-2">
          <Link
            to={`${href("/employee")}?tab=customers`}
            className="w-fit text-sm text-primary underline"
          >
            Back to the Employee Dashboard
          </Link>
          <h1 className="text-2xl font-bold break-words sm:text-3xl">
            Membership: {customer.name}
          </h1>
          <p className="text-muted-foreground">
            {customer.email}
            {customer.phone ? ` · ${customer.phone}` : ""}
            {customer.address ? ` · ${customer.address}` : ""}
          </p>
        </div>
        {active && <OutcomeLine outcome={outcome} intent="start" />}
        {membership && (
          <Card>
            <CardContent className="grid gap-4">
              <MembershipSummary summary={membership.summary} headingLevel={2} />
              {active && membership.cancel && (
                <StaffCancel quote={membership.cancel} outcome={outcome} />
              )}
            </CardContent>
          </Card>
        )}
        {!active && <StartForm hasHome={customer.hasHome} today={today} outcome={outcome} />}
        {/* After a cancel the office still records what the member pays of what they owe. */}
        {membership && <PaymentForm outcome={outcome} />}
        {membership && active && (
          <>
            <VisitsCard visits={membership.visits} today={today} outcome={outcome} />
            <PartsCard parts={membership.parts} visits={membership.visits} outcome={outcome} />
          </>
        )}
        {membership && (
          <Card>
            <CardHeader>
              <CardTitle asChild>
                <h2>Statement</h2>
              </CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3">
              <Button asChild variant="secondary" className="w-fit">
                <a
                  href={href("/dashboard/memberships/:membershipId/statement", {
                    membershipId: membership.summary.membershipId,
                  })}
                  download
                >
                  Download statement (CSV)
                </a>
              </Button>
              <StatementTable lines={membership.statement} page={membership.statementPage} />
            </CardContent>
          </Card>
        )}
        {children}
      </main>
    </>
  );
}

function StaffCancel({
  quote,
  outcome,
}: {
  quote: NonNullable<NonNullable<StaffMembershipView["membership"]>["cancel"]>;
  outcome: Outcome;
}) {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const statementHref = (open: boolean) => {
    const next = new URLSearchParams(params);
    if (open) next.set("cancel", "membership");
    else next.delete("cancel");
    const search = next.toString();
    return search ? `?${search}` : "?";
  };
  return (
    <div className="grid gap-2">
      <div>
        <CancelMembership
          quote={quote}
          open={params.get("cancel") === "membership"}
          openHref={statementHref(true)}
          closeHref={statementHref(false)}
          action={pathname}
          onBehalf
        />
      </div>
      <OutcomeLine outcome={outcome} intent="cancel" />
    </div>
  );
}

function StartForm({
  hasHome,
  today,
  outcome,
}: {
  hasHome: boolean;
  today: string;
  outcome: Outcome;
}) {
  const busy = useBusy("start");
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Start a membership</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {!hasHome ? (
          <p className="text-sm text-muted-foreground">
            The customer needs a home address before a membership can start.
          </p>
        ) : (
          <Form method="post" className="grid gap-4 sm:grid-cols-3 sm:items-end">
            <input type="hidden" name="intent" value="start" />
            <MembershipTermsFields idPrefix="membership" today={today} bounded />
            <div className="grid gap-2 sm:col-span-3">
              <Button type="submit" className="w-fit" disabled={busy}>
                {busy ? "Starting..." : "Start Membership"}
              </Button>
              <OutcomeLine outcome={outcome} intent="start" />
            </div>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}

function PaymentForm({ outcome }: { outcome: Outcome }) {
  const busy = useBusy("payment");
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Record a payment</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <Form
          method="post"
          className="grid gap-4 sm:grid-cols-3 sm:items-end"
          key={outcome?.intent === "payment" && outcome.ok ? "paid" : "payment"}
        >
          <input type="hidden" name="intent" value="payment" />
          <div className="grid gap-1.5">
            <Label htmlFor="payment-amount">Amount (USD)</Label>
            <Input id="payment-amount" name="amount" inputMode="decimal" required maxLength={20} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="payment-method">Method</Label>
            <NativeSelect id="payment-method" name="method" defaultValue="card" required>
              <option value="card">Card</option>
              <option value="check">Check</option>
              <option value="cash">Cash</option>
              <option value="bank_transfer">Bank transfer</option>
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="payment-reference">Reference (optional)</Label>
            <Input id="payment-reference" name="reference" maxLength={100} />
          </div>
          <div className="grid gap-2 sm:col-span-3">
            <Button type="submit" className="w-fit" disabled={busy}>
              {busy ? "Recording..." : "Record Payment"}
            </Button>
            <OutcomeLine outcome={outcome} intent="payment" />
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

function VisitsCard({
  visits,
  today,
  outcome,
}: {
  visits: MemberVisitRow[];
  today: string;
  outcome: Outcome;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Visits ({visits.length})</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3">
        <OutcomeLine outcome={outcome} intent="complete" />
        <OutcomeLine outcome={outcome} intent="correct-time" />
        {visits.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No visits yet. Create an appointment for this member to book one.
          </p>
        ) : (
          <Table containerLabel="Visits" className={cards.table}>
            <TableHeader className={cards.header}>
              <TableRow>
                <TableHead scope="col">Visit</TableHead>
                <TableHead scope="col">Block</TableHead>
                <TableHead scope="col">Status</TableHead>
                <TableHead scope="col">Time worked</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody className={cards.body}>
              {visits.map((visit) => (
                <TableRow key={visit.appointmentId} className={`align-top ${cards.row}`}>
                  <TableCell className={`font-medium whitespace-normal ${cards.cell}`}>
                    {longDate(visit.scheduledDate)}
                    <br />
                    {twelveHour(visit.startTime)} - {twelveHour(visit.endTime)}
                  </TableCell>
                  <TableCell
                    data-label="Block"
                    className={`whitespace-normal ${cards.cell} ${cards.labelled}`}
                  >
                    {formatMinutes(visit.blockMinutes)}
                    {visit.isExtra && (
                      <>
                        {" "}
                        <Badge variant="secondary">Extra visit: $150</Badge>
                      </>
                    )}
                  </TableCell>
                  <TableCell
                    data-label="Status"
                    data-status={visit.appointmentStatus}
                    className={`${cards.cell} ${cards.labelled}`}
                  >
                    {VISIT_STATUS_LABELS[visit.appointmentStatus]}
                  </TableCell>
                  <TableCell
                    data-label="Time worked"
                    className={`${cards.cell} ${cards.labelled} whitespace-normal`}
                  >
                    {visit.appointmentStatus === "completed" && visit.minutesWorked !== null ? (
                      <div className="grid gap-2">
                        <span>{formatMinutes(visit.minutesWorked)}</span>
                        <TaskOutcomes tasks={visit.tasks} />
                        {visit.isExtra ? null : <CorrectForm visit={visit} />}
                      </div>
                    ) : isOpenVisit(visit.appointmentStatus) && visit.scheduledDate <= today ? (
                      <CompleteForm visit={visit} />
                    ) : (
                      <span className="text-muted-foreground">-</span>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function TaskOutcomes({ tasks }: { tasks: MemberVisitRow["tasks"] }) {
  if (!tasks.some((t) => t.outcome)) return null;
  return (
    <ul className="text-sm">
      {tasks.map((task) => (
        <li key={task.id}>
          {task.outcome === "done" ? "Done" : "Not done"}: {task.description}
        </li>
      ))}
    </ul>
  );
}

function workedChoices(block: number) {
  return Array.from({ length: block / 15 }, (_, i) => (i + 1) * 15);
}

/** Finishing a visit asks, per task, 'Done' or 'Not done' (ADR 046), and the time worked. */
function CompleteForm({ visit }: { visit: MemberVisitRow }) {
  const busy = useBusy("complete");
  const id = `worked-${visit.appointmentId}`;
  return (
    <Form method="post" className="grid gap-2">
      <input type="hidden" name="intent" value="complete" />
      <input type="hidden" name="appointmentId" value={visit.appointmentId} />
      {visit.tasks.map((task) => (
        <fieldset key={task.id} className="grid gap-1">
          <legend className="text-sm font-medium">{task.description}</legend>
          <div className="flex gap-4">
            <label className="flex items-center gap-1.5 text-sm">
              <input type="radio" name={`task-${task.id}`} value="done" required />
              Done
            </label>
            <label className="flex items-center gap-1.5 text-sm">
              <input type="radio" name={`task-${task.id}`} value="not_done" required />
              Not done
            </label>
          </div>
        </fieldset>
      ))}
      <div className="flex flex-wrap items-end gap-2">
        <div className="grid gap-1.5">
          <Label htmlFor={id}>Time worked on {longDate(visit.scheduledDate)}</Label>
          <NativeSelect id={id} name="minutesWorked" defaultValue={String(visit.blockMinutes)}>
            {workedChoices(visit.blockMinutes).map((m) => (
              <option key={m} value={m}>
                {formatMinutes(m)}
              </option>
            ))}
          </NativeSelect>
        </div>
        <Button type="submit" size="sm" disabled={busy}>
          Complete Visit
        </Button>
      </div>
    </Form>
  );
}

/**
 * 'Correct time worked': a new entry in the hours ledger with its reason, never an edit. One
 * per completed visit (a year holds up to 24), so its controls carry app.css's short classes
 * (`.field`, `.btn`), as 'Today' does, rather than each control's utility lists (ADR 077).
 */
function CorrectForm({ visit }: { visit: MemberVisitRow }) {
  const busy = useBusy("correct-time");
  const id = `correct-${visit.appointmentId}`;
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="correct-time" />
      <input type="hidden" name="appointmentId" value={visit.appointmentId} />
      <div className="grid gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          Corrected time worked
        </label>
        <select
          id={id}
          name="minutesWorked"
          defaultValue={String(visit.minutesWorked)}
          className="field"
        >
          {workedChoices(visit.blockMinutes).map((m) => (
            <option key={m} value={m}>
              {formatMinutes(m)}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${id}-reason`} className="text-sm font-medium">
          Reason
        </label>
        <input id={`${id}-reason`} name="reason" required maxLength={200} className="field" />
      </div>
      <button type="submit" className="btn btn-line h-9" disabled={busy}>
        Correct time worked
      </button>
    </Form>
  );
}

function PartsCard({
  parts,
  visits,
  outcome,
}: {
  parts: PartView[];
  visits: MemberVisitRow[];
  outcome: Outcome;
}) {
  const busy = useBusy("add-part");
  const open = visits.filter((v) => v.status !== "released");
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Parts ({parts.length})</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        {open.length === 0 ? (
          <p className="text-sm text-muted-foreground">Parts are recorded for a visit.</p>
        ) : (
          <Form
            method="post"
            className="grid gap-4 sm:grid-cols-3 sm:items-end"
            key={outcome?.intent === "add-part" && outcome.ok ? `ok-${parts.length}` : "part"}
          >
            <input type="hidden" name="intent" value="add-part" />
            <div className="grid gap-1.5">
              <Label htmlFor="part-visit">Visit</Label>
              <NativeSelect id="part-visit" name="appointmentId" required>
                {open.map((v) => (
                  <option key={v.appointmentId} value={v.appointmentId}>
                    {longDate(v.scheduledDate)}, {twelveHour(v.startTime)}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="part-description">Part description</Label>
              <Input id="part-description" name="description" required maxLength={200} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="part-cost">Cost (USD)</Label>
              <Input id="part-cost" name="cost" inputMode="decimal" required maxLength={20} />
            </div>
            <div className="grid gap-2 sm:col-span-3">
              <p className="text-sm text-muted-foreground">
                A part over $100 waits for the member&apos;s approval. The $10 shopping fee is
                charged once per visit with a bought part.
              </p>
              <Button type="submit" className="w-fit" disabled={busy}>
                {busy ? "Adding..." : "Add Part"}
              </Button>
            </div>
          </Form>
        )}
        <OutcomeLine outcome={outcome} intent="add-part" />
        <OutcomeLine outcome={outcome} intent="part-bought" />
        {parts.length > 0 && (
          <ul className="grid gap-2">
            {parts.map((part) => (
              <li
                key={part.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-lg border p-3"
              >
                <div>
                  <p className="font-medium">
                    {part.description}, {formatCents(part.costCents)}
                  </p>
                  <p className="text-sm text-muted-foreground">
                    Visit on {longDate(part.scheduledDate)} · {PART_STATUS[part.status]}
                  </p>
                  {part.hasReceipt && <ReceiptPhoto part={part} />}
                </div>
                {part.status === "approved" && (
                  <Form method="post">
                    <input type="hidden" name="intent" value="part-bought" />
                    <input type="hidden" name="partId" value={part.id} />
                    <Button
                      type="submit"
                      size="sm"
                      variant="secondary"
                      aria-label={`Mark Bought: ${part.description}`}
                    >
                      Mark Bought
                    </Button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
