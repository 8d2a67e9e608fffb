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
import type {
  MemberVisitRow,
  PartView,
  StaffFormKeys,
  StaffMembershipView,
  StatementPage,
} from "../types";
import { ReceiptPhoto } from "./receipt-photo";
import { CancelMembership } from "./cancel-membership";
import { MembershipSummary } from "./membership-summary";
import { StatementTable } from "./statement-table";
import { MembershipTermsFields } from "./membership-terms-fields";
import { formatPhone } from "~/lib/phone";
import { formatCents, centsAsDecimal } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { minuteLabel, plainDate } from "~/lib/business-calendar";
import { fieldErrorsOf, type FormAnswer } from "~/lib/form-answer";

type Outcome = FormAnswer<{ intent: string; message: string }> | null;

const PART_STATUS: Record<PartView["status"], string> = {
  pending_approval: "Awaiting approval",
  approved: "Approved",
  declined: "Declined",
  bought: "Bought",
  removed: "Removed",
  withdrawn: "Withdrawn (membership canceled)",
};

/** The parts forms' idempotency keys (ADR 048), drawn with the page. */
export type PartKeys = {
  add: string;
  parts: Record<string, { bought: string; remove: string; correct: string }>;
};

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

/**
 * One field of the form `intent` as its answer left it (ADR 093): when the action refused the
 * field, the control's ARIA ties (aria-invalid, aria-describedby) and its message below it.
 */
function marked(outcome: Outcome, intent: string, name: string, id: string) {
  const message =
    outcome && !outcome.ok && outcome.intent === intent
      ? fieldErrorsOf(outcome.result)[name]
      : undefined;
  if (!message) return { props: {}, message: null };
  return {
    props: { "aria-invalid": true, "aria-describedby": `${id}-error` },
    message: (
      <p id={`${id}-error`} className="text-sm text-destructive">
        {message}
      </p>
    ),
  };
}

