import { Form, href, Link, useLocation, useSearchParams } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import type { StaffFormKeys, StaffMembershipView } from "../types";
import { CancelMembership } from "./cancel-membership";
import { MembershipSummary } from "./membership-summary";
import { StatementTable } from "./statement-table";
import { MembershipTermsFields } from "./membership-terms-fields";
import { formatPhone } from "~/lib/phone";
import { MarkedInput, marked } from "~/components/ui/marked-field";
import { type Outcome, OutcomeLine, useBusy } from "./staff-membership-forms";
import { PartsCard, type PartKeys } from "./staff-membership-parts";
import { VisitsCard } from "./staff-membership-visits";

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
