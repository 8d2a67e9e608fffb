import type { Route } from "./+types/employee.reports.csv.$table";
import { periodFrom, reportTables, toCsv } from "~/features/reports";
import {
  careTables,
  ownerReport,
  requireReportsReaderForFile,
} from "~/features/reports/index.server";
import { businessToday } from "~/lib/business-calendar";

/** 'Download CSV' of one of the reports' tables, for the period of the page it came from. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireReportsReaderForFile(request);
  const now = new Date();
  const period = periodFrom(new URL(request.url).searchParams, businessToday(now));
  const report = await ownerReport(period, { now });
  const table = [...reportTables(report), ...(await careTables(period))].find(
    (t) => t.id === params.table,
  );
  if (!table) throw new Response("No such table", { status: 404 });
  return new Response(toCsv(table), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${table.id}-${period.from}-to-${period.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
