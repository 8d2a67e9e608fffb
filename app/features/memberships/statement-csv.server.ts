import { plainDate } from "~/lib/business-calendar";
import { hoursBalanceText, hoursText } from "~/lib/hours";
import { statementKindLabel, statementLedgerLabel } from "./statement-kinds";
import type { StatementEntry } from "./statement.server";
import { centsAsDecimal } from "~/lib/money";

function cell(value: string) {
  // Quote every cell; a leading =, +, - or @ would be read as a formula by spreadsheets.
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/**
 * The statement as CSV, in the page's order (newest day first): each entry's day as people read
 * it ("November 27, 2026", the period or event it belongs to), its ledger and kind in words,
 * amounts in dollars, hours in minutes with 'h min' beside them.
 */
export function statementCsv(lines: StatementEntry[]) {
  const rows = [
    [
      "Date",
      "Ledger",
      "Kind",
      "Entry",
      "Amount (USD)",
      "Balance (USD)",
      "Minutes",
      "Hours",
      "Minutes left",
      "Hours left",
    ],
    ...lines.map((l) => [
      plainDate(l.on),
      statementLedgerLabel(l.ledger),
      statementKindLabel(l.ledger, l.kind),
      l.description,
      centsAsDecimal(l.amountCents),
      centsAsDecimal(l.balanceCents),
      l.minutes === null ? "" : String(l.minutes),
      l.minutes === null ? "" : hoursText(l.minutes),
      l.minutesBalance === null ? "" : String(l.minutesBalance),
      l.minutesBalance === null ? "" : hoursBalanceText(l.minutesBalance),
    ]),
  ];
  return `${rows.map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}
