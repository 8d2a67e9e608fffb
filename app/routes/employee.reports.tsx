import { Fragment } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/employee.reports";
import { AppHeader } from "~/components/layout/app-header";
import { StaticProfileMenu } from "~/features/accounts";
import { buttonVariants } from "~/components/ui/button-variants";
import { NativeSelect } from "~/components/ui/native-select";
import { Input } from "~/components/ui/input";
import {
  Chart,
  CHART_COLORS,
  PERIOD_CHOICES,
  monthLabel,
  percent,
  periodFrom,
  periodQuery,
  reportTables,
  share,
  type ReportTable,
} from "~/features/reports";
import { careTables, ownerReport, requireReportsReader } from "~/features/reports/index.server";
import { businessToday, plainDate } from "~/lib/business-calendar";
import type { PageHandle } from "~/lib/page-scripts";
import { formatCents, formatPrice } from "~/lib/money";
import { hoursText } from "~/lib/hours";

/*
 * The owner's numbers (issue 30): members, money, prepaid hours, handymen, sales and parts for
 * a period, each chart drawn here as SVG with its figures in a table beside it and a CSV of that
 * table. The page runs no JavaScript in the browser (no hydration, ADR 030's pattern): the
 * period picker is a plain GET form.
 */
export const handle: PageHandle = { hydrate: false };

export async function loader({ request }: Route.LoaderArgs) {
  const employee = await requireReportsReader(request);
  const now = new Date();
  const period = periodFrom(new URL(request.url).searchParams, businessToday(now));
  const report = await ownerReport(period, { now });
  return {
    employee,
    period,
    report,
    tables: reportTables(report),
    // The dedicated handyman's share of visits and the referrals per specialist (ADR 088).
    care: await careTables(period),
    query: periodQuery(period),
  };
}

export function meta() {
  return [{ title: "Reports" }];
}

/** A table wider than this many columns is shown as a card per row on a phone. */
const PHONE_COLUMNS = 3;

