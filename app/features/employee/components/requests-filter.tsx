import { useEffect, useRef, useState } from "react";
import { Form, useSubmit } from "react-router";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect, NativeSelectOption } from "~/components/ui/native-select";
import { REQUEST_STATUSES } from "~/db/request-status";
import { statusLabel } from "~/features/service-requests";
import { SEARCH_MAX_LENGTH, normaliseSearch } from "~/lib/query";
import { SearchActions } from "./search-actions";

/**
 * The All Requests tab's search and status filter. With JavaScript the filter applies as soon
 * as it changes and the search a moment after typing stops; without it, the Search button
 * submits the same GET form.
 */
export function RequestsFilter({
  search,
  status,
  filtered,
}: {
  search: string;
  status: string | null;
  filtered: boolean;
}) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const [searchText, setSearchText] = useState(search);
  const [statusValue, setStatusValue] = useState(status ?? "all");
  const shownSearch = useRef(search);
  useEffect(() => {
    shownSearch.current = search;
    // A new page (Clear, a link, back): show its search, unless the employee is typing.
    if (document.activeElement !== searchRef.current) setSearchText(search);
  }, [search]);
  useEffect(() => setStatusValue(status ?? "all"), [status]);
  useEffect(() => () => clearTimeout(typingTimer.current), []);
  const applyFilters = () => {
    clearTimeout(typingTimer.current);
    if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
  };

  return (
    // A GET form: the filter and search live in the URL, so they work without JavaScript,
    // survive a reload and can be shared.
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
  );
}
