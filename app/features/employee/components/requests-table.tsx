import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { CARDS_BELOW_MD as cards } from "~/components/ui/table-cards";
import { shortId } from "~/features/service-requests";
import { customerName } from "~/lib/names";
import type { EmployeeDashboard } from "../dashboard.server";
import { formatCreatedDate } from "../format";
import { PriorityBadge, StatusBadge } from "./request-badges";

type RequestRow = NonNullable<EmployeeDashboard["requests"]>["rows"][number];

/** One page of the All Requests tab's rows; `openHref` is a row's detail dialog. */
export function RequestsTable({
  rows,
  openHref,
}: {
  rows: RequestRow[];
  openHref(id: string): string;
}) {
  const navigate = useNavigate();
  return (
    <Table containerLabel="All requests" className={cards.table}>
      <TableHeader className={cards.header}>
        <TableRow>
          <TableHead scope="col">Request Details</TableHead>
          <TableHead scope="col">Status</TableHead>
          <TableHead scope="col" className="text-right">
            Actions
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className={cards.body}>
        {rows.map((row) => (
          <TableRow
            key={row.id}
            data-request-id={row.id}
            className={`cursor-pointer align-top ${cards.row}`}
            // Mouse users click anywhere on the row; keyboard users use the View link.
            onClick={(event) => {
              if ((event.target as HTMLElement).closest("a,button")) return;
              navigate(openHref(row.id), { preventScrollReset: true });
            }}
          >
            <RequestDetailsCell row={row} />
            <TableCell data-label="Status" className={`${cards.cell} ${cards.labelled}`}>
              <StatusBadge status={row.status} />
            </TableCell>
            <TableCell className={`text-right ${cards.cell}`}>
              <Button asChild variant="outline" size="sm" className="max-md:w-full">
                <Link
                  to={openHref(row.id)}
                  preventScrollReset
                  aria-label={`View request ${shortId(row.id, 6)}: ${row.title}`}
                >
                  View
                </Link>
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function RequestDetailsCell({ row }: { row: RequestRow }) {
  return (
    <TableCell className={`min-w-64 whitespace-normal ${cards.cell}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-xs text-muted-foreground">{`#${shortId(row.id, 6)}`}</span>
        <span className="font-medium">{row.title}</span>
        <PriorityBadge priority={row.priority} />
      </div>
      {row.descriptionPreview && (
        <p className="mt-1 text-sm text-muted-foreground">
          {row.descriptionPreview}
          {row.descriptionTruncated && "..."}
        </p>
      )}
      {/* Each line one string: a table of rows, no separators between text parts. */}
      <p className="mt-1 text-sm">
        {`${customerName(row.customerFirstName, row.customerLastName)} · ${row.address}, ${row.city}`}
      </p>
      <p className="mt-1 text-xs text-muted-foreground">
        {`Created ${formatCreatedDate(row.createdAt)}${
          row.notesPreview ? ` · Notes: ${row.notesPreview}${row.notesTruncated ? "..." : ""}` : ""
        }`}
      </p>
    </TableCell>
  );
}

/** Newer and Older: the request list pages by keyset, so the links carry a row's cursor. */
export function RequestPagesNav({
  newerHref,
  olderHref,
}: {
  newerHref: string | null;
  olderHref: string | null;
}) {
  return (
    <nav aria-label="Request pages" className="mt-4 flex justify-between gap-2">
      {newerHref ? (
        <Button asChild variant="outline" size="sm">
          <Link to={newerHref}>
            <ChevronLeftIcon aria-hidden="true" />
            Newer
          </Link>
        </Button>
      ) : (
        <span />
      )}
      {olderHref && (
        <Button asChild variant="outline" size="sm">
          <Link to={olderHref}>
            Older
            <ChevronRightIcon aria-hidden="true" />
          </Link>
        </Button>
      )}
    </nav>
  );
}
