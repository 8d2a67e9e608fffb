import type { StatementEntry } from "./statement.server";

function cell(value: string) {
  // Quote every cell; a leading =, +, - or @ would be read as a formula by spreadsheets.
  const safe = /^[=+\-@]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

const money = (cents: number | null) => (cents === null ? "" : (cents / 100).toFixed(2));

/** The statement as CSV, newest first, amounts in dollars and hours in minutes. */
export function statementCsv(lines: StatementEntry[]) {
  const rows = [
    ["Date", "Ledger", "Kind", "Entry", "Amount (USD)", "Balance (USD)", "Minutes", "Minutes left"],
    ...lines.map((l) => [
      l.at.toISOString(),
      l.ledger,
      l.kind,
      l.description,
      money(l.amountCents),
      money(l.balanceCents),
      l.minutes === null ? "" : String(l.minutes),
      l.minutesBalance === null ? "" : String(l.minutesBalance),
    ]),
  ];
  return `${rows.map((r) => r.map(cell).join(",")).join("\r\n")}\r\n`;
}
