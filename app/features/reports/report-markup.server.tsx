import { renderToStaticMarkup } from "react-dom/server";
import { ReportSections } from "./components/report-sections";
import type { OwnerReport } from "./report-types";
import { reportTables, type ReportTable } from "./tables";

/*
 * The reports page's sections as markup, rendered once for each report kept (ADR 106). The
 * figures are kept while the database is unchanged (report-cache.server.ts, ADR 092): the same
 * object answers every request until something is written. The sections below the period
 * picker (members, prepaid hours, handymen, sales, parts: over a thousand elements, 85 KB) are
 * a function of those figures and of the period's query alone, and the page runs no JavaScript
 * (nothing hydrates them), so their markup is kept beside the figures, in a WeakMap keyed by
 * the kept object: it goes when the figures go. Rendering them again for each request was most
 * of the page's cost (9 ms of CPU a request, p95 107 ms at ten requests at once).
 */

type Figures = { report: OwnerReport; care: ReportTable[] };

/** A few queries per report (a period is usually asked for with one query string). */
const MAX_QUERIES = 4;

const kept = new WeakMap<Figures, Map<string, string>>();

/** The sections' markup for these figures and this period's query string. */
export function reportSectionsMarkup(figures: Figures, query: string): string {
  let byQuery = kept.get(figures);
  if (!byQuery) {
    byQuery = new Map();
    kept.set(figures, byQuery);
  }
  const markup = byQuery.get(query);
  if (markup !== undefined) return markup;
  const rendered = renderToStaticMarkup(
    <ReportSections
      report={figures.report}
      tables={reportTables(figures.report)}
      query={query}
      care={figures.care}
    />,
    // Apart from the page's own tree: no id it makes can meet one the page makes.
    { identifierPrefix: "report-" },
  );
  if (byQuery.size >= MAX_QUERIES) byQuery.delete(byQuery.keys().next().value!);
  byQuery.set(query, rendered);
  return rendered;
}
