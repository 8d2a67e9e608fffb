import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { LEAD_STATUSES, LEAD_STATUS_LABELS, type LeadStatus } from "~/db/lead-status";

/** The Leads tab's status links, each with its count; `statusHref` keeps the other parameters. */
export function LeadStatusLinks({
  status,
  counts,
  all,
  statusHref,
}: {
  status: LeadStatus | null;
  counts: Record<LeadStatus, number>;
  all: number;
  statusHref(status: LeadStatus | null): string;
}) {
  return (
    <nav aria-label="Leads by status">
      <ul className="flex flex-wrap gap-2">
        <li>
          <Link
            className="inline-block rounded-md border px-3 py-1 text-sm"
            aria-current={status === null ? "page" : undefined}
            to={statusHref(null)}
            preventScrollReset
          >
            All ({all})
          </Link>
        </li>
        {LEAD_STATUSES.map((s) => (
          <li key={s}>
            <Link
              className="inline-block rounded-md border px-3 py-1 text-sm aria-[current=page]:bg-primary aria-[current=page]:text-primary-foreground"
              aria-current={status === s ? "page" : undefined}
              data-status-count={s}
              to={statusHref(s)}
              preventScrollReset
            >
              {LEAD_STATUS_LABELS[s]} ({counts[s]})
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The Leads tab's search: a GET form, so it works without JavaScript and lives in the URL. */
export function LeadsSearchForm({ search, status }: { search: string; status: LeadStatus | null }) {
  return (
    <Form
      method="get"
      role="search"
      aria-label="Search leads"
      className="flex flex-col gap-3 sm:flex-row sm:items-end"
      preventScrollReset
    >
      <input type="hidden" name="tab" value="leads" />
      <div className="grid flex-1 gap-1.5">
        <Label htmlFor="leads-search">Search by name, e-mail, phone, ZIP or city</Label>
        <Input
          id="leads-search"
          name="lq"
          type="search"
          defaultValue={search}
          key={search}
          maxLength={100}
        />
      </div>
      <div className="grid gap-1.5 sm:w-48">
        <Label htmlFor="leads-status">Status</Label>
        <NativeSelect
          id="leads-status"
          name="lstatus"
          defaultValue={status ?? ""}
          key={status ?? ""}
        >
          <option value="">All statuses</option>
          {LEAD_STATUSES.map((s) => (
            <option key={s} value={s}>
              {LEAD_STATUS_LABELS[s]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="flex gap-2">
        <Button type="submit" variant="secondary">
          Search
        </Button>
        {(search || status) && (
          <Button asChild variant="ghost">
            <Link to="?tab=leads" preventScrollReset>
              Clear
            </Link>
          </Button>
        )}
      </div>
    </Form>
  );
}
