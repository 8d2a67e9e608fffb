import { useLocation } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "~/components/ui/table";
import { LEAD_STATUSES, type LeadStatus } from "~/db/lead-status";
import type { LeadListItem } from "../people.server";
import type { FunnelMonth } from "../funnel.server";
import { LeadStatusLinks, LeadsSearchForm } from "./leads-filters";
import { LeadsTable } from "./leads-table";
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
          <LeadStatusLinks
            status={data.status}
            counts={data.counts}
            all={all}
            statusHref={(s) =>
              withParams(location.search, { tab: "leads", lstatus: s, lpage: null })
            }
          />
          <LeadsSearchForm search={data.search} status={data.status} />
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
