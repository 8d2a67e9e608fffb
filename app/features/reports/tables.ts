import type { OwnerReport } from "./reports.server";
import { hoursText } from "~/lib/hours";
import { formatCents } from "~/lib/money";
import { monthLabel } from "./period";
import { plainDate } from "~/lib/business-calendar";

/*
 * The report's tables, as the page shows them beside each chart and as 'Download CSV' gives
 * them: one source for both, so the file says exactly what the page says.
 */

export type ReportTable = {
  id: string;
  title: string;
  columns: string[];
  rows: string[][];
};

/** A share in basis points as a percentage with one decimal: 449 -> "4.5%". */
export function percent(basisPoints: number | null) {
  return basisPoints === null ? "n/a" : `${(basisPoints / 100).toFixed(1)}%`;
}

/** part / whole as basis points (rounded), null when whole is 0. */
export function share(part: number, whole: number) {
  return whole > 0 ? Math.round((part * 10_000) / whole) : null;
}

const count = (n: number) => n.toLocaleString("en-US");
const BILLING = { monthly: "Monthly", annual: "Annual" } as const;

/** The report's tables, section by section, in the page's order. */
export function reportTables(report: OwnerReport): ReportTable[] {
  return [
    ...memberTables(report),
    ...hoursTables(report),
    ...handymenTables(report),
    salesTable(report),
    partsTable(report),
  ];
}

const asOf = (report: OwnerReport) => plainDate(report.asOf, { month: "short" });

function memberTables(report: OwnerReport): ReportTable[] {
  const { members } = report;
  return [
    {
      id: "active-members",
      title: `Active members by plan and billing on ${asOf(report)}`,
      columns: ["Plan", "Billing", "Members", "Monthly recurring revenue"],
      rows: [
        ...members.active.map((r) => [
          r.planName,
          BILLING[r.billing],
          count(r.count),
          formatCents(r.mrrCents),
        ]),
        ["All plans", "", count(members.activeTotal), formatCents(members.mrrCents)],
      ],
    },
    {
      id: "members-by-month",
      title: "Members per month",
      columns: [
        "Month",
        "Active at start",
        "New",
        "Canceled",
        "Churn",
        "Monthly recurring revenue",
      ],
      rows: members.months.map((m) => [
        monthLabel(m.month),
        count(m.activeAtStart),
        count(m.newMembers),
        count(m.canceled),
        percent(m.churnBasisPoints),
        formatCents(m.mrrCents),
      ]),
    },
    revenueTable(members),
  ];
}

function revenueTable(members: OwnerReport["members"]): ReportTable {
  return {
    id: "revenue-by-month",
    title: "Revenue, payments and refunds per month",
    columns: [
      "Month",
      "Membership charges",
      "Extra visits",
      "Parts",
      "Shopping fees",
      "Second handyman fees",
      "Corrections",
      "Credits at cancel",
      "Revenue after credits",
      "Payments received",
      "Refunds",
    ],
    rows: [...members.revenue, { ...members.revenueTotal, month: null }].map((r) => [
      r.month === null ? "Period" : monthLabel(r.month),
      formatCents(r.membershipCents),
      formatCents(r.extraVisitCents),
      formatCents(r.partsCents),
      formatCents(r.shoppingFeeCents),
      formatCents(r.secondHandymanCents),
      formatCents(r.correctionCents),
      formatCents(r.creditCents),
      formatCents(r.netCents),
      formatCents(r.paymentCents),
      formatCents(r.refundCents),
    ]),
  };
}

function hoursTables(report: OwnerReport): ReportTable[] {
  const { hours } = report;
  return [
    {
      id: "hours-owed",
      title: `Hours paid and not yet used on ${asOf(report)}`,
      columns: ["Plan", "Hours owed", "Value at the plan's hourly rate"],
      rows: [
        ...hours.owed.map((r) => [r.planName, hoursText(r.minutes), formatCents(r.valueCents)]),
        ["All plans", hoursText(hours.owedMinutes), formatCents(hours.owedCents)],
      ],
    },
    {
      id: "hours-by-month",
      title: "Hours sold, reserved and used per month",
      columns: ["Month", "Sold", "Reserved", "Used", "Refunded"],
      rows: hours.months.map((m) => [
        monthLabel(m.month),
        hoursText(m.soldMinutes),
        hoursText(m.reservedMinutes),
        hoursText(m.usedMinutes),
        hoursText(m.refundedMinutes),
      ]),
    },
  ];
}

