import { buttonVariants } from "~/components/ui/button-variants";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { PERIOD_CHOICES, type Period } from "../period";
import type { OwnerReport } from "../reports.server";
import { percent, share, type ReportTable } from "../tables";
import { plainDate } from "~/lib/business-calendar";
import { formatCents, formatPrice } from "~/lib/money";
import { hoursText } from "~/lib/hours";
import { Chart, CHART_COLORS } from "./chart";
import { Block, Figure } from "./report-block";

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
      <Block
        title="Revenue, payments and refunds"
        table={tables["revenue-by-month"]}
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
      <Block
        title="Hours paid and not yet used, by plan"
        table={tables["hours-owed"]}
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
        table={tables["hours-by-month"]}
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
      <Block
        title="Utilization per week"
        table={tables["utilization-by-week"]}
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
      <Block title="Each handyman" table={tables.handymen} query={query} />
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
      <Block
        title="From lead to member per month"
        table={tables["sales-by-month"]}
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