function TableBlock({ table, query }: { table: ReportTable; query: string }) {
  const cards = table.columns.length > PHONE_COLUMNS;
  return (
    <div className="grid min-w-0 gap-2">
      {/*
        On a phone (below 640 px) a table of more than three columns is a list of cards, one per
        row, each figure under its column's name: nothing scrolls sideways (issue 40, item 12).
        Wider screens get the table; a wide one scrolls in its focusable region.
      */}
      {cards ? (
        <div className="grid gap-2 sm:hidden">
          <p className="font-medium">{table.title}</p>
          <ul className="grid gap-2" aria-label={table.title}>
            {table.rows.map((row, i) => (
              <li key={i} className="rounded-md border p-3">
                <p className="font-semibold">{row[0]}</p>
                <dl className="mt-1 grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-0.5 text-sm">
                  {table.columns.slice(1).map((column, j) => (
                    <Fragment key={column}>
                      <dt className="text-muted-foreground">{column}</dt>
                      <dd className="text-right tabular-nums">{row[j + 1]}</dd>
                    </Fragment>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div
        className={(cards ? "hidden sm:block " : "") + "overflow-x-auto rounded-md border"}
        role="region"
        aria-label={`${table.title} (table)`}
        tabIndex={0}
      >
        <table className="w-full text-sm">
          <caption className="px-3 py-2 text-left font-medium">{table.title}</caption>
          <thead className="bg-muted">
            <tr>
              {table.columns.map((c) => (
                <th key={c} scope="col" className="px-3 py-2 text-left font-semibold">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, i) => (
              <tr key={i} className="border-t">
                {row.map((cell, j) =>
                  j === 0 ? (
                    <th key={j} scope="row" className="px-3 py-1.5 text-left font-normal">
                      {cell}
                    </th>
                  ) : (
                    <td key={j} className="px-3 py-1.5 text-right tabular-nums">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <a
        href={`/employee/reports/csv/${table.id}?${query}`}
        download={`${table.id}.csv`}
        className={buttonVariants({ variant: "outline", size: "sm" }) + " justify-self-start"}
        aria-label={`Download CSV: ${table.title}`}
      >
        Download CSV
      </a>
    </div>
  );
}

function Block({
  title,
  chart,
  table,
  query,
}: {
  title: string;
  chart?: React.ReactNode;
  table: ReportTable;
  query: string;
}) {
  return (
    <section className="grid gap-3 rounded-lg border p-3 sm:p-4" aria-label={title}>
      <h3 className="text-lg font-semibold">{title}</h3>
      {/* The chart above its table: side by side, a chart's text would render under 12 px. */}
      <div className="grid gap-4">
        {chart}
        <TableBlock table={table} query={query} />
      </div>
    </section>
  );
}

export default function Reports({ loaderData: d }: Route.ComponentProps) {
  const { report, period, query } = d;
  const t = Object.fromEntries(d.tables.map((table) => [table.id, table]));
  const months = report.members.months.map((m) => monthLabel(m.month));
  const hours = (minutes: number) => `${Math.round(minutes / 60).toLocaleString("en-US")} h`;
  const dollarsShort = (cents: number) =>
    cents >= 100_000_00
      ? `$${(cents / 100_000_00).toFixed(cents % 100_000_00 ? 1 : 0)}M`
      : cents >= 1_000_00
        ? `$${Math.round(cents / 1_000_00)}k`
        : formatPrice(cents);
  return (
    <>
      <AppHeader width="max-w-6xl">
        <Link to="/employee" className={buttonVariants({ variant: "outline" })}>
          Dashboard
        </Link>
        {/* The page runs no JavaScript: the profile menu is a disclosure, 'Sign Out' a form. */}
        <StaticProfileMenu user={d.employee} profileHref="/employee?profile=open" />
      </AppHeader>
      <main className="mx-auto grid max-w-6xl gap-6 px-4 py-6 sm:py-8">
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold sm:text-3xl">Reports</h1>
          <p className="text-sm text-muted-foreground">
            {period.label}; members, hours owed and approvals pending on{" "}
            {plainDate(report.asOf, { month: "short" })}.
          </p>
        </div>
        <form method="get" className="flex flex-wrap items-end gap-3" aria-label="Report period">
          <label className="grid gap-1 text-sm font-medium">
            Period
            <NativeSelect name="period" defaultValue={period.choice}>
              {PERIOD_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="grid gap-1 text-sm font-medium">
            From (custom range)
            <Input type="date" name="from" defaultValue={period.from} />
          </label>
          <label className="grid gap-1 text-sm font-medium">
            To (custom range)
            <Input type="date" name="to" defaultValue={period.to} />
          </label>
          <button type="submit" className={buttonVariants()}>
            Show
          </button>
          {period.error ? (
            <p role="alert" className="w-full text-sm font-medium text-destructive">
              {period.error}
            </p>
          ) : null}
        </form>

        <section className="grid gap-4" aria-labelledby="members">
          <h2 id="members" className="text-xl font-bold">
            Members
          </h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <Figure
              label="Active members"
              value={report.members.activeTotal.toLocaleString("en-US")}
            />
            <Figure
              label="Monthly recurring revenue"
              value={formatCents(report.members.mrrCents)}
            />
            <Figure
              label="Revenue after credits"
              value={formatCents(report.members.revenueTotal.netCents)}
            />
            <Figure
              label="Payments received"
              value={formatCents(report.members.revenueTotal.paymentCents)}
            />
            <Figure label="Refunds" value={formatCents(report.members.revenueTotal.refundCents)} />
            <Figure
              label="Credits at cancel"
              value={formatCents(report.members.revenueTotal.creditCents)}
            />
          </dl>
          <Block
            title="Active members by plan and billing"
            table={t["active-members"]}
            query={query}
            chart={
              <Chart
                label={`Active members by plan and billing: ${report.members.active.map((r) => `${r.planName} ${r.billing} ${r.count}`).join(", ")}`}
                categories={["Essential", "Complete", "Total"]}
                series={(["monthly", "annual"] as const).map((billing, i) => ({
                  name: billing === "monthly" ? "Monthly" : "Annual",
                  color: CHART_COLORS[i],
                  values: (["essential", "complete", "total"] as const).map(
                    (plan) =>
                      report.members.active.find((r) => r.plan === plan && r.billing === billing)
                        ?.count ?? 0,
                  ),
                }))}
                format={(v) => v.toLocaleString("en-US")}
              />
            }
          />
          <Block
            title="New and canceled members, churn and recurring revenue per month"
            table={t["members-by-month"]}
            query={query}
            chart={
              <div className="grid gap-4">
                <Chart
                  label="New and canceled members per month"
                  categories={months}
                  series={[
                    {
                      name: "New",
                      color: CHART_COLORS[0],
                      values: report.members.months.map((m) => m.newMembers),
                    },
                    {
                      name: "Canceled",
                      color: CHART_COLORS[1],
                      values: report.members.months.map((m) => m.canceled),
                    },
                  ]}
                  format={(v) => v.toLocaleString("en-US")}
                />
                <Chart
                  kind="line"
                  label="Monthly recurring revenue at each month's end"
                  categories={months}
                  series={[
                    {
                      name: "Monthly recurring revenue",
                      color: CHART_COLORS[2],
                      values: report.members.months.map((m) => m.mrrCents),
                    },
                  ]}
                  format={dollarsShort}
                />
              </div>
            }
          />
          <Block
            title="Revenue, payments and refunds"
            table={t["revenue-by-month"]}
            query={query}
            chart={
              <Chart
                label="Revenue after credits, payments received and refunds paid per month"
                categories={months}
                series={[
                  {
                    name: "Revenue after credits",
                    color: CHART_COLORS[0],
                    values: report.members.revenue.map((r) => r.netCents),
                  },
                  {
                    name: "Payments received",
                    color: CHART_COLORS[2],
                    values: report.members.revenue.map((r) => r.paymentCents),
                  },
                  {
                    name: "Refunds",
                    color: CHART_COLORS[1],
                    values: report.members.revenue.map((r) => r.refundCents),
                  },
                ]}
                format={dollarsShort}
              />
            }
          />
        </section>

        <section className="grid gap-4" aria-labelledby="prepaid-hours">
          <h2 id="prepaid-hours" className="text-xl font-bold">
            Prepaid hours
          </h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Figure label="Hours owed" value={hoursText(report.hours.owedMinutes)} />
            <Figure label="What the business owes" value={formatCents(report.hours.owedCents)} />
            <Figure
              label="Visits completed"
              value={report.hours.completedVisits.toLocaleString("en-US")}
            />
            <Figure
              label="Average time worked per visit"
              value={
                report.hours.averageWorkedMinutes === null
                  ? "n/a"
                  : hoursText(report.hours.averageWorkedMinutes)
              }
            />
          </dl>
          <Block
            title="Hours paid and not yet used, by plan"
            table={t["hours-owed"]}
            query={query}
            chart={
              <Chart
                label={`Value of the hours owed by plan: ${report.hours.owed.map((o) => `${o.planName} ${formatCents(o.valueCents)}`).join(", ")}`}
                categories={report.hours.owed.map((o) => o.planName.split(" ")[0])}
                series={[
                  {
                    name: "Value at the plan's hourly rate",
                    color: CHART_COLORS[3],
                    values: report.hours.owed.map((o) => o.valueCents),
                  },
                ]}
                format={dollarsShort}
              />
            }
          />
          <Block
            title="Hours sold, reserved and used per month"
            table={t["hours-by-month"]}
            query={query}
            chart={
              <Chart
                label="Hours sold, reserved and used per month"
                categories={months}
                series={[
                  {
                    name: "Sold",
                    color: CHART_COLORS[0],
                    values: report.hours.months.map((m) => m.soldMinutes),
                  },
                  {
                    name: "Reserved",
                    color: CHART_COLORS[1],
                    values: report.hours.months.map((m) => m.reservedMinutes),
                  },
                  {
                    name: "Used",
                    color: CHART_COLORS[2],
                    values: report.hours.months.map((m) => m.usedMinutes),
                  },
                ]}
                format={hours}
              />
            }
          />
        </section>

        <section className="grid gap-4" aria-labelledby="handymen">
          <h2 id="handymen" className="text-xl font-bold">
            Handymen
          </h2>
          <Block
            title="Utilization per week"
            table={t["utilization-by-week"]}
            query={query}
            chart={
              <Chart
                label="Booked hours as a share of available hours, per week"
                categories={report.handymen.weeks.map((w) =>
                  plainDate(w.week, { month: "short", year: false }),
                )}
                series={[
                  {
                    name: "Utilization",
                    color: CHART_COLORS[0],
                    values: report.handymen.weeks.map(
                      (w) => share(w.bookedMinutes, w.availableMinutes) ?? 0,
                    ),
                  },
                ]}
                format={(v) => percent(v).replace(".0%", "%")}
              />
            }
          />
          <Block title="Each handyman" table={t.handymen} query={query} />
          {d.care.map((table) => (
            <Block key={table.id} title={table.title} table={table} query={query} />
          ))}
        </section>

        <section className="grid gap-4" aria-labelledby="sales">
          <h2 id="sales" className="text-xl font-bold">
            Sales
          </h2>
          <Block
            title="From lead to member per month"
            table={t["sales-by-month"]}
            query={query}
            chart={
              <Chart
                label="Leads, intro calls, walk-thrus, offers and new members per month"
                categories={months}
                series={[
                  {
                    name: "Leads",
                    color: CHART_COLORS[0],
                    values: report.sales.months.map((m) => m.leads),
                  },
                  {
                    name: "Intro calls",
                    color: CHART_COLORS[1],
                    values: report.sales.months.map((m) => m.introCalls),
                  },
                  {
                    name: "Walk-thrus",
                    color: CHART_COLORS[3],
                    values: report.sales.months.map((m) => m.walkThrus),
                  },
                  {
                    name: "Offers",
                    color: CHART_COLORS[4],
                    values: report.sales.months.map((m) => m.offers),
                  },
                  {
                    name: "New members",
                    color: CHART_COLORS[2],
                    values: report.sales.months.map((m) => m.newMembers),
                  },
                ]}
                format={(v) => v.toLocaleString("en-US")}
              />
            }
          />
        </section>

        <section className="grid gap-4" aria-labelledby="parts">
          <h2 id="parts" className="text-xl font-bold">
            Parts
          </h2>
          <Block title="Approvals and charges" table={t.parts} query={query} />
        </section>
      </main>
    </>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid min-w-0 gap-1 rounded-lg border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-xl font-bold tabular-nums [overflow-wrap:anywhere]">{value}</dd>
    </div>
  );
}
