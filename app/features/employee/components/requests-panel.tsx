import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, href, Link, useLocation, useNavigate, useNavigation, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { SearchActions } from "./search-actions";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { REQUEST_STATUSES } from "~/db/request-status";
import { statusLabel } from "~/features/service-requests";
import { MATCH_COUNT_CAP, shortId } from "~/features/service-requests";
import { SEARCH_MAX_LENGTH, normaliseSearch } from "~/lib/query";
import type { EmployeeDashboard } from "../dashboard.server";
import { formatCreatedDate } from "../format";
import { CARDS_BELOW_MD as cards } from "~/components/ui/table-cards";
import { listHeading } from "./card-rows";
import { PriorityBadge, StatusBadge } from "./request-badges";
import { customerName } from "~/lib/names";

/** The All Requests tab: one page of rows (`RequestListItem`), its links and its filter. */
export type RequestsPanelData = NonNullable<EmployeeDashboard["requests"]>;

/** The current URL with some parameters changed (null removes one). */
export function withParams(search: string, changes: Record<string, string | null>) {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === "") params.delete(key);
    else params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "?";
}

export function RequestsPanel({ data, total }: { data: RequestsPanelData; total: number }) {
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const filtered = Boolean(data.status || data.search);
  const loading =
    navigation.state === "loading" && navigation.location?.pathname === href("/employee");

  const openHref = (id: string) => withParams(location.search, { request: id, tab: "requests" });

  // With JavaScript the filter applies as soon as it changes and the search a moment after
  // typing stops; without it, the Search button submits the same GET form.
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [searchText, setSearchText] = useState(data.search);
  const [statusValue, setStatusValue] = useState(data.status ?? "all");
  const shownSearch = useRef(data.search);
  useEffect(() => {
    shownSearch.current = data.search;
    // A new page (Clear, a link, back): show its search, unless the employee is typing.
    if (document.activeElement !== searchRef.current) setSearchText(data.search);
  }, [data.search]);
  useEffect(() => setStatusValue(data.status ?? "all"), [data.status]);
  useEffect(() => () => clearTimeout(typingTimer.current), []);
  const applyFilters = () => {
    clearTimeout(typingTimer.current);
    if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
  };

  return (
    <Card>
      <CardHeader className="gap-4">
        <CardTitle asChild>
          <h2 className="text-xl">
            {listHeading("All Requests", {
              shown: data.matching,
              total,
              filtered,
              noun: ["request", "requests"],
              cap: MATCH_COUNT_CAP,
            })}
          </h2>
        </CardTitle>
        {/* A GET form: the filter and search live in the URL, so they work without JavaScript,
            survive a reload and can be shared. */}
        <Form
          ref={formRef}
          method="get"
          role="search"
          aria-label="Filter requests"
          className="flex flex-col gap-3 sm:flex-row sm:items-end"
          preventScrollReset
          onSubmit={() => clearTimeout(typingTimer.current)}
        >
          <input type="hidden" name="tab" value="requests" />
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="requests-search">Search requests</Label>
            <Input
              ref={searchRef}
              id="requests-search"
              name="q"
              type="search"
              value={searchText}
              onChange={(event) => {
                const text = event.target.value;
                setSearchText(text);
                clearTimeout(typingTimer.current);
                typingTimer.current = setTimeout(() => {
                  if ((normaliseSearch(text) ?? "") !== shownSearch.current) applyFilters();
                }, 400);
              }}
              maxLength={SEARCH_MAX_LENGTH}
              placeholder="e.g. faucet or Maria Alvarez"
              aria-describedby="requests-search-hint"
            />
            {/* The placeholder shows the same by example; a visible line here would push the
                field out of line with the filter and the button. */}
            <p id="requests-search-hint" className="sr-only">
              By title or customer name
            </p>
          </div>
          <div className="grid gap-1.5 sm:w-44">
            <Label htmlFor="requests-status">Show requests</Label>
            <NativeSelect
              id="requests-status"
              name="status"
              value={statusValue}
              // Not remounted on a new page: a keyboard user stepping through the options
              // with the arrow keys keeps the focus while each choice applies.
              onChange={(event) => {
                setStatusValue(event.target.value);
                applyFilters();
              }}
            >
              <NativeSelectOption value="all">All</NativeSelectOption>
              {REQUEST_STATUSES.map((status) => (
                <NativeSelectOption key={status} value={status}>
                  {statusLabel(status)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          <SearchActions clearTo="?tab=requests" canClear={Boolean(filtered)} />
        </Form>
      </CardHeader>
      <CardContent aria-busy={loading}>
        {data.rows.length === 0 ? (
          <p className="py-10 text-center text-muted-foreground">
            {filtered ? "No requests match this search" : "No requests yet"}
          </p>
        ) : (
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
              {data.rows.map((row) => (
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
                  <TableCell className={`min-w-64 whitespace-normal ${cards.cell}`}>
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-mono text-xs text-muted-foreground">
                        {`#${shortId(row.id, 6)}`}
                      </span>
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
                        row.notesPreview
                          ? ` · Notes: ${row.notesPreview}${row.notesTruncated ? "..." : ""}`
                          : ""
                      }`}
                    </p>
                  </TableCell>
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
        )}
        {(data.newer || data.older) && (
          <nav aria-label="Request pages" className="mt-4 flex justify-between gap-2">
            {data.newer ? (
              <Button asChild variant="outline" size="sm">
                <Link
                  to={withParams(location.search, {
                    before: data.newer,
                    after: null,
                    request: null,
                  })}
                >
                  <ChevronLeftIcon aria-hidden="true" />
                  Newer
                </Link>
              </Button>
            ) : (
              <span />
            )}
            {data.older && (
              <Button asChild variant="outline" size="sm">
                <Link
                  to={withParams(location.search, {
                    after: data.older,
                    before: null,
                    request: null,
                  })}
                >
                  Older
                  <ChevronRightIcon aria-hidden="true" />
                </Link>
              </Button>
            )}
          </nav>
        )}
      </CardContent>
    </Card>
  );
}
