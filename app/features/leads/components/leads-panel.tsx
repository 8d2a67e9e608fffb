import { Form, Link, useLocation } from "react-router";
import { zipAndCity } from "~/content/zip-cities";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { CARDS_BELOW_LG as cards } from "~/components/ui/table-cards";
import { LEAD_STATUSES, LEAD_STATUS_LABELS, type LeadStatus } from "~/db/lead-status";
import type { LeadListItem } from "../people.server";
import type { FunnelMonth } from "../funnel.server";
import { LeadStatusBadge, sourceLabel, whenLabel } from "./lead-status-badge";
import { formatPhone } from "~/lib/phone";
import { Pager } from "~/components/ui/pager";

type LeadsData = {
  leads: LeadListItem[];
  total: number;
  counts: Record<LeadStatus, number>;
  page: number;
  pageCount: number;
  status: LeadStatus | null;
  search: string;
  funnel: FunnelMonth[];
};

function withParams(search: string, changes: Record<string, string | null>) {
  const params = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  return `?${params.toString()}`;
}

const monthFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "short",
  year: "numeric",
});

function monthLabel(month: string) {
  const [y, m] = month.split("-").map(Number);
  return monthFormat.format(new Date(Date.UTC(y, m - 1, 1)));
}

const FUNNEL_COLUMNS: [keyof Omit<FunnelMonth, "month">, string][] = [
  ["leads", "Leads"],
  ["introCalls", "Intro calls"],
  ["walkThrus", "Walk-thrus"],
  ["offers", "Offers"],
  ["newMembers", "New members"],
];

