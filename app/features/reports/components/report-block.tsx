import { Fragment } from "react";
import { buttonVariants } from "~/components/ui/button-variants";
import type { ReportTable } from "../tables";
import { Chart, CHART_COLORS } from "./chart";

/*
 * What the owner's reports page (/employee/reports) is made of: a titled block of a chart above
 * its table (cards on a phone) and its CSV, and a headline figure.
 */

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

export function Block({
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

/**
 * The usual block: a chart of the report's rows (one series per figure of a row, each named,
 * in the chart's colour of that index) above its table.
 */
export function SeriesBlock<Row>({
  title,
  table,
  query,
  label = title,
  categories,
  rows,
  series,
  format,
  kind,
}: {
  title: string;
  table: ReportTable;
  query: string;
  /** What the chart shows, for a screen reader (the title unless told). */
  label?: string;
  categories: string[];
  rows: Row[];
  /** Each series: its name, its colour's index in CHART_COLORS, and its figure of a row. */
  series: [name: string, color: number, value: (row: Row) => number][];
  format: (value: number) => string;
  kind?: "bar" | "line";
}) {
  return (
    <Block
      title={title}
      table={table}
      query={query}
      chart={
        <Chart
          kind={kind}
          label={label}
          categories={categories}
          series={series.map(([name, color, value]) => ({
            name,
            color: CHART_COLORS[color],
            values: rows.map(value),
          }))}
          format={format}
        />
      }
    />
  );
}

/** One headline figure of a section. */
export function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid min-w-0 gap-1 rounded-lg border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-xl font-bold tabular-nums [overflow-wrap:anywhere]">{value}</dd>
    </div>
  );
}
