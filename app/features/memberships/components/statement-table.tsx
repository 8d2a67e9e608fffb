import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { Link, useSearchParams } from "react-router";
import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";
import { formatCents, formatMinutes } from "../bank";
import type { StatementLine, StatementPage } from "../types";

const dateFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: BUSINESS_TIME_ZONE,
  month: "short",
  day: "numeric",
  year: "numeric",
});

function signedMinutes(minutes: number) {
  return minutes > 0 ? `+${formatMinutes(minutes)}` : formatMinutes(minutes);
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
 * The statement: every ledger entry, newest first, with the running balance after it (money
 * and hours), a page of entries at a time; the CSV carries them all.
 */
export function StatementTable({ lines, page }: { lines: StatementLine[]; page: StatementPage }) {
  if (!lines.length) return <p className="text-sm text-muted-foreground">No entries yet.</p>;
  return (
    <div className="grid gap-3">
      <Table containerLabel="Statement" containerClassName="max-h-[32rem] overflow-y-auto">
        <TableHeader>
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
        <TableBody>
          {lines.map((line) => (
            <TableRow key={line.key} data-ledger={line.ledger} data-kind={line.kind}>
              <TableCell className="whitespace-nowrap">
                {dateFormat.format(new Date(line.at))}
              </TableCell>
              <TableCell className="min-w-56 whitespace-normal">{line.description}</TableCell>
              <TableCell className="text-right whitespace-nowrap" data-cell="amount">
                {line.amountCents === null ? "" : formatCents(line.amountCents)}
              </TableCell>
              <TableCell className="text-right whitespace-nowrap">
                {line.balanceCents === null ? "" : formatCents(line.balanceCents)}
              </TableCell>
              <TableCell className="text-right whitespace-nowrap" data-cell="minutes">
                {line.minutes === null ? "" : signedMinutes(line.minutes)}
              </TableCell>
              <TableCell className="text-right whitespace-nowrap">
                {line.minutesBalance === null ? "" : formatMinutes(line.minutesBalance)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <StatementPager page={page} />
    </div>
  );
}
