import type { VisitStatus } from "~/db/visit-status";
import type { Billing, IsoDate } from "./bank";

/* What the membership pages receive from their loaders (plain data, safe in the browser). */

export type BankSummary = {
  membershipId: string;
  customerId: string;
  plan: "essential" | "complete" | "total";
  planName: string;
  billing: Billing;
  status: "active" | "canceled";
  startDate: IsoDate;
  canceledOn: IsoDate | null;
  renewsOn: IsoDate;
  minutesLeft: number;
  minutesPerYear: number;
  /** Minutes charged in the current membership year. */
  paidMinutes: number;
  /** '7 h paid, 2 h left now; 3 h 30 min more on December 18' (ADR 057). */
  meterLabel: string;
  /** A canceled membership's settlement, as shown when it was canceled (ADR 058). */
  settlement: SettlementView | null;
  /** The refunds sent since: 'Sent by check on November 28, 2026: $597.64 (Check 1042).' */
  refundsSent?: string[];
  /** Every cent of the settlement's refund was sent: the promise of how is not said again. */
  refundSentInFull?: boolean;
  visitsPerYear: number;
  visitsLeftThisYear: number;
  monthlyAllowance: number;
  visitsLeftThisMonth: number;
  hourlyRate: string;
  balanceCents: number;
  monthlyPriceCents: number;
};

export type PartRow = {
  id: string;
  appointmentId: string;
  description: string;
  costCents: number;
  needsApproval: boolean;
  status: "pending_approval" | "approved" | "declined" | "bought" | "removed" | "withdrawn";
  scheduledDate: IsoDate;
  createdAt: Date;
  /** A receipt photo at /part-receipts/:id (office staff, the visit's handyman, the member). */
  hasReceipt: boolean;
};

export type MemberVisitRow = {
  appointmentId: string;
  scheduledDate: IsoDate;
  startTime: string;
  endTime: string;
  blockMinutes: number;
  isExtra: boolean;
  extraReason: string | null;
  status: "reserved" | "released" | "completed";
  /** The time worked as recorded at completion, plus every 'Correct time worked' since. */
  minutesWorked: number | null;
  /** The visit's one state (ADR 046), as every screen shows it. */
  appointmentStatus: VisitStatus;
  tasks: { id: string; description: string; outcome: "done" | "not_done" | null }[];
};

export type StatementLine = {
  key: string;
  at: string;
  /** The day the entry belongs to (its period or event), not the day it was posted. */
  on: IsoDate;
  ledger: "money" | "hours";
  kind: string;
  description: string;
  amountCents: number | null;
  balanceCents: number | null;
  minutes: number | null;
  minutesBalance: number | null;
};

/** A cancellation's settlement (ADR 058): the lines, the result, how and when. */
export type SettlementView = {
  lines: { label: string; cents: number }[];
  resultCents: number;
  resultLabel: string;
  howLabel: string | null;
};

export type CancelQuoteView = {
  /** The cancel form's idempotency key (ADR 048), drawn with the page. */
  key: string;
  rule: "guarantee" | "unused_hours";
  refundCents: number;
  refundLabel: string;
  minutesRefunded: number;
  sentence: string;
  futureVisitCount: number;
  settlement: SettlementView;
};

export type PartView = Omit<PartRow, "createdAt"> & { createdAt: string };

/** Which page of the statement is shown (newest first, STATEMENT_PAGE_SIZE lines a page). */
export type StatementPage = { page: number; pages: number; total: number };

export type MembershipView = {
  summary: BankSummary;
  statement: StatementLine[];
  statementPage: StatementPage;
  parts: PartView[];
  cancel: CancelQuoteView | null;
};

export type StaffCustomer = {
  userId: string;
  name: string;
  email: string;
  phone: string | null;
  hasHome: boolean;
  address: string | null;
};

export type StaffMembershipView = {
  customer: StaffCustomer;
  membership:
    | (MembershipView & {
        /** A page of the visits (staff's membership page, `?vpage=`). */
        visits: MemberVisitRow[];
        visitsPage: StatementPage;
        /** The visits a part can be recorded for. */
        partVisits: { appointmentId: string; scheduledDate: string; startTime: string }[];
      })
    | null;
};

/**
 * The idempotency keys of staff's forms on a customer's membership page (ADR 048), one per
 * form, drawn with the page: per visit for 'Correct time worked', per refund for 'Mark refund
 * paid'.
 */
export type StaffFormKeys = {
  start: string;
  payment: string;
  sendOffer: string;
  withdrawOffer: string;
  offerPayment: string;
  correctTime: Record<string, string>;
  refundPaid: Record<string, string>;
};
