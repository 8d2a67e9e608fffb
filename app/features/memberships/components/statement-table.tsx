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
  // Plain elements with one component class each (app.css, "The statement"): the table's
  // utilities written once in the CSS, not on each of a page's 300 cells.
  return (
    <div className="grid gap-3">
      {/* Below md each entry is a card with every figure named (Amount, Balance, Hours, Hours
          left), so a phone shows them all without sideways scrolling; an empty figure (a money
          entry has no hours) is left out of the card. */}
      <div tabIndex={0} role="region" aria-label="Statement" className="statement-scroll">
        <table className="statement">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Entry</th>
              <th scope="col">Amount</th>
              <th scope="col">Balance</th>
              <th scope="col">Hours</th>
              <th scope="col">Hours left</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line) => (
              <tr key={line.key} data-ledger={line.ledger} data-kind={line.kind}>
                <td>{plainDate(line.on)}</td>
                <td>
                  <span data-cell="kind">{statementKindLabel(line.ledger, line.kind)}</span>
                  {line.description}
                </td>
                <td data-cell="amount" data-label="Amount">
                  {line.amountCents === null ? "" : formatCents(line.amountCents)}
                </td>
                <td data-label="Balance">
                  {line.balanceCents === null ? "" : formatCents(line.balanceCents)}
                </td>
                <td data-cell="minutes" data-label="Hours">
                  {line.minutes === null ? "" : signedMinutes(line.minutes)}
                </td>
                <td data-label="Hours left">
                  {line.minutesBalance === null ? "" : hoursBalanceText(line.minutesBalance)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <StatementPager page={page} />
    </div>
  );
}
