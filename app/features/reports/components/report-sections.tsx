import { buttonVariants } from "~/components/ui/button-variants";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { monthLabel, PERIOD_CHOICES, type Period } from "../period";
import type { OwnerReport } from "../reports.server";
import { percent, share, type ReportTable } from "../tables";
import { plainDate } from "~/lib/business-calendar";
import { formatCents, formatPrice } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { Chart, CHART_COLORS } from "./chart";
import { Block, Figure, SeriesBlock } from "./report-block";

/*
 * The sections of the owner's reports page (/employee/reports): the period picker, then
 * members, prepaid hours, handymen, sales and parts, each a chart above its table (ADR 082).
 */

/** The report's tables by id, and the query string that names the period (for each CSV). */
type SectionProps = { report: OwnerReport; tables: Record<string, ReportTable>; query: string };

const hours = (minutes: number) => `${Math.round(minutes / 60).toLocaleString("en-US")} h`;
const dollarsShort = (cents: number) =>
  cents >= 100_000_00
    ? `$${(cents / 100_000_00).toFixed(cents % 100_000_00 ? 1 : 0)}M`
    : cents >= 1_000_00
      ? `$${Math.round(cents / 1_000_00)}k`
      : formatPrice(cents);

/** The period picker: a plain GET form (the page runs no JavaScript). */
export function PeriodForm({ period }: { period: Period & { error?: string | null } }) {
  return (
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
  );
}

export function MembersSection({
  report,
  tables,
  query,
  months,
}: SectionProps & { months: string[] }) {
  return (
    <section className="grid gap-4" aria-labelledby="members">
      <h2 id="members" className="text-xl font-bold">
        Members
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Figure label="Active members" value={report.members.activeTotal.toLocaleString("en-US")} />
        <Figure label="Monthly recurring revenue" value={formatCents(report.members.mrrCents)} />
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
        table={tables["active-members"]}
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
        table={tables["members-by-month"]}
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
      <SeriesBlock
        title="Revenue, payments and refunds"
        table={tables["revenue-by-month"]}
        query={query}
        label="Revenue after credits, payments received and refunds paid per month"
        categories={months}
        rows={report.members.revenue}
        series={[
          ["Revenue after credits", 0, (r) => r.netCents],
          ["Payments received", 2, (r) => r.paymentCents],
          ["Refunds", 1, (r) => r.refundCents],
        ]}
        format={dollarsShort}
      />
    </section>
  );
}

export function PrepaidHoursSection({
  report,
  tables,
  query,
  months,
}: SectionProps & { months: string[] }) {
  return (
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
      <SeriesBlock
        title="Hours paid and not yet used, by plan"
        table={tables["hours-owed"]}
        query={query}
        label={`Value of the hours owed by plan: ${report.hours.owed.map((o) => `${o.planName} ${formatCents(o.valueCents)}`).join(", ")}`}
        categories={report.hours.owed.map((o) => o.planName.split(" ")[0])}
        rows={report.hours.owed}
        series={[["Value at the plan's hourly rate", 3, (o) => o.valueCents]]}
        format={dollarsShort}
      />
      <SeriesBlock
        title="Hours sold, reserved and used per month"
        table={tables["hours-by-month"]}
        query={query}
        categories={months}
        rows={report.hours.months}
        series={[
          ["Sold", 0, (m) => m.soldMinutes],
          ["Reserved", 1, (m) => m.reservedMinutes],
          ["Used", 2, (m) => m.usedMinutes],
        ]}
        format={hours}
      />
    </section>
  );
}

export function HandymenSection({
  report,
  tables,
  query,
  care,
}: SectionProps & { care: ReportTable[] }) {
  return (
    <section className="grid gap-4" aria-labelledby="handymen">
      <h2 id="handymen" className="text-xl font-bold">
        Handymen
      </h2>
      <SeriesBlock
        title="Utilization per week"
        table={tables["utilization-by-week"]}
        query={query}
        label="Booked hours as a share of available hours, per week"
        categories={report.handymen.weeks.map((w) =>
          plainDate(w.week, { month: "short", year: false }),
        )}
        rows={report.handymen.weeks}
        series={[["Utilization", 0, (w) => share(w.bookedMinutes, w.availableMinutes) ?? 0]]}
        format={(v) => percent(v).replace(".0%", "%")}
      />
      <Block title="Each handyman" table={tables.handymen} query={query} />
      <Block title="Two handymen on one visit" table={tables["two-handymen"]} query={query} />
      {care.map((table) => (
        <Block key={table.id} title={table.title} table={table} query={query} />
      ))}
    </section>
  );
}

export function SalesSection({
  report,
  tables,
  query,
  months,
}: SectionProps & { months: string[] }) {
  return (
    <section className="grid gap-4" aria-labelledby="sales">
      <h2 id="sales" className="text-xl font-bold">
        Sales
      </h2>
      <SeriesBlock
        title="From lead to member per month"
        table={tables["sales-by-month"]}
        query={query}
        label="Leads, intro calls, walk-thrus, offers and new members per month"
        categories={months}
        rows={report.sales.months}
        series={[
          ["Leads", 0, (m) => m.leads],
          ["Intro calls", 1, (m) => m.introCalls],
          ["Walk-thrus", 3, (m) => m.walkThrus],
          ["Offers", 4, (m) => m.offers],
          ["New members", 2, (m) => m.newMembers],
        ]}
        format={(v) => v.toLocaleString("en-US")}
      />
    </section>
  );
}

export function PartsSection({ tables, query }: Omit<SectionProps, "report">) {
  return (
    <section className="grid gap-4" aria-labelledby="parts">
      <h2 id="parts" className="text-xl font-bold">
        Parts
      </h2>
      <Block title="Approvals and charges" table={tables.parts} query={query} />
    </section>
  );
}

/** Every section of the report below the period picker (the markup kept by report-markup). */
export function ReportSections({
  report,
  tables,
  query,
  care,
}: {
  report: OwnerReport;
  tables: ReportTable[];
  query: string;
  care: ReportTable[];
}) {
  const t = Object.fromEntries(tables.map((table) => [table.id, table]));
  const months = report.members.months.map((m) => monthLabel(m.month));
  return (
    <>
      <MembersSection report={report} tables={t} query={query} months={months} />
      <PrepaidHoursSection report={report} tables={t} query={query} months={months} />
      <HandymenSection report={report} tables={t} query={query} care={care} />
      <SalesSection report={report} tables={t} query={query} months={months} />
      <PartsSection tables={t} query={query} />
    </>
  );
}