function handymenTables({ handymen, twoHandymen }: OwnerReport): ReportTable[] {
  return [
    {
      id: "utilization-by-week",
      title: "Booked against available hours per week",
      columns: ["Week of", "Available", "Booked", "Utilization"],
      rows: handymen.weeks.map((w) => [
        plainDate(w.week, { month: "short" }),
        hoursText(w.availableMinutes),
        hoursText(w.bookedMinutes),
        percent(share(w.bookedMinutes, w.availableMinutes)),
      ]),
    },
    {
      id: "handymen",
      title: "Each handyman over the period",
      columns: [
        "Handyman",
        "Available",
        "Booked",
        "Utilization",
        "Visits completed",
        "Visits per working day",
        "Time worked",
        "Time booked",
      ],
      rows: handymen.people.map((p) => [
        p.name,
        hoursText(p.availableMinutes),
        hoursText(p.bookedMinutes),
        percent(share(p.bookedMinutes, p.availableMinutes)),
        count(p.completedVisits),
        p.workingDays ? (p.completedVisits / p.workingDays).toFixed(1) : "n/a",
        hoursText(p.workedMinutes),
        hoursText(p.workedBookedMinutes),
      ]),
    },
    {
      id: "two-handymen",
      title: "Two handymen on one visit",
      columns: ["Figure", "Value"],
      rows: [
        ["Two-handymen visits", count(twoHandymen.visits)],
        [
          "Second handyman fees charged",
          `${count(twoHandymen.feesCharged)} for ${formatCents(twoHandymen.feesChargedCents)}`,
        ],
        ["Reversed, less charged again", formatCents(twoHandymen.correctionCents)],
        ["Second handyman fees", formatCents(twoHandymen.feeCents)],
      ],
    },
  ];
}

function salesTable({ sales }: OwnerReport): ReportTable {
  return {
    id: "sales-by-month",
    title: "From lead to member per month",
    columns: ["Month", "Leads", "Intro calls", "Walk-thrus", "Offers", "New members"],
    rows: sales.months.map((m) => [
      monthLabel(m.month),
      count(m.leads),
      count(m.introCalls),
      count(m.walkThrus),
      count(m.offers),
      count(m.newMembers),
    ]),
  };
}

function partsTable(report: OwnerReport): ReportTable {
  const { parts } = report;
  return {
    id: "parts",
    title: "Parts",
    columns: ["Figure", "Value"],
    rows: [
      [`Approvals pending on ${asOf(report)}`, count(parts.pendingCount)],
      ["Cost of the parts pending", formatCents(parts.pendingCents)],
      ["Decisions in the period", count(parts.decided)],
      [
        "Average days to a decision",
        parts.averageDecisionHundredths === null
          ? "n/a"
          : (parts.averageDecisionHundredths / 100).toFixed(1),
      ],
      ["Parts charged", `${count(parts.partsCount)} for ${formatCents(parts.partsCents)}`],
      [
        "Shopping fees charged",
        `${count(parts.shoppingFeeCount)} for ${formatCents(parts.shoppingFeeCents)}`,
      ],
    ],
  };
}

/** RFC 4180: fields quoted when they hold a comma, a quote or a line break; CRLF lines. */
export function toCsv(table: ReportTable) {
  const field = (value: string) => {
    // A leading =, +, - or @ would be a formula in a spreadsheet: kept as text.
    const safe = /^[=+\-@]/.test(value) && !/^-\$?[\d,.]+$/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return (
    [table.columns, ...table.rows].map((row) => row.map(field).join(",")).join("\r\n") + "\r\n"
  );
}
