import { plainDate } from "~/lib/business-calendar";
import { hoursBalanceText } from "~/lib/hours";
import { formatMinutes } from "./bank";
import { statementKindLabel, statementLedgerLabel } from "./statement-kinds";
import type { StatementEntry } from "./statement.server";

function cell(value: string) {
  // Quote every cell; a leading =, +, - or @ would be read as a formula by spreadsheets.
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const money = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

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
      money(l.amountCents),
      money(l.balanceCents),
      l.minutes === null ? "" : String(l.minutes),
      l.minutes === null ? "" : formatMinutes(l.minutes),
      l.minutesBalance === null ? "" : String(l.minutesBalance),
      l.minutesBalance === null ? "" : hoursBalanceText(l.minutesBalance),
    ]),
  ];
  return `${rows.map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}
