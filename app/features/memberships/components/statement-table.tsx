import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { CARDS_BELOW_MD as cards } from "~/components/ui/table-cards";
import { Link, useSearchParams } from "react-router";
import { plainDate } from "~/lib/business-calendar";
import { hoursBalanceText, hoursText } from "~/lib/hours";
import { statementKindLabel } from "../statement-kinds";
import type { StatementLine, StatementPage } from "../types";
import { formatCents } from "~/lib/money";

function signedMinutes(minutes: number) {
  return minutes > 0 ? `+${hoursText(minutes)}` : hoursText(minutes);
}

/** Links to newer and older pages of the statement, plain links (no JavaScript needed). */
function StatementPager({ page }: { page: StatementPage }) {
  const [params] = useSearchParams();
  if (page.pages <= 1) return null;
  const to = (n: number) => {
    const next = new URLSearchParams(params);
    if (n === 1) next.delete("spage");
    else next.set("spage", String(n));
    return `?${next.toString()}`;
  };
  return (
    <nav aria-label="Statement pages" className="flex flex-wrap items-center gap-3 text-sm">
      {page.page > 1 ? (
        <Link to={to(page.page - 1)} preventScrollReset className="underline underline-offset-4">
          Newer entries
        </Link>
      ) : null}
      <span>
        Page {page.page} of {page.pages} ({page.total} entries)
      </span>
      {page.page < page.pages ? (
        <Link to={to(page.page + 1)} preventScrollReset className="underline underline-offset-4">
          Older entries
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * The statement: every ledger entry in date order (newest day first, ADR 089), with the running
 * balance after it (money
 * and hours), a page of entries at a time; the CSV carries them all.
 */
export function StatementTable({ lines, page }: { lines: StatementLine[]; page: StatementPage }) {
  if (!lines.length) return <p className="text-sm text-muted-foreground">No entries yet.</p>;
  return (
    <div className="grid gap-3">
      {/* Below md each entry is a card with every figure named (Amount, Balance, Hours, Hours
          left), so a phone shows them all without sideways scrolling. */}
      <Table
        containerLabel="Statement"
        containerClassName="max-h-[32rem] overflow-y-auto"
        className={cards.table}
      >
        <TableHeader className={cards.header}>
          <TableRow>
            <TableHead scope="col">Date</TableHead>
            <TableHead scope="col">Entry</TableHead>
            <TableHead scope="col" className="text-right">
              Amount
            </TableHead>
            <TableHead scope="col" className="text-right">
              Balance
            </TableHead>
            <TableHead scope="col" className="text-right">
              Hours
            </TableHead>
            <TableHead scope="col" className="text-right">
              Hours left
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className={cards.body}>
          {lines.map((line) => (
            <TableRow
              key={line.key}
              data-ledger={line.ledger}
              data-kind={line.kind}
              className={`${cards.row} max-md:grid-cols-2 max-md:gap-x-4`}
            >
              <TableCell className={`whitespace-nowrap max-md:col-span-2 ${cards.cell}`}>
                {plainDate(line.on)}
              </TableCell>
              <TableCell
                className={`whitespace-normal max-md:col-span-2 max-md:font-medium md:min-w-56 ${cards.cell}`}
              >
                <span className="block text-xs text-muted-foreground" data-cell="kind">
                  {statementKindLabel(line.ledger, line.kind)}
                </span>
                {line.description}
              </TableCell>
              {/* An empty figure is left out of the card (a money entry has no hours). */}
              <TableCell
                className={`md:text-right md:whitespace-nowrap ${cards.cell} ${cards.labelled} ${line.amountCents === null ? "max-md:hidden" : ""}`}
                data-cell="amount"
                data-label="Amount"
              >
                {line.amountCents === null ? "" : formatCents(line.amountCents)}
              </TableCell>
              <TableCell
                className={`md:text-right md:whitespace-nowrap ${cards.cell} ${cards.labelled} ${line.balanceCents === null ? "max-md:hidden" : ""}`}
                data-label="Balance"
              >
                {line.balanceCents === null ? "" : formatCents(line.balanceCents)}
              </TableCell>
              <TableCell
                className={`md:text-right md:whitespace-nowrap ${cards.cell} ${cards.labelled} ${line.minutes === null ? "max-md:hidden" : ""}`}
                data-cell="minutes"
                data-label="Hours"
              >
                {line.minutes === null ? "" : signedMinutes(line.minutes)}
              </TableCell>
              <TableCell
                className={`md:text-right md:whitespace-nowrap ${cards.cell} ${cards.labelled} ${line.minutesBalance === null ? "max-md:hidden" : ""}`}
                data-label="Hours left"
              >
                {line.minutesBalance === null ? "" : hoursBalanceText(line.minutesBalance)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <StatementPager page={page} />
    </div>
  );
}