/** A labelled input, marked as `mark` (from `marked`) says. */
function MarkedInput({
  mark,
  id,
  label,
  ...input
}: {
  mark: ReturnType<typeof marked>;
  id: string;
  label: string;
} & React.ComponentProps<typeof Input>) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...input} {...mark.props} />
      {mark.message}
    </div>
  );
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
  keys,
  offerOpen = false,
  partKeys,
  children,
}: {
  /** The staff header (logo, phone, profile menu), composed by the route. */
  header: React.ReactNode;
  view: StaffMembershipView;
  today: string;
  outcome: Outcome;
  /** The forms' idempotency keys, drawn with the page (ADR 048). */
  keys: StaffFormKeys;
  /** An offer is open: its first payment starts the membership, not the direct start. */
  offerOpen?: boolean;
  partKeys: PartKeys;
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
            {customer.phone ? ` · ${formatPhone(customer.phone)}` : ""}
            {customer.address ? ` · ${customer.address}` : ""}
          </p>
        </div>
        {active && <OutcomeLine outcome={outcome} intent="start" />}
        {/* An offer's first payment started it: its form has gone with the open offer. */}
        {active && outcome?.ok && <OutcomeLine outcome={outcome} intent="offer-payment" />}
        {/* The cancel's answer, once the cancel form has gone with the active membership. */}
        {!active && <OutcomeLine outcome={outcome} intent="cancel" />}
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
        {!active && !offerOpen && (
          <StartForm
            hasHome={customer.hasHome}
            today={today}
            outcome={outcome}
            actionKey={keys.start}
          />
        )}
        {/* After a cancel the office still records what the member pays of what they owe. */}
        {membership && <PaymentForm outcome={outcome} actionKey={keys.payment} />}
        {membership && active && (
          <>
            <VisitsCard
              visits={membership.visits}
              page={membership.visitsPage}
              today={today}
              outcome={outcome}
              correctKeys={keys.correctTime}
            />
            <PartsCard
              parts={membership.parts}
              visits={membership.partVisits}
              outcome={outcome}
              keys={partKeys}
            />
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

/**
 * Staff's direct 'Start Membership' takes the first payment with it (issue 39, item 8): the
 * membership's first hours are posted with that payment, as when an offer's first payment is
 * recorded, never before anything is paid.
 */
function StartForm({
  hasHome,
  today,
  outcome,
  actionKey,
}: {
  hasHome: boolean;
  today: string;
  outcome: Outcome;
  actionKey: string;
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
            <input type="hidden" name="key" value={actionKey} />
            <MembershipTermsFields idPrefix="membership" today={today} bounded />
            <PaymentFields outcome={outcome} form="start" />
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

const METHOD_LABELS = {
  card: "Card",
  check: "Check",
  cash: "Cash",
  bank_transfer: "Bank transfer",
} as const;

/** Each payment form's words: the first payment with a start, or a payment recorded. */
const PAYMENT_FORMS = {
  start: {
    idPrefix: "start-payment",
    labels: { amount: "First payment (USD)", method: "Paid by" },
    methods: ["check", "cash", "bank_transfer", "card"],
  },
  payment: {
    idPrefix: "payment",
    labels: { amount: "Amount (USD)", method: "Method" },
    methods: ["card", "check", "cash", "bank_transfer"],
  },
} as const;

/** A payment's amount, method and reference, each marked when its form refused it. */
function PaymentFields({
  outcome,
  form: intent,
}: {
  outcome: Outcome;
  form: keyof typeof PAYMENT_FORMS;
}) {
  const { idPrefix, labels, methods } = PAYMENT_FORMS[intent];
  const amount = marked(outcome, intent, "amount", `${idPrefix}-amount`);
  const method = marked(outcome, intent, "method", `${idPrefix}-method`);
  const reference = marked(outcome, intent, "reference", `${idPrefix}-reference`);
  return (
    <>
      <MarkedInput
        mark={amount}
        id={`${idPrefix}-amount`}
        label={labels.amount}
        name="amount"
        inputMode="decimal"
        required
        maxLength={20}
      />
      <div className="grid gap-1.5">
        <Label htmlFor={`${idPrefix}-method`}>{labels.method}</Label>
        <NativeSelect
          id={`${idPrefix}-method`}
          name="method"
          defaultValue={methods[0]}
          required
          {...method.props}
        >
          {methods.map((m) => (
            <option key={m} value={m}>
              {METHOD_LABELS[m]}
            </option>
          ))}
        </NativeSelect>
        {method.message}
      </div>
      <MarkedInput
        mark={reference}
        id={`${idPrefix}-reference`}
        label="Reference (optional)"
        name="reference"
        maxLength={100}
      />
    </>
  );
}

function PaymentForm({ outcome, actionKey }: { outcome: Outcome; actionKey: string }) {
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
          <input type="hidden" name="key" value={actionKey} />
          <PaymentFields outcome={outcome} form="payment" />
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

/**
 * 'Previous page' and 'Next page' of the visits: plain links (no JavaScript needed) that keep
 * the statement's page.
 */
function VisitsPager({ page }: { page: StatementPage }) {
  const [params] = useSearchParams();
  if (page.pages <= 1) return null;
  const to = (n: number) => {
    const next = new URLSearchParams(params);
    if (n === 1) next.delete("vpage");
    else next.set("vpage", String(n));
    const search = next.toString();
    return search ? `?${search}` : ".";
  };
  return (
    <nav aria-label="Pages of visits" className="flex flex-wrap items-center gap-3 text-sm">
      {page.page > 1 ? (
        <Button asChild variant="outline" size="sm">
          <Link to={to(page.page - 1)} preventScrollReset>
            Previous page
          </Link>
        </Button>
      ) : null}
      <span>
        Page {page.page} of {page.pages}
      </span>
      {page.page < page.pages ? (
        <Button asChild variant="outline" size="sm">
          <Link to={to(page.page + 1)} preventScrollReset>
            Next page
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}

function VisitsCard({
  visits,
  page,
  today,
  outcome,
  correctKeys,
}: {
  visits: MemberVisitRow[];
  page: StatementPage;
  today: string;
  outcome: Outcome;
  correctKeys: Record<string, string>;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Visits ({page.total})</h2>
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
                    {plainDate(visit.scheduledDate)}
                    <br />
                    {minuteLabel(visit.startTime)} - {minuteLabel(visit.endTime)}
                  </TableCell>
                  <TableCell
                    data-label="Block"
                    className={`whitespace-normal ${cards.cell} ${cards.labelled}`}
                  >
                    {hoursText(visit.blockMinutes)}
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
                        <span>{hoursText(visit.minutesWorked)}</span>
                        <TaskOutcomes tasks={visit.tasks} />
                        {visit.isExtra ? null : (
                          <CorrectForm
                            visit={visit}
                            actionKey={correctKeys[visit.appointmentId] ?? ""}
                          />
                        )}
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
        <VisitsPager page={page} />
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
          <Label htmlFor={id}>Time worked on {plainDate(visit.scheduledDate)}</Label>
          <NativeSelect id={id} name="minutesWorked" defaultValue={String(visit.blockMinutes)}>
            {workedChoices(visit.blockMinutes).map((m) => (
              <option key={m} value={m}>
                {hoursText(m)}
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
function CorrectForm({ visit, actionKey }: { visit: MemberVisitRow; actionKey: string }) {
  const busy = useBusy("correct-time");
  const id = `correct-${visit.appointmentId}`;
  return (
    <Form method="post" className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="intent" value="correct-time" />
      <input type="hidden" name="key" value={actionKey} />
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
              {hoursText(m)}
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
  keys,
}: {
  parts: PartView[];
  visits: { appointmentId: string; scheduledDate: string; startTime: string }[];
  outcome: Outcome;
  keys: PartKeys;
}) {
  const busy = useBusy("add-part");
  const visit = marked(outcome, "add-part", "appointmentId", "part-visit");
  const description = marked(outcome, "add-part", "description", "part-description");
  const cost = marked(outcome, "add-part", "cost", "part-cost");
  const open = visits;
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
            <input type="hidden" name="key" value={keys.add} />
            <div className="grid gap-1.5">
              <Label htmlFor="part-visit">Visit</Label>
              <NativeSelect id="part-visit" name="appointmentId" required {...visit.props}>
                {open.map((v) => (
                  <option key={v.appointmentId} value={v.appointmentId}>
                    {plainDate(v.scheduledDate)}, {minuteLabel(v.startTime)}
                  </option>
                ))}
              </NativeSelect>
              {visit.message}
            </div>
            <MarkedInput
              mark={description}
              id="part-description"
              label="Part description"
              name="description"
              required
              maxLength={200}
            />
            <MarkedInput
              mark={cost}
              id="part-cost"
              label="Cost (USD)"
              name="cost"
              inputMode="decimal"
              required
              maxLength={20}
            />
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
        <OutcomeLine outcome={outcome} intent="remove-part" />
        <OutcomeLine outcome={outcome} intent="correct-part" />
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
                    Visit on {plainDate(part.scheduledDate)} · {PART_STATUS[part.status]}
                  </p>
                  {part.hasReceipt && <ReceiptPhoto part={part} />}
                </div>
                <PartActions part={part} keys={keys.parts[part.id]} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** A part still charged or waiting: the office can correct or remove it (ADR 083). */
const CORRECTABLE: readonly PartView["status"][] = ["pending_approval", "approved", "bought"];

/**
 * A part's own actions: 'Mark Bought' for an approved part not yet bought; 'Correct part' (its
 * description and price) and 'Remove part' for a part that is wrong. Each form carries its own
 * idempotency key and works without JavaScript.
 */
function PartActions({
  part,
  keys,
}: {
  part: PartView;
  keys: { bought: string; remove: string; correct: string } | undefined;
}) {
  if (!keys || !CORRECTABLE.includes(part.status)) return null;
  const id = `part-${part.id}`;
  return (
    <div className="grid w-full gap-2 sm:w-auto sm:justify-items-end">
      <div className="flex flex-wrap gap-2">
        {part.status === "approved" && (
          <Form method="post">
            <input type="hidden" name="intent" value="part-bought" />
            <input type="hidden" name="partId" value={part.id} />
            <input type="hidden" name="key" value={keys.bought} />
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
        <Form method="post">
          <input type="hidden" name="intent" value="remove-part" />
          <input type="hidden" name="partId" value={part.id} />
          <input type="hidden" name="key" value={keys.remove} />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            aria-label={`Remove part: ${part.description}`}
          >
            Remove part
          </Button>
        </Form>
      </div>
      {/* Drawn again (closed, with the part as it now is) once a correction is saved. */}
      <details className="w-full" key={`${part.description}:${part.costCents}:${part.status}`}>
        <summary className="cursor-pointer text-sm underline underline-offset-4">
          Correct part
        </summary>
        <Form method="post" className="mt-2 grid gap-2">
          <input type="hidden" name="intent" value="correct-part" />
          <input type="hidden" name="partId" value={part.id} />
          <input type="hidden" name="key" value={keys.correct} />
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-description`}>Corrected description</Label>
            <Input
              id={`${id}-description`}
              name="description"
              defaultValue={part.description}
              required
              maxLength={200}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-cost`}>Corrected price (USD)</Label>
            <Input
              id={`${id}-cost`}
              name="cost"
              inputMode="decimal"
              defaultValue={centsAsDecimal(part.costCents)}
              required
              maxLength={20}
            />
          </div>
          <Button
            type="submit"
            size="sm"
            className="w-fit"
            aria-label={`Correct part: ${part.description}`}
          >
            Correct part
          </Button>
        </Form>
      </details>
    </div>
  );
}
