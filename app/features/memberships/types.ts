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
  /** '12 h 15 min of 42 h left' */
  meterLabel: string;
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
  status: "pending_approval" | "approved" | "declined" | "bought";
  scheduledDate: IsoDate;
  createdAt: Date;
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
  ledger: "money" | "hours";
  kind: string;
  description: string;
  amountCents: number | null;
  balanceCents: number | null;
  minutes: number | null;
  minutesBalance: number | null;
};

export type CancelQuoteView = {
  rule: "guarantee" | "unused_hours";
  refundCents: number;
  refundLabel: string;
  minutesRefunded: number;
  sentence: string;
  futureVisitCount: number;
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
  membership: (MembershipView & { visits: MemberVisitRow[] }) | null;
};
