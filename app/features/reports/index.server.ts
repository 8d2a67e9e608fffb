/** What other features and the routes may use of this feature on the server (ESLint enforces it). */
export { ownerReport, reportsPageFigures } from "./reports.server";
export type { OwnerReport } from "./reports.server";
export { canSeeReports, requireReportsReader, requireReportsReaderForFile } from "./access.server";
export { careTables } from "./care.server";
export { reportSectionsMarkup } from "./report-markup.server";