/** The funnel in numbers: this month, and each of the last 12 months with their total. */
export function LeadFunnel({ funnel }: { funnel: FunnelMonth[] }) {
  const thisMonth = funnel[funnel.length - 1];
  const total = (key: keyof Omit<FunnelMonth, "month">) =>
    funnel.reduce((sum, m) => sum + m[key], 0);
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2 className="text-xl">Funnel</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <section aria-labelledby="funnel-this-month">
          <h3 id="funnel-this-month" className="mb-2 font-semibold">
            This month
          </h3>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
            {FUNNEL_COLUMNS.map(([key, label]) => (
              <div key={key} className="rounded-lg border p-3" data-funnel={key}>
                <dt className="text-sm text-muted-foreground">{label}</dt>
                <dd className="text-2xl font-bold">{thisMonth?.[key] ?? 0}</dd>
              </div>
            ))}
          </dl>
        </section>
        <Table containerLabel="Last 12 months">
          <caption className="mb-2 text-left font-semibold">Last 12 months</caption>
          <TableHeader>
            <TableRow>
              <TableHead scope="col">Month</TableHead>
              {FUNNEL_COLUMNS.map(([key, label]) => (
                <TableHead key={key} scope="col">
                  {label}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {funnel.map((m) => (
              <TableRow key={m.month}>
                <TableHead scope="row">{monthLabel(m.month)}</TableHead>
                {FUNNEL_COLUMNS.map(([key]) => (
                  <TableCell key={key}>{m[key]}</TableCell>
                ))}
              </TableRow>
            ))}
            <TableRow>
              <TableHead scope="row">12 months</TableHead>
              {FUNNEL_COLUMNS.map(([key]) => (
                <TableCell key={key} className="font-semibold">
                  {total(key)}
                </TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

/** The leads of the page: a table, a card per lead below the large screen. */
function LeadsTable({ leads }: { leads: LeadsData["leads"] }) {
  return (
    <Table containerLabel="Leads" className={cards.table}>
      <TableHeader className={cards.header}>
        <TableRow>
          <TableHead scope="col">Name</TableHead>
          <TableHead scope="col">Contact</TableHead>
          <TableHead scope="col">ZIP and city</TableHead>
          <TableHead scope="col">Came from</TableHead>
          <TableHead scope="col">When</TableHead>
          <TableHead scope="col">Status</TableHead>
          <TableHead scope="col">Owner</TableHead>
          <TableHead scope="col">Notes</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className={cards.body}>
        {leads.map((lead) => (
          <TableRow key={lead.id} className={`align-top ${cards.row}`} data-lead={lead.email}>
            <TableCell className={`font-medium max-lg:text-base ${cards.cell}`}>
              <Link className="text-primary underline" to={`/employee/leads/${lead.id}`}>
                {lead.name}
              </Link>
              {lead.entries > 1 ? (
                <span className="block text-xs text-muted-foreground">{lead.entries} entries</span>
              ) : null}
            </TableCell>
            <TableCell
              data-label="Contact"
              className={`max-lg:break-all ${cards.cell} ${cards.labelled}`}
            >
              <a className="text-primary underline" href={`mailto:${lead.email}`}>
                {lead.email}
              </a>
              {lead.phone ? <span className="block">{formatPhone(lead.phone)}</span> : null}
            </TableCell>
            <TableCell data-label="ZIP and city" className={`${cards.cell} ${cards.labelled}`}>
              {zipAndCity(lead.zipCode, lead.city) ?? (
                <span className="text-muted-foreground">Not given</span>
              )}
            </TableCell>
            <TableCell
              data-label="Came from"
              className={`whitespace-normal max-lg:break-all ${cards.cell} ${cards.labelled}`}
            >
              {sourceLabel(lead.source)}
            </TableCell>
            <TableCell data-label="When" className={`${cards.cell} ${cards.labelled}`}>
              {whenLabel(lead.lastEntryAt)}
            </TableCell>
            <TableCell data-label="Status" className={`${cards.cell} ${cards.labelled}`}>
              <LeadStatusBadge status={lead.status} lostReason={lead.lostReason} />
            </TableCell>
            <TableCell data-label="Owner" className={`${cards.cell} ${cards.labelled}`}>
              {lead.owner || <span className="text-muted-foreground">Nobody yet</span>}
            </TableCell>
            <TableCell
              data-label="Notes"
              className={`max-w-64 whitespace-normal ${cards.cell} ${cards.labelled}`}
            >
              {lead.notes || <span className="text-muted-foreground">None</span>}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The 'Leads' tab: every lead and intro-call booking, newest first (issue 29 item 1). */
export function LeadsPanel({ data }: { data: LeadsData }) {
  const location = useLocation();
  const all = LEAD_STATUSES.reduce((sum, s) => sum + data.counts[s], 0);
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader className="gap-4">
          <CardTitle asChild>
            <h2 className="text-xl">
              Leads ({data.status || data.search ? `${data.total} of ${all}` : all})
            </h2>
          </CardTitle>
          <nav aria-label="Leads by status">
            <ul className="flex flex-wrap gap-2">
              <li>
                <Link
                  className="inline-block rounded-md border px-3 py-1 text-sm"
                  aria-current={data.status === null ? "page" : undefined}
                  to={withParams(location.search, { tab: "leads", lstatus: null, lpage: null })}
                  preventScrollReset
                >
                  All ({all})
                </Link>
              </li>
              {LEAD_STATUSES.map((s) => (
                <li key={s}>
                  <Link
                    className="inline-block rounded-md border px-3 py-1 text-sm aria-[current=page]:bg-primary aria-[current=page]:text-primary-foreground"
                    aria-current={data.status === s ? "page" : undefined}
                    data-status-count={s}
                    to={withParams(location.search, { tab: "leads", lstatus: s, lpage: null })}
                    preventScrollReset
                  >
                    {LEAD_STATUS_LABELS[s]} ({data.counts[s]})
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
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
                defaultValue={data.search}
                key={data.search}
                maxLength={100}
              />
            </div>
            <div className="grid gap-1.5 sm:w-48">
              <Label htmlFor="leads-status">Status</Label>
              <NativeSelect
                id="leads-status"
                name="lstatus"
                defaultValue={data.status ?? ""}
                key={data.status ?? ""}
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
              {(data.search || data.status) && (
                <Button asChild variant="ghost">
                  <Link to="?tab=leads" preventScrollReset>
                    Clear
                  </Link>
                </Button>
              )}
            </div>
          </Form>
        </CardHeader>
        <CardContent>
          {data.leads.length === 0 ? (
            <p className="py-10 text-center text-muted-foreground">
              {data.search || data.status ? "No leads match this search" : "No leads yet"}
            </p>
          ) : (
            <LeadsTable leads={data.leads} />
          )}
          <Pager
            label="Lead pages"
            page={data.page}
            pageCount={data.pageCount}
            to={(n) => withParams(location.search, { lpage: String(n) })}
          />
        </CardContent>
      </Card>
      <LeadFunnel funnel={data.funnel} />
    </div>
  );
}
