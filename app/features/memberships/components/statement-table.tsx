import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { BUSINESS_TIME_ZONE } from "~/lib/business-calendar";
import { formatCents, formatMinutes } from "../bank";
import type { StatementLine } from "../types";

const dateFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: BUSINESS_TIME_ZONE,
  month: "short",
  day: "numeric",
  year: "numeric",
});

function signedMinutes(minutes: number) {
  return minutes > 0 ? `+${formatMinutes(minutes)}` : formatMinutes(minutes);
}

/**
 * The statement: every ledger entry, newest first, with the running balance after it (money
 * and hours). Plain rows, no client work: about 1,000 entries stay fast.
 */
export function StatementTable({ lines }: { lines: StatementLine[] }) {
  if (!lines.length) return <p className="text-sm text-muted-foreground">No entries yet.</p>;
  return (
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
  );
}
